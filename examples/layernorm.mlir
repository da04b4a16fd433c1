// motif-dims: M=512 N=1024
// motif-derived: 9.765625e-04=1/N
// LayerNorm over the last dim, eps = 1e-5, biased variance, unfused:
// sum -> centre (x - sum/N) -> sum of squares (a contraction c.c) ->
// normalize * gamma + beta. Mean and variance cross kernel boundaries.
func.func @layernorm(%x: tensor<512x1024xf32>, %gamma: tensor<1024xf32>,
                     %beta: tensor<1024xf32>) -> tensor<512x1024xf32> {
  %sum = motif.kernel "layernorm_sum" threads(256) -> tensor<512xf32> {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<512x1024xf32>) -> tensor<512xf32>
    %g = motif.materialize %s in global : tensor<512xf32>
    motif.yield %g : tensor<512xf32>
  }
  %centred = motif.kernel "layernorm_centre" threads(256) -> tensor<512x1024xf32> {
    %c = motif.map (%x[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<512x1024xf32>, tensor<512xf32>) -> tensor<512x1024xf32> {
    ^bb0(%a: f32, %s: f32):
      %inv_n = arith.constant 9.765625e-04 : f32
      %mean = arith.mulf %s, %inv_n : f32
      %r = arith.subf %a, %mean : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %c in global : tensor<512x1024xf32>
    motif.yield %g : tensor<512x1024xf32>
  }
  %sq = motif.kernel "layernorm_var" threads(256) -> tensor<512xf32> {
    %v = motif.contract (%centred[i, j], %centred[i, j]) -> [i] over [block, thread]
           : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512xf32>
    %g = motif.materialize %v in global : tensor<512xf32>
    motif.yield %g : tensor<512xf32>
  }
  %y = motif.kernel "layernorm_norm" threads(256) -> tensor<512x1024xf32> {
    %n = motif.map (%centred[i, j], %sq[i], %gamma[j], %beta[j]) -> [i, j] over [block, thread]
           : (tensor<512x1024xf32>, tensor<512xf32>, tensor<1024xf32>, tensor<1024xf32>)
             -> tensor<512x1024xf32> {
    ^bb0(%c: f32, %v: f32, %w: f32, %b: f32):
      %inv_n = arith.constant 9.765625e-04 : f32
      %eps = arith.constant 1.0e-05 : f32
      %var = arith.mulf %v, %inv_n : f32
      %ve = arith.addf %var, %eps : f32
      %rs = math.rsqrt %ve : f32
      %xn = arith.mulf %c, %rs : f32
      %r = math.fma %xn, %w, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %n in global : tensor<512x1024xf32>
    motif.yield %g : tensor<512x1024xf32>
  }
  return %y : tensor<512x1024xf32>
}
