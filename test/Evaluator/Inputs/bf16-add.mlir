func.func @f(%a: tensor<64xbf16>, %b: tensor<64xbf16>) -> tensor<64xbf16> {
  %y = motif.kernel "k" threads(64) -> tensor<64xbf16> {
    %v = motif.map (%a[i], %b[i]) -> [i] over [thread] : (tensor<64xbf16>, tensor<64xbf16>) -> tensor<64xbf16> {
    ^bb0(%x: bf16, %z: bf16):
      %r = arith.addf %x, %z : bf16
      motif.yield %r : bf16
    }
    %g = motif.materialize %v in global : tensor<64xbf16>
    motif.yield %g : tensor<64xbf16>
  }
  return %y : tensor<64xbf16>
}
