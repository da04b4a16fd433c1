// motif-dims: M=512 N=1024
// motif-derived: 9.765625e-04=1/N
// LayerNorm on bf16 tensors, eps = 1e-5, biased variance, statistics in f32,
// unfused: sum (accumulated in f32) -> centre (an f32 intermediate) -> sum of
// squares -> y = bf16(c * rsqrt(var + eps) * gamma + beta).
func.func @layernorm_bf16(%x: tensor<512x1024xbf16>, %gamma: tensor<1024xbf16>,
                          %beta: tensor<1024xbf16>) -> tensor<512x1024xbf16> {
  %sum = motif.kernel "layernorm_bf16_sum" threads(256) -> tensor<512xf32> {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<512x1024xbf16>) -> tensor<512xf32>
    %g = motif.materialize %s in global : tensor<512xf32>
    motif.yield %g : tensor<512xf32>
  }
  %centred = motif.kernel "layernorm_bf16_centre" threads(256) -> tensor<512x1024xf32> {
    %c = motif.map (%x[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<512x1024xbf16>, tensor<512xf32>) -> tensor<512x1024xf32> {
    ^bb0(%a: bf16, %s: f32):
      %inv_n = arith.constant 9.765625e-04 : f32
      %mean = arith.mulf %s, %inv_n : f32
      %af = arith.extf %a : bf16 to f32
      %r = arith.subf %af, %mean : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %c in global : tensor<512x1024xf32>
    motif.yield %g : tensor<512x1024xf32>
  }
  %sq = motif.kernel "layernorm_bf16_var" threads(256) -> tensor<512xf32> {
    %v = motif.contract (%centred[i, j], %centred[i, j]) -> [i] over [block, thread]
           : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512xf32>
    %g = motif.materialize %v in global : tensor<512xf32>
    motif.yield %g : tensor<512xf32>
  }
  %y = motif.kernel "layernorm_bf16_norm" threads(256) -> tensor<512x1024xbf16> {
    %n = motif.map (%centred[i, j], %sq[i], %gamma[j], %beta[j]) -> [i, j] over [block, thread]
           : (tensor<512x1024xf32>, tensor<512xf32>, tensor<1024xbf16>, tensor<1024xbf16>)
             -> tensor<512x1024xbf16> {
    ^bb0(%c: f32, %v: f32, %w: bf16, %b: bf16):
      %inv_n = arith.constant 9.765625e-04 : f32
      %eps = arith.constant 1.0e-05 : f32
      %var = arith.mulf %v, %inv_n : f32
      %ve = arith.addf %var, %eps : f32
      %rs = math.rsqrt %ve : f32
      %xn = arith.mulf %c, %rs : f32
      %wf = arith.extf %w : bf16 to f32
      %bf = arith.extf %b : bf16 to f32
      %y = math.fma %xn, %wf, %bf : f32
      %r = arith.truncf %y : f32 to bf16
      motif.yield %r : bf16
    }
    %g = motif.materialize %n in global : tensor<512x1024xbf16>
    motif.yield %g : tensor<512x1024xbf16>
  }
  return %y : tensor<512x1024xbf16>
}
