// motif-dims: M=512 K=128 N=256
// examples/gemm_bf16_w8.mlir with its 8 warps in a 4 x 2 grid: each block
// owns a 256x128 tile of C, each warp a 64x64 square of it (4 x 8 m16n8
// accumulator tiles, 128 f32 registers per thread). `warp(4)` on i and
// `warp(2)` on j are the warp digits of the thread id (docs/dialect.md,
// "Tiles": a tile nest's warp(n) levels number whole warps, above the 32
// lanes its thread(n) levels number; the last dim's warp level varies
// fastest, so warp w holds rows 64 (w / 2) and columns 64 (w % 2)). Per
// 16-wide slice of k a warp loads 4 A and 4 B fragments (ldmatrix.x4) for
// 32 mma, where gemm_bf16_w8's 32x128 strips load 2 + 8, and the block reads
// its B tile twice per step instead of 8 times. K in staged steps of 64
// through 3 stages (XOR-swizzled, 147,456 bytes of dynamic shared memory).
// Class `tolerance` against the fma form, as gemm_bf16.
func.func @gemm_bf16_2d(%a: tensor<512x128xbf16>, %b: tensor<128x256xbf16>) -> tensor<512x256xbf16> {
  %c = motif.kernel "gemm_bf16_2d" threads(256) -> tensor<512x256xbf16> {
    %as = motif.materialize %a in shared : tensor<512x128xbf16>
    %bs = motif.materialize %b in shared : tensor<128x256xbf16>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x warp(4) x seq(8) x thread(8), block x warp(2) x seq(8) x thread(4) x seq(2), seq x seq(64)]
           mma m16n8k16
           : (tensor<512x128xbf16>, tensor<128x256xbf16>) -> tensor<512x256xf32>
    %pr = motif.materialize %p in register : tensor<512x256xf32>
    %t = motif.map (%pr[i, j]) -> [i, j]
           over [block x warp(4) x seq(8) x thread(8), block x warp(2) x seq(8) x thread(4) x seq(2)]
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
