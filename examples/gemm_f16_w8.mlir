// motif-dims: M=512 K=128 N=256
// examples/gemm_bf16_w8.mlir in f16 (nvgpu.mma.sync m16n8k16 f16, f32
// accumulation): 8 warps (threads(256)), each block a 256x128 tile of C, each
// warp a 32x128 strip of it (2 x 16 m16n8 accumulator tiles, 128 f32
// registers per thread); K in staged steps of 64 through 3 stages of
// XOR-swizzled tiles (147,456 bytes of dynamic shared memory), fragments one
// slice ahead. C = f16(A.B). Class `tolerance` against the fma form, as
// gemm_f16.
func.func @gemm_f16_w8(%a: tensor<512x128xf16>, %b: tensor<128x256xf16>) -> tensor<512x256xf16> {
  %c = motif.kernel "gemm_f16_w8" threads(256) -> tensor<512x256xf16> {
    %as = motif.materialize %a in shared : tensor<512x128xf16>
    %bs = motif.materialize %b in shared : tensor<128x256xf16>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(8) x seq(4) x thread(8), block x seq(16) x thread(4) x seq(2), seq x seq(64)]
           mma m16n8k16
           : (tensor<512x128xf16>, tensor<128x256xf16>) -> tensor<512x256xf32>
    %pr = motif.materialize %p in register : tensor<512x256xf32>
    %t = motif.map (%pr[i, j]) -> [i, j]
           over [block x thread(8) x seq(4) x thread(8), block x seq(16) x thread(4) x seq(2)]
           : (tensor<512x256xf32>) -> tensor<512x256xf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to f16
      motif.yield %y : f16
    }
    %g = motif.materialize %t in global : tensor<512x256xf16>
    motif.yield %g : tensor<512x256xf16>
  }
  return %c : tensor<512x256xf16>
}
