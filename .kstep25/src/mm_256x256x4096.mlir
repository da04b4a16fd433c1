func.func @mm(%a: tensor<256x4096xbf16>, %b: tensor<4096x256xbf16>) -> tensor<256x256xbf16> {
  %c = motif.kernel "mm" threads(256) -> tensor<256x256xf32> {
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<256x4096xbf16>, tensor<4096x256xbf16>) -> tensor<256x256xf32>
    %g = motif.materialize %p in global : tensor<256x256xf32>
    motif.yield %g : tensor<256x256xf32>
  }
  %t = motif.kernel "round" threads(256) -> tensor<256x256xbf16> {
    %r = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (tensor<256x256xf32>) -> tensor<256x256xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %r in global : tensor<256x256xbf16>
    motif.yield %g : tensor<256x256xbf16>
  }
  return %t : tensor<256x256xbf16>
}
