// motif-dims: M=512 N=1024
// motif-derived: 9.765625e-04=1/N
// RMSNorm over the last dim, eps = 1e-6, unfused: the sum of squares (a
// contraction x.x) crosses a kernel boundary, then y = x * rsqrt(ss/N + eps) * gamma.
func.func @rmsnorm(%x: tensor<512x1024xf32>, %gamma: tensor<1024xf32>) -> tensor<512x1024xf32> {
  %ss = motif.kernel "rmsnorm_ss" threads(256) -> tensor<512xf32> {
    %s = motif.contract (%x[i, j], %x[i, j]) -> [i] over [block, thread]
           : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512xf32>
    %g = motif.materialize %s in global : tensor<512xf32>
    motif.yield %g : tensor<512xf32>
  }
  %y = motif.kernel "rmsnorm_norm" threads(256) -> tensor<512x1024xf32> {
    %n = motif.map (%x[i, j], %ss[i], %gamma[j]) -> [i, j] over [block, thread]
           : (tensor<512x1024xf32>, tensor<512xf32>, tensor<1024xf32>) -> tensor<512x1024xf32> {
    ^bb0(%a: f32, %s: f32, %w: f32):
      %inv_n = arith.constant 9.765625e-04 : f32
      %eps = arith.constant 1.0e-06 : f32
      %ms = arith.mulf %s, %inv_n : f32
      %me = arith.addf %ms, %eps : f32
      %rs = math.rsqrt %me : f32
      %xn = arith.mulf %a, %rs : f32
      %r = arith.mulf %xn, %w : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %n in global : tensor<512x1024xf32>
    motif.yield %g : tensor<512x1024xf32>
  }
  return %y : tensor<512x1024xf32>
}
