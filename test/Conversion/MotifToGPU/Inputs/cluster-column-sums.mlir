// Column sums of 4 blocks of 512x32: the rows over the 32 warps of a block of
// 1024 threads, the 32 columns over the lanes, so every lane passes its own
// partial (scratch[warp][lane]); the block runs as a cluster of 2 CTAs.
func.func @column_sums(%x: tensor<4x512x32xf32>) -> tensor<4x32xf32> {
  %y = motif.kernel "sums" threads(1024) cluster(2) -> tensor<4x32xf32> {
    %s = motif.reduce <add> (%x[b, i, j]) -> [b, j] over [block, warp, lane]
           : (tensor<4x512x32xf32>) -> tensor<4x32xf32>
    %g = motif.materialize %s in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  return %y : tensor<4x32xf32>
}
