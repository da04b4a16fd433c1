module {
  func.func @mm(%arg0: tensor<77x768xbf16>, %arg1: tensor<768x768xbf16>) -> tensor<77x768xbf16> attributes {motif.equivalence = #motif<equivalence tolerance>, motif.invariants = {deps = [array<i64: 0, 1>], observables = 0 : i64, reductions = ["sum-of-products over [768] of {arg0, arg1}"]}} {
    %0 = motif.kernel "mm_round" threads(32) -> tensor<77x768xbf16> {
      %1 = motif.materialize %arg1 in shared {motif.producer = "input argument #1", motif.rule = "rule 3: operand tile 32x16 per block per step of the reduction loop (24 steps), 3072 B; each element read by 8 threads, 16 times in all; 3 stages (cp.async pipeline), 16-byte chunks XOR-swizzled within each 128-byte line (tensor cores: each ldmatrix row in its own banks)", motif.saved_bytes = 88473600 : i64, motif.was = #motif<residency global>} : tensor<768x768xbf16>
      %2 = motif.materialize %arg0 in shared {motif.producer = "input argument #0", motif.rule = "rule 3: operand tile 16x32 per block per step of the reduction loop (24 steps), 3072 B; each element read by 4 threads, 16 times in all; 3 stages (cp.async pipeline), 16-byte chunks XOR-swizzled within each 128-byte line (tensor cores: each ldmatrix row in its own banks)", motif.saved_bytes = 88473600 : i64, motif.was = #motif<residency global>} : tensor<77x768xbf16>
      %3 = motif.contract (%2[i, k], %1[k, j]) -> [i, j] over [block x seq(2) x thread(8), block x seq(2) x thread(4) x seq(2), seq x seq(64)] mma m16n8k16 stages(3) : (tensor<77x768xbf16>, tensor<768x768xbf16>) -> tensor<77x768xf32>
      %4 = motif.materialize %3 in register {motif.producer = "mm#0", motif.rule = "rule 1: not observable, same thread; consumer 'round' (motif.map): each element is read by the thread that computes it", motif.saved_bytes = 473088 : i64, motif.was = #motif<residency global>} : tensor<77x768xf32>
      %5 = motif.map (%4[i, j]) -> [i, j] over [block x seq(2) x thread(8), block x seq(2) x thread(4) x seq(2)] : (tensor<77x768xf32>) -> tensor<77x768xbf16> {
      ^bb0(%arg2: f32):
        %7 = arith.truncf %arg2 : f32 to bf16
        motif.yield %7 : bf16
      }
      %6 = motif.materialize %5 in global {motif.producer = "round#0", motif.rule = "rule 1: externally observable (returned by the function)", motif.saved_bytes = 0 : i64, motif.was = #motif<residency global>} : tensor<77x768xbf16>
      motif.yield %6 : tensor<77x768xbf16>
    }
    return %0 : tensor<77x768xbf16>
  }
}

