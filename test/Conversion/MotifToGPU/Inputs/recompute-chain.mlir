// motif-dims: M=4 N=4096
// Row softmax on bf16 tensors (statistics in f32) with exp(x - max) halved by a
// map of its own, which the sum and the division read: a chain for rule 6
// (test/Conversion/MotifToGPU/recompute-emulated.test). Unfused: every
// intermediate crosses a kernel boundary in global memory.
func.func @softmax_bf16(%x: tensor<4x4096xbf16>) -> tensor<4x4096xbf16> {
  %max = motif.kernel "softmax_bf16_max" threads(256) -> tensor<4xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<4x4096xbf16>) -> tensor<4xf32>
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %exp = motif.kernel "softmax_bf16_exp" threads(256) -> tensor<4x4096xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<4x4096xbf16>, tensor<4xf32>) -> tensor<4x4096xf32> {
    ^bb0(%a: bf16, %m: f32):
      %w = arith.extf %a : bf16 to f32
      %d = arith.subf %w, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<4x4096xf32>
    motif.yield %g : tensor<4x4096xf32>
  }
  %half = motif.kernel "softmax_bf16_half" threads(256) -> tensor<4x4096xf32> {
    %h = motif.map (%exp[i, j]) -> [i, j] over [block, thread]
           : (tensor<4x4096xf32>) -> tensor<4x4096xf32> {
    ^bb0(%e: f32):
      %c = arith.constant 0.5 : f32
      %r = arith.mulf %e, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %h in global : tensor<4x4096xf32>
    motif.yield %g : tensor<4x4096xf32>
  }
  %sum = motif.kernel "softmax_bf16_sum" threads(256) -> tensor<4xf32> {
    %s = motif.reduce <add> (%half[i, j]) -> [i] over [block, thread]
           : (tensor<4x4096xf32>) -> tensor<4xf32>
    %g = motif.materialize %s in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %y = motif.kernel "softmax_bf16_div" threads(256) -> tensor<4x4096xbf16> {
    %p = motif.map (%half[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<4x4096xf32>, tensor<4xf32>) -> tensor<4x4096xbf16> {
    ^bb0(%e: f32, %s: f32):
      %q = arith.divf %e, %s : f32
      %r = arith.truncf %q : f32 to bf16
      motif.yield %r : bf16
    }
    %g = motif.materialize %p in global : tensor<4x4096xbf16>
    motif.yield %g : tensor<4x4096xbf16>
  }
  return %y : tensor<4x4096xbf16>
}
