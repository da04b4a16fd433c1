// f16, B[j, k] (N x K, ldmatrix without .trans), 2 x 2 blocks of 2 warps, 5 n-tiles, k in 3 steps:
// tensor-cores-emulated.test.
func.func @odd2(%a: tensor<64x48xf16>, %b: tensor<80x48xf16>) -> tensor<64x80xf32> {
  %c = motif.kernel "mm" threads(64) -> tensor<64x80xf32> {
    %as = motif.materialize %a in shared : tensor<64x48xf16>
    %bs = motif.materialize %b in shared : tensor<80x48xf16>
    %p = motif.contract (%as[i, k], %bs[j, k]) -> [i, j]
           over [block x thread(2) x seq(2) x thread(8), block x seq(5) x thread(4) x seq(2), seq x seq(16)] mma m16n8k16
           : (tensor<64x48xf16>, tensor<80x48xf16>) -> tensor<64x80xf32>
    %g = motif.materialize %p in global : tensor<64x80xf32>
    motif.yield %g : tensor<64x80xf32>
  }
  return %c : tensor<64x80xf32>
}
