// A indexed [k, i] (A^T as stored, K x M row-major) on mma.sync m16n8k16: the A
// fragments by ldmatrix.x4 .trans from rows of k (docs/lowering.md, "Tensor cores"); warps
// along i and j, 504 rows (the last row block partial), B [k, j].
func.func @gemm_at_b(%a: tensor<128x504xbf16>, %b: tensor<128x256xbf16>) -> tensor<504x256xbf16> {
  %c = motif.kernel "gemm_at_b" threads(128) -> tensor<504x256xbf16> {
    %as = motif.materialize %a in shared : tensor<128x504xbf16>
    %bs = motif.materialize %b in shared : tensor<128x256xbf16>
    %p = motif.contract (%as[k, i], %bs[k, j]) -> [i, j]
           over [block x warp(2) x seq(4) x thread(8), block x warp(2) x seq(8) x thread(4) x seq(2), seq x seq(32)]
           mma m16n8k16
           : (tensor<128x504xbf16>, tensor<128x256xbf16>) -> tensor<504x256xf32>
    %pr = motif.materialize %p in register : tensor<504x256xf32>
    %t = motif.map (%pr[i, j]) -> [i, j]
           over [block x warp(2) x seq(4) x thread(8), block x warp(2) x seq(8) x thread(4) x seq(2)]
           : (tensor<504x256xf32>) -> tensor<504x256xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %t in global : tensor<504x256xbf16>
    motif.yield %g : tensor<504x256xbf16>
  }
  return %c : tensor<504x256xbf16>
}
