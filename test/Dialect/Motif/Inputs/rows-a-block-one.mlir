// @many_rows of test/Dialect/Motif/fuse-materialization-rows-a-block.mlir alone, for motif-equiv.
func.func @many_rows(%x: tensor<16384x1024xf32>) -> tensor<16384x1024xf32> {
  %sum = motif.kernel "sum" threads(256) -> tensor<16384xf32> {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<16384x1024xf32>) -> tensor<16384xf32>
    %g = motif.materialize %m in global : tensor<16384xf32>
    motif.yield %g : tensor<16384xf32>
  }
  %y = motif.kernel "div" threads(256) -> tensor<16384x1024xf32> {
    %p = motif.map (%x[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<16384x1024xf32>, tensor<16384xf32>) -> tensor<16384x1024xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<16384x1024xf32>
    motif.yield %g : tensor<16384x1024xf32>
  }
  return %y : tensor<16384x1024xf32>
}
