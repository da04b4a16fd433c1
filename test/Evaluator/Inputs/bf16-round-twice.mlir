// y = bf16(bf16(a) + bf16(b)): the operands are rounded first, then the sum.
func.func @f(%a: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<64xbf16> {
  %y = motif.kernel "k" threads(64) -> tensor<64xbf16> {
    %v = motif.map (%a[i], %b[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xbf16> {
    ^bb0(%x: f32, %z: f32):
      %xh = arith.truncf %x : f32 to bf16
      %zh = arith.truncf %z : f32 to bf16
      %r = arith.addf %xh, %zh : bf16
      motif.yield %r : bf16
    }
    %g = motif.materialize %v in global : tensor<64xbf16>
    motif.yield %g : tensor<64xbf16>
  }
  return %y : tensor<64xbf16>
}
