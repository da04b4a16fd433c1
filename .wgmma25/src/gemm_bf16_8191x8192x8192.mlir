// motif-dims: M=512 K=128 N=256
// bf16 GEMM on tensor cores, C = bf16(A.B), f32 accumulation: each block of
// 128 threads (4 warps) owns a 128x128 tile of C, each warp a 32x128 strip
// of it: 2 x 16 accumulator tiles of mma.sync m16n8k16, 128 f32 registers
// per thread across the K loop. The mapping is the instruction's accumulator
// layout (docs/dialect.md, "Tensor cores"): on i the warp (thread(4), place
// 32), the warp's 4 row halves of 8 (seq(4)) and the lane's row group
// (thread(8), lane / 4); on j the 16 column tiles of 8 (seq(16)), the lane's
// column pair (thread(4), lane % 4) and the pair (seq(2)). K is walked in
// staged steps of 32: A and B tiles go global -> shared by cp.async through
// a 3-stage pipeline, into ldmatrix fragments. The truncation to bf16 reads
// the accumulators where they are (registers: the same nests). Numerics class
// `tolerance` against the sequential fma form: the instruction sums each
// 16-wide step of k its own way.
func.func @gemm_bf16(%a: tensor<8191x8192xbf16>, %b: tensor<8192x8192xbf16>) -> tensor<8191x8192xbf16> {
  %c = motif.kernel "gemm_bf16" threads(128) -> tensor<8191x8192xbf16> {
    %as = motif.materialize %a in shared : tensor<8191x8192xbf16>
    %bs = motif.materialize %b in shared : tensor<8192x8192xbf16>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(4) x seq(4) x thread(8), block x seq(16) x thread(4) x seq(2), seq x seq(32)]
           mma m16n8k16
           : (tensor<8191x8192xbf16>, tensor<8192x8192xbf16>) -> tensor<8191x8192xf32>
    %pr = motif.materialize %p in register : tensor<8191x8192xf32>
    %t = motif.map (%pr[i, j]) -> [i, j]
           over [block x thread(4) x seq(4) x thread(8), block x seq(16) x thread(4) x seq(2)]
           : (tensor<8191x8192xf32>) -> tensor<8191x8192xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %t in global : tensor<8191x8192xbf16>
    motif.yield %g : tensor<8191x8192xbf16>
  }
  return %c : tensor<8191x8192xbf16>
}
