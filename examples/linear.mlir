// motif-dims: M=512 K=128 N=256
// fp32 linear layer without bias, C = A.B^T with B stored [N, K] (an
// nn.Linear weight: torch.nn.functional.linear(a, b)), tiled as
// examples/gemm.mlir: each block of 256 threads owns a 128x128 tile of C and
// each thread an 8x8 run of it in registers across the K loop; K is walked in
// steps of 32, the 128x32 tiles of A and of B (rows j, columns k) staged in
// shared memory at every step. The fold order of every element is
// k = 0, 1, ..., K-1. examples/linear_bf16.mlir is the same product on wgmma.
func.func @linear(%a: tensor<512x128xf32>, %b: tensor<256x128xf32>) -> tensor<512x256xf32> {
  %c = motif.kernel "linear" threads(256) -> tensor<512x256xf32> {
    %as = motif.materialize %a in shared : tensor<512x128xf32>
    %bs = motif.materialize %b in shared : tensor<256x128xf32>
    %p = motif.contract (%as[i, k], %bs[j, k]) -> [i, j]
           over [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4), seq x seq(32)]
           : (tensor<512x128xf32>, tensor<256x128xf32>) -> tensor<512x256xf32>
    %g = motif.materialize %p in global : tensor<512x256xf32>
    motif.yield %g : tensor<512x256xf32>
  }
  return %c : tensor<512x256xf32>
}
