// One warp, no block level, 3 n-tiles (the last B fragment an ldmatrix .x2), k in 5 steps of 16
// through 3 stages (two empty commit groups at the end): tensor-cores-emulated.test.
func.func @odd(%a: tensor<16x80xbf16>, %b: tensor<80x24xbf16>) -> tensor<16x24xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x24xf32> {
    %as = motif.materialize %a in shared : tensor<16x80xbf16>
    %bs = motif.materialize %b in shared : tensor<80x24xbf16>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [seq(2) x thread(8), seq(3) x thread(4) x seq(2), seq x seq(16)] mma m16n8k16
           : (tensor<16x80xbf16>, tensor<80x24xbf16>) -> tensor<16x24xf32>
    %g = motif.materialize %p in global : tensor<16x24xf32>
    motif.yield %g : tensor<16x24xf32>
  }
  return %c : tensor<16x24xf32>
}
