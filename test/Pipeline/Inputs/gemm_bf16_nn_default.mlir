// C = bf16(A.B) (B [K, N] row-major, what linalg.matmul imports) stating no
// tiles, N = 4000 (no tile of 64, 128 or 256 columns divides it): the default
// schedule picks its tensor-core tile (test/Pipeline/tensor-core-wgmma.test).
func.func @gemm_nn(%a: tensor<1000x256xbf16>, %b: tensor<256x4000xbf16>) -> tensor<1000x4000xbf16> {
  %c = motif.kernel "mm" threads(256) -> tensor<1000x4000xf32> {
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<1000x256xbf16>, tensor<256x4000xbf16>) -> tensor<1000x4000xf32>
    %g = motif.materialize %p in global : tensor<1000x4000xf32>
    motif.yield %g : tensor<1000x4000xf32>
  }
  %r = motif.kernel "round" threads(256) -> tensor<1000x4000xbf16> {
    %t = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (tensor<1000x4000xf32>) -> tensor<1000x4000xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %t in global : tensor<1000x4000xbf16>
    motif.yield %g : tensor<1000x4000xbf16>
  }
  return %r : tensor<1000x4000xbf16>
}
