// @outer_grid_dim of test/Dialect/Motif/fuse-materialization-rows-a-block.mlir alone, for motif-equiv.
func.func @outer_grid_dim(%x: tensor<16x1023x256xf32>) -> tensor<16x1023x256xf32> {
  %max = motif.kernel "max" threads(256) -> tensor<16x1023xf32> {
    %m = motif.reduce <max> (%x[b, i, j]) -> [b, i] over [block, block, thread]
           : (tensor<16x1023x256xf32>) -> tensor<16x1023xf32>
    %g = motif.materialize %m in global : tensor<16x1023xf32>
    motif.yield %g : tensor<16x1023xf32>
  }
  %y = motif.kernel "div" threads(256) -> tensor<16x1023x256xf32> {
    %p = motif.map (%x[b, i, j], %max[b, i]) -> [b, i, j] over [block, block, thread]
           : (tensor<16x1023x256xf32>, tensor<16x1023xf32>) -> tensor<16x1023x256xf32> {
    ^bb0(%a: f32, %v: f32):
      %d = arith.subf %a, %v : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<16x1023x256xf32>
    motif.yield %g : tensor<16x1023x256xf32>
  }
  return %y : tensor<16x1023x256xf32>
}
