// motif-dims: M=512 K=128 N=256
// fp32 GEMM, C = A.B, tiled: each block of 256 threads owns a 128x128 tile
// of C and each thread an 8x8 run of it, kept in registers across the K loop
// (a register-blocked contraction). K is walked in steps of 32: at every
// step the block stages the 128x32 tile of A and the 32x128 tile of B in
// shared memory (operand tiles: `materialize ... in shared`), a barrier, and
// every element of a staged tile is read by 16 threads. tid = i-digit * 16 +
// j-digit; a thread's j run is two runs of 4 consecutive columns (128-bit
// shared loads). The fold order of every element is k = 0, 1, ..., K-1, as in
// the untiled `over [block, thread, seq]`.
func.func @gemm(%a: tensor<512x128xf32>, %b: tensor<128x256xf32>) -> tensor<512x256xf32> {
  %c = motif.kernel "gemm" threads(256) -> tensor<512x256xf32> {
    %as = motif.materialize %a in shared : tensor<512x128xf32>
    %bs = motif.materialize %b in shared : tensor<128x256xf32>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4), seq x seq(32)]
           : (tensor<512x128xf32>, tensor<128x256xf32>) -> tensor<512x256xf32>
    %g = motif.materialize %p in global : tensor<512x256xf32>
    motif.yield %g : tensor<512x256xf32>
  }
  return %c : tensor<512x256xf32>
}
