module {
  func.func @softmax(%arg0: tensor<2048x65536xf32>) -> tensor<2048x65536xf32> attributes {motif.equivalence = #motif<equivalence mathematical>, motif.invariants = {deps = [array<i64: 0>], observables = 0 : i64, reductions = ["add over [65536] of {arg0}", "max over [65536] of {arg0}"]}} {
    %0 = motif.kernel "softmax_max_to_softmax_div" threads(1024) -> tensor<2048x65536xf32> {
      %1 = motif.map (%arg0[i, j]) -> [i, j] over [block, thread] : (tensor<2048x65536xf32>) -> tensor<2048x65536xf32> {
      ^bb0(%arg1: f32):
        motif.yield %arg1 : f32
      }
      %2 = motif.materialize %1 in register {motif.producer = "input argument #0", motif.rule = "rule 3: argument #0 is read by 2 motifs of the kernel; loaded once, 64 register(s) per thread", motif.saved_bytes = 536870912 : i64, motif.was = #motif<residency global>} : tensor<2048x65536xf32>
      %3 = motif.reduce <max> (%2[i, j]) -> [i] over [block, thread] : (tensor<2048x65536xf32>) -> tensor<2048xf32>
      %4 = motif.materialize %3 in register {motif.producer = "softmax_max#0", motif.rule = "rule 1: not observable, same thread; consumer 'softmax_exp' (motif.map): every reader owns the element (the all-reduce over 'thread' leaves it in each thread)", motif.saved_bytes = 16384 : i64, motif.was = #motif<residency global>} : tensor<2048xf32>
      %5 = motif.map (%2[i, j], %4[i]) -> [i, j] over [block, thread] : (tensor<2048x65536xf32>, tensor<2048xf32>) -> tensor<2048x65536xf32> {
      ^bb0(%arg1: f32, %arg2: f32):
        %11 = arith.subf %arg1, %arg2 : f32
        %cst = arith.constant 1.44269502 : f32
        %12 = arith.mulf %11, %cst : f32
        %13 = math.exp2 %12 : f32
        motif.yield %13 : f32
      }
      %6 = motif.materialize %5 in register {motif.producer = "softmax_exp#0", motif.rule = "rule 1: not observable, same thread; 2 consumer kernels ('softmax_sum', 'softmax_div'); first with this scope: consumer 'softmax_sum' (motif.reduce): each element is read by the thread that computes it", motif.saved_bytes = 1610612736 : i64, motif.was = #motif<residency global>} : tensor<2048x65536xf32>
      %7 = motif.reduce <add> (%6[i, j]) -> [i] over [block, thread] : (tensor<2048x65536xf32>) -> tensor<2048xf32>
      %8 = motif.materialize %7 in register {motif.producer = "softmax_sum#0", motif.rule = "rule 1: not observable, same thread; consumer 'softmax_div' (motif.map): every reader owns the element (the all-reduce over 'thread' leaves it in each thread)", motif.saved_bytes = 16384 : i64, motif.was = #motif<residency global>} : tensor<2048xf32>
      %9 = motif.map (%6[i, j], %8[i]) -> [i, j] over [block, thread] : (tensor<2048x65536xf32>, tensor<2048xf32>) -> tensor<2048x65536xf32> {
      ^bb0(%arg1: f32, %arg2: f32):
        %cst = arith.constant 1.000000e+00 : f32
        %11 = arith.divf %cst, %arg2 : f32
        %12 = arith.mulf %arg1, %11 : f32
        motif.yield %12 : f32
      }
      %10 = motif.materialize %9 in global {motif.producer = "softmax_div#0", motif.rule = "rule 1: externally observable (returned by the function)", motif.saved_bytes = 0 : i64, motif.was = #motif<residency global>} : tensor<2048x65536xf32>
      motif.yield %10 : tensor<2048x65536xf32>
    }
    return %0 : tensor<2048x65536xf32>
  }
  func.func @softmax_rows(%arg0: tensor<2048x65536xf32>) -> tensor<2048x65536xf32> attributes {motif.equivalence = #motif<equivalence mathematical>, motif.invariants = {deps = [array<i64: 0>], observables = 0 : i64, reductions = ["combiner/2 over [65536] of {arg0}"]}} {
    %0 = motif.kernel "rows_max_rows_div" threads(256) -> tensor<2048x65536xf32> {
      %1 = motif.map () -> [i, j] over [block.warp, lane] : () -> tensor<2048x65536xf32> {
        %cst = arith.constant 1.000000e+00 : f32
        motif.yield %cst : f32
      }
      %2 = motif.materialize %1 in register {motif.rule = "rule 4: the online state's seed (x, 1): a constant map, no slots"} : tensor<2048x65536xf32>
      %3:2 = motif.reduce (%arg0[i, j], %2[i, j]) -> [i] init [0xFF800000 : f32, 0.000000e+00 : f32] over [block.warp, lane] {motif.rewrite = "rule 4 (online softmax): the max over dims [1] of argument #0 (kernel 'rows_max') and the sum of exp(x - max) (kernel 'rows_sum') merged into one reduction carrying (max, sum); class mathematical (the sum is rescaled as the max grows); reductions over the row: 2 -> 1; exp(x - max) recomputed in its 1 map reader(s) as exp2((x - max) * log2(e)) (never stored)"} : (tensor<2048x65536xf32>, tensor<2048x65536xf32>) -> (tensor<2048xf32>, tensor<2048xf32>) combiner {
      ^bb0(%arg1: f32, %arg2: f32, %arg3: f32, %arg4: f32):
        %8 = arith.maximumf %arg1, %arg3 : f32
        %cst = arith.constant 0xFF800000 : f32
        %9 = arith.cmpf oeq, %8, %cst : f32
        %cst_0 = arith.constant 0.000000e+00 : f32
        %10 = arith.select %9, %cst_0, %8 : f32
        %11 = arith.subf %arg1, %10 : f32
        %cst_1 = arith.constant 1.44269502 : f32
        %12 = arith.mulf %11, %cst_1 : f32
        %13 = math.exp2 %12 : f32
        %14 = arith.subf %arg3, %10 : f32
        %cst_2 = arith.constant 1.44269502 : f32
        %15 = arith.mulf %14, %cst_2 : f32
        %16 = math.exp2 %15 : f32
        %17 = arith.mulf %arg2, %13 : f32
        %18 = math.fma %arg4, %16, %17 : f32
        motif.yield %8, %18 : f32, f32
      }
      %4 = motif.materialize %3#0 in register {motif.producer = "rows_max#0", motif.rule = "rule 1: not observable, same thread; consumer 'rows_div' (motif.map): every reader owns the element (the all-reduce over 'lane' leaves it in each thread)", motif.saved_bytes = 16384 : i64, motif.was = #motif<residency global>} : tensor<2048xf32>
      %5 = motif.materialize %3#1 in register {motif.producer = "rows_max#1", motif.rule = "rule 1: not observable, same thread; consumer 'rows_div' (motif.map): every reader owns the element (the all-reduce over 'lane' leaves it in each thread)", motif.saved_bytes = 16384 : i64, motif.was = #motif<residency global>} : tensor<2048xf32>
      %6 = motif.map (%5[i], %arg0[i, j], %4[i]) -> [i, j] over [block.warp, lane] : (tensor<2048xf32>, tensor<2048x65536xf32>, tensor<2048xf32>) -> tensor<2048x65536xf32> {
      ^bb0(%arg1: f32, %arg2: f32, %arg3: f32):
        %8 = arith.subf %arg2, %arg3 : f32
        %cst = arith.constant 1.44269502 : f32
        %9 = arith.mulf %8, %cst : f32
        %10 = math.exp2 %9 : f32
        %cst_0 = arith.constant 1.000000e+00 : f32
        %11 = arith.divf %cst_0, %arg1 : f32
        %12 = arith.mulf %10, %11 : f32
        motif.yield %12 : f32
      }
      %7 = motif.materialize %6 in global {motif.producer = "rows_div#0", motif.rule = "rule 1: externally observable (returned by the function)", motif.saved_bytes = 0 : i64, motif.was = #motif<residency global>} : tensor<2048x65536xf32>
      motif.yield %7 : tensor<2048x65536xf32>
    }
    return %0 : tensor<2048x65536xf32>
  }
}

