// motif-dims: M=512 N=1024
// motif-derived: 9.765625e-04=1/N
// RMSNorm on bf16 tensors, eps = 1e-6, statistics in f32, unfused: the sum of
// squares is a contraction x.x of bf16 elements accumulated in f32 (each
// product is exact in f32), then y = bf16(x * rsqrt(ss/N + eps) * gamma).
func.func @rmsnorm_bf16(%x: tensor<512x1024xbf16>, %gamma: tensor<1024xbf16>) -> tensor<512x1024xbf16> {
  %ss = motif.kernel "rmsnorm_bf16_ss" threads(256) -> tensor<512xf32> {
    %s = motif.contract (%x[i, j], %x[i, j]) -> [i] over [block, thread]
           : (tensor<512x1024xbf16>, tensor<512x1024xbf16>) -> tensor<512xf32>
    %g = motif.materialize %s in global : tensor<512xf32>
    motif.yield %g : tensor<512xf32>
  }
  %y = motif.kernel "rmsnorm_bf16_norm" threads(256) -> tensor<512x1024xbf16> {
    %n = motif.map (%x[i, j], %ss[i], %gamma[j]) -> [i, j] over [block, thread]
           : (tensor<512x1024xbf16>, tensor<512xf32>, tensor<1024xbf16>) -> tensor<512x1024xbf16> {
    ^bb0(%a: bf16, %s: f32, %w: bf16):
      %inv_n = arith.constant 9.765625e-04 : f32
      %eps = arith.constant 1.0e-06 : f32
      %ms = arith.mulf %s, %inv_n : f32
      %me = arith.addf %ms, %eps : f32
      %rs = math.rsqrt %me : f32
      %af = arith.extf %a : bf16 to f32
      %wf = arith.extf %w : bf16 to f32
      %xn = arith.mulf %af, %rs : f32
      %y = arith.mulf %xn, %wf : f32
      %r = arith.truncf %y : f32 to bf16
      motif.yield %r : bf16
    }
    %g = motif.materialize %n in global : tensor<512x1024xbf16>
    motif.yield %g : tensor<512x1024xbf16>
  }
  return %y : tensor<512x1024xbf16>
}
