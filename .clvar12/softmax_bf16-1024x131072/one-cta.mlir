module {
  func.func @softmax_bf16(%arg0: tensor<1024x131072xbf16>) -> tensor<1024x131072xbf16> attributes {motif.equivalence = #motif<equivalence mathematical>, motif.invariants = {deps = [array<i64: 0>], observables = 0 : i64, reductions = ["add over [131072] of {arg0}", "max over [131072] of {arg0}"]}} {
    %0 = motif.kernel "softmax_bf16_max_to_softmax_bf16_div" threads(1024) -> tensor<1024x131072xbf16> {
      %1 = motif.map (%arg0[i, j]) -> [i, j] over [block, thread] : (tensor<1024x131072xbf16>) -> tensor<1024x131072xbf16> {
      ^bb0(%arg1: bf16):
        motif.yield %arg1 : bf16
      }
      %2 = motif.materialize %1 in register shared_tail(64) {motif.producer = "input argument #0", motif.rule = "rule 3: argument #0 is read by 2 motifs of the kernel; loaded once, 64 register(s) per thread and 64 slots in a shared tail of each thread's own (32768 B per CTA, no barrier; 128 registers per thread exceed the register budget (64))", motif.saved_bytes = 268435456 : i64, motif.was = #motif<residency global>} : tensor<1024x131072xbf16>
      %3 = motif.reduce <max> (%2[i, j]) -> [i] over [block, thread] : (tensor<1024x131072xbf16>) -> tensor<1024xf32>
      %4 = motif.materialize %3 in register {motif.producer = "softmax_bf16_max#0", motif.rule = "rule 1: not observable, same thread; consumer 'softmax_bf16_exp' (motif.map): every reader owns the element (the all-reduce over 'thread' leaves it in each thread)", motif.saved_bytes = 8192 : i64, motif.was = #motif<residency global>} : tensor<1024xf32>
      %5 = motif.map (%2[i, j], %4[i]) -> [i, j] over [block, thread] : (tensor<1024x131072xbf16>, tensor<1024xf32>) -> tensor<1024x131072xf32> {
      ^bb0(%arg1: bf16, %arg2: f32):
        %11 = arith.extf %arg1 : bf16 to f32
        %12 = arith.subf %11, %arg2 : f32
        %cst = arith.constant 1.44269502 : f32
        %13 = arith.mulf %12, %cst : f32
        %14 = math.exp2 %13 : f32
        motif.yield %14 : f32
      }
      %6 = motif.materialize %5 in register recompute {motif.producer = "softmax_bf16_exp#0", motif.rule = "rule 6: recomputed by its 2 reader(s) from 'input argument #0', 'softmax_bf16_max#0' (in registers): its 128 slots a thread are not kept (it had a shared tail); shared bytes of the kernel's values at their peak 98304 -> 32768 B, blocks an SM 2 -> 4, registers a thread for its values (16-bit ones two to a register) 65 -> 34; its body (5 operations) runs once a reader (bitwise: the same operations on the same values)", motif.saved_bytes = 1610612736 : i64, motif.was = #motif<residency global>} : tensor<1024x131072xf32>
      %7 = motif.reduce <add> (%6[i, j]) -> [i] over [block, thread] : (tensor<1024x131072xf32>) -> tensor<1024xf32>
      %8 = motif.materialize %7 in register {motif.producer = "softmax_bf16_sum#0", motif.rule = "rule 1: not observable, same thread; consumer 'softmax_bf16_div' (motif.map): every reader owns the element (the all-reduce over 'thread' leaves it in each thread)", motif.saved_bytes = 8192 : i64, motif.was = #motif<residency global>} : tensor<1024xf32>
      %9 = motif.map (%6[i, j], %8[i]) -> [i, j] over [block, thread] : (tensor<1024x131072xf32>, tensor<1024xf32>) -> tensor<1024x131072xbf16> {
      ^bb0(%arg1: f32, %arg2: f32):
        %cst = arith.constant 1.000000e+00 : f32
        %11 = arith.divf %cst, %arg2 : f32
        %12 = arith.mulf %arg1, %11 : f32
        %13 = arith.truncf %12 : f32 to bf16
        motif.yield %13 : bf16
      }
      %10 = motif.materialize %9 in global {motif.producer = "softmax_bf16_div#0", motif.rule = "rule 1: externally observable (returned by the function)", motif.saved_bytes = 0 : i64, motif.was = #motif<residency global>} : tensor<1024x131072xbf16>
      motif.yield %10 : tensor<1024x131072xbf16>
    }
    return %0 : tensor<1024x131072xbf16>
  }
}

