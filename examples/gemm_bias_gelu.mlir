// motif-dims: M=256 K=384 N=512
// GEMM epilogue, unfused: t = x.w, u = t + b, y = gelu(u) with the exact
// (erf) GELU. The product and the biased product cross kernel boundaries.
func.func @gemm_bias_gelu(%x: tensor<256x384xf32>, %w: tensor<384x512xf32>,
                          %b: tensor<512xf32>) -> tensor<256x512xf32> {
  %t = motif.kernel "gemm" threads(256) -> tensor<256x512xf32> {
    %p = motif.contract (%x[i, k], %w[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<256x384xf32>, tensor<384x512xf32>) -> tensor<256x512xf32>
    %g = motif.materialize %p in global : tensor<256x512xf32>
    motif.yield %g : tensor<256x512xf32>
  }
  %u = motif.kernel "bias" threads(256) -> tensor<256x512xf32> {
    %s = motif.map (%t[i, j], %b[j]) -> [i, j] over [block, thread]
           : (tensor<256x512xf32>, tensor<512xf32>) -> tensor<256x512xf32> {
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %s in global : tensor<256x512xf32>
    motif.yield %g : tensor<256x512xf32>
  }
  %y = motif.kernel "gelu" threads(256) -> tensor<256x512xf32> {
    %o = motif.map (%u[i, j]) -> [i, j] over [block, thread]
           : (tensor<256x512xf32>) -> tensor<256x512xf32> {
    ^bb0(%a: f32):
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %rsqrt2 = arith.constant 0.707106769 : f32
      %z = arith.mulf %a, %rsqrt2 : f32
      %e = math.erf %z : f32
      %e1 = arith.addf %e, %one : f32
      %h = arith.mulf %a, %half : f32
      %r = arith.mulf %h, %e1 : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %o in global : tensor<256x512xf32>
    motif.yield %g : tensor<256x512xf32>
  }
  return %y : tensor<256x512xf32>
}
