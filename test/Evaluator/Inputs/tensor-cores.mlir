// A bf16 product on tensor cores (@gemm) and (tensor-cores-fma.mlir) the same mapping on fma, both @gemm:
// test/Evaluator/tensor-cores.test.
func.func @gemm(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %c = motif.kernel "mm" threads(64) -> tensor<64x64xf32> {
    %as = motif.materialize %a in shared : tensor<64x64xbf16>
    %bs = motif.materialize %b in shared : tensor<64x64xbf16>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(2) x seq(2) x thread(8), block x seq(4) x thread(4) x seq(2), seq x seq(32)]
           mma m16n8k16
           : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xf32>
    %g = motif.materialize %p in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %c : tensor<64x64xf32>
}
