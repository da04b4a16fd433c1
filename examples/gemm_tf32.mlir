// motif-dims: M=512 K=128 N=256
// f32 GEMM on tensor cores in tf32, C = A.B, f32 accumulation: the operands
// are rounded to tf32 (10-bit significands, cvt.rna.tf32.f32) and multiplied
// by mma.sync m16n8k8 -- an opt-in precision that the program states with
// `mma m16n8k8`; the default schedules never choose it. Each block of 128
// threads (4 warps) owns a 128x128 tile of C, each warp a 32x128 strip of
// it: 2 x 16 accumulator tiles of m16n8, 128 f32 registers per thread across
// the K loop. The mapping is the instruction's accumulator layout (the same
// as m16n8k16's; docs/dialect.md, "Tensor cores"): on i the warp (thread(4),
// place 32), the warp's 4 row halves of 8 (seq(4)) and the lane's row group
// (thread(8), lane / 4); on j the 16 column tiles of 8 (seq(16)), the lane's
// column pair (thread(4), lane % 4) and the pair (seq(2)). K is walked in
// staged steps of 32 (4 slices of 8): A and B tiles go global -> shared by
// cp.async through a 3-stage pipeline; A fragments by ldmatrix, B[k, j] by
// 32-bit loads. Numerics class `tolerance` against the sequential fma form:
// the operands are rounded (2^-10 relative per product) and the instruction
// sums each 8-wide step of k its own way.
func.func @gemm_tf32(%a: tensor<512x128xf32>, %b: tensor<128x256xf32>) -> tensor<512x256xf32> {
  %c = motif.kernel "gemm_tf32" threads(128) -> tensor<512x256xf32> {
    %as = motif.materialize %a in shared : tensor<512x128xf32>
    %bs = motif.materialize %b in shared : tensor<128x256xf32>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(4) x seq(4) x thread(8), block x seq(16) x thread(4) x seq(2), seq x seq(32)]
           mma m16n8k8
           : (tensor<512x128xf32>, tensor<128x256xf32>) -> tensor<512x256xf32>
    %g = motif.materialize %p in global : tensor<512x256xf32>
    motif.yield %g : tensor<512x256xf32>
  }
  return %c : tensor<512x256xf32>
}
