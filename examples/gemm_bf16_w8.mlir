// motif-dims: M=512 K=128 N=256
// examples/gemm_bf16.mlir with 8 warps (threads(256)): each block owns a
// 256x128 tile of C, each warp the same 32x128 strip of it (2 x 16 m16n8
// accumulator tiles, 128 f32 registers per thread), so a block loads its B
// tile for twice the outputs; K in staged steps of 64 (half the barriers and
// waits per mma of steps of 32). 3 stages of a 256x64 and a 64x128 bf16
// tile (XOR-swizzled, unpadded): 147,456 bytes of dynamic shared memory, one
// block an SM. On the H200 at 8192^3 (scripts/gemm-variants.py,
// docs/results/gemm-xor-swizzle.txt), with fragments loaded one slice ahead
// (mma-fragment-pipeline): 2.287 ms, 481 TFLOP/s, 0.61x cuBLAS in the same
// run; 2.492 with steps of 32 and 4 stages, 2.894 for gemm_bf16. Class
// `tolerance` against the fma form, as gemm_bf16.
func.func @gemm_bf16_w8(%a: tensor<512x128xbf16>, %b: tensor<128x256xbf16>) -> tensor<512x256xbf16> {
  %c = motif.kernel "gemm_bf16_w8" threads(256) -> tensor<512x256xbf16> {
    %as = motif.materialize %a in shared : tensor<512x128xbf16>
    %bs = motif.materialize %b in shared : tensor<128x256xbf16>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(8) x seq(4) x thread(8), block x seq(16) x thread(4) x seq(2), seq x seq(64)]
           mma m16n8k16
           : (tensor<512x128xbf16>, tensor<128x256xbf16>) -> tensor<512x256xf32>
    %pr = motif.materialize %p in register : tensor<512x256xf32>
    %t = motif.map (%pr[i, j]) -> [i, j]
           over [block x thread(8) x seq(4) x thread(8), block x seq(16) x thread(4) x seq(2)]
           : (tensor<512x256xf32>) -> tensor<512x256xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %t in global : tensor<512x256xbf16>
    motif.yield %g : tensor<512x256xbf16>
  }
  return %c : tensor<512x256xbf16>
}
