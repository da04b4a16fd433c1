// C = A^T B in bf16 into f32, no tiles stated: the default schedule (tolerance cap) takes it to
// mma.sync m16n8k16 with A read [k, i] by ldmatrix .trans (on sm_90a too: wgmma reads A K-major).
func.func @at_b(%a: tensor<1024x2048xbf16>, %b: tensor<1024x4096xbf16>) -> tensor<2048x4096xf32> {
  %c = motif.kernel "at_b" threads(256) -> tensor<2048x4096xf32> {
    %p = motif.contract (%a[k, i], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<1024x2048xbf16>, tensor<1024x4096xbf16>) -> tensor<2048x4096xf32>
    %g = motif.materialize %p in global : tensor<2048x4096xf32>
    motif.yield %g : tensor<2048x4096xf32>
  }
  return %c : tensor<2048x4096xf32>
}
