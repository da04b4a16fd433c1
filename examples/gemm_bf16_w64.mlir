// motif-dims: M=512 K=128 N=256
// examples/gemm_bf16.mlir with 64x64 warp tiles: each block of 4 warps owns a
// 256x64 tile of C, each warp a 64x64 square of it (4 x 8 m16n8 accumulator
// tiles, 128 f32 registers per thread): per 16-wide slice of k a warp loads 4
// A and 4 B fragments (ldmatrix.x4) for 32 mma, where the 32x128 strips of
// gemm_bf16 load 2 + 8; the block's tile is narrower (more A and B traffic
// per output from L2). 3 stages of a 256x40 and a 32x72 bf16 tile. Class
// `tolerance` against the fma form, as gemm_bf16.
func.func @gemm_bf16_w64(%a: tensor<512x128xbf16>, %b: tensor<128x256xbf16>) -> tensor<512x256xbf16> {
  %c = motif.kernel "gemm_bf16_w64" threads(128) -> tensor<512x256xbf16> {
    %as = motif.materialize %a in shared : tensor<512x128xbf16>
    %bs = motif.materialize %b in shared : tensor<128x256xbf16>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(4) x seq(8) x thread(8), block x seq(8) x thread(4) x seq(2), seq x seq(32)]
           mma m16n8k16
           : (tensor<512x128xbf16>, tensor<128x256xbf16>) -> tensor<512x256xf32>
    %pr = motif.materialize %p in register : tensor<512x256xf32>
    %t = motif.map (%pr[i, j]) -> [i, j]
           over [block x thread(4) x seq(8) x thread(8), block x seq(8) x thread(4) x seq(2)]
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
