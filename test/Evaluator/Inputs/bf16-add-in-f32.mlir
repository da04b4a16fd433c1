// y = bf16(f32(a) + f32(b)) for bf16 a, b: the same bits as a bf16 addf
// (float holds the exact sum's rounding: correctly rounded once).
func.func @f(%a: tensor<64xbf16>, %b: tensor<64xbf16>) -> tensor<64xbf16> {
  %y = motif.kernel "k" threads(64) -> tensor<64xbf16> {
    %v = motif.map (%a[i], %b[i]) -> [i] over [thread] : (tensor<64xbf16>, tensor<64xbf16>) -> tensor<64xbf16> {
    ^bb0(%x: bf16, %z: bf16):
      %xf = arith.extf %x : bf16 to f32
      %zf = arith.extf %z : bf16 to f32
      %s = arith.addf %xf, %zf : f32
      %r = arith.truncf %s : f32 to bf16
      motif.yield %r : bf16
    }
    %g = motif.materialize %v in global : tensor<64xbf16>
    motif.yield %g : tensor<64xbf16>
  }
  return %y : tensor<64xbf16>
}
