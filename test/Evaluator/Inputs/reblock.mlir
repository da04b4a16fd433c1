// A row sum over 128 threads feeding a 256-thread consumer (as in
// test/Dialect/Motif/fuse-materialization-budgets.mlir).
func.func @f(%x: tensor<16x1024xf32>) -> tensor<16x1024xf32> {
  %s = motif.kernel "rowsum" threads(128) -> tensor<16xf32> {
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<16x1024xf32>) -> tensor<16xf32>
    %g = motif.materialize %r in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  %y = motif.kernel "scale" threads(256) -> tensor<16x1024xf32> {
    %m = motif.map (%x[i, j], %s[i]) -> [i, j] over [block, thread] : (tensor<16x1024xf32>, tensor<16xf32>) -> tensor<16x1024xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<16x1024xf32>
    motif.yield %g : tensor<16x1024xf32>
  }
  return %y : tensor<16x1024xf32>
}
