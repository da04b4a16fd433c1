// motif-dims: M=512 N=1024
// Residual add + ReLU, unfused: the sum crosses a kernel boundary.
func.func @residual_relu(%x: tensor<512x1024xf32>, %r: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %sum = motif.kernel "residual_add" threads(256) -> tensor<512x1024xf32> {
    %s = motif.map (%x[i, j], %r[i, j]) -> [i, j] over [block, thread]
           : (tensor<512x1024xf32>, tensor<512x1024xf32>) -> tensor<512x1024xf32> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      motif.yield %t : f32
    }
    %g = motif.materialize %s in global : tensor<512x1024xf32>
    motif.yield %g : tensor<512x1024xf32>
  }
  %y = motif.kernel "residual_relu" threads(256) -> tensor<512x1024xf32> {
    %o = motif.map (%sum[i, j]) -> [i, j] over [block, thread]
           : (tensor<512x1024xf32>) -> tensor<512x1024xf32> {
    ^bb0(%a: f32):
      %zero = arith.constant 0.0 : f32
      %t = arith.maximumf %a, %zero : f32
      motif.yield %t : f32
    }
    %g = motif.materialize %o in global : tensor<512x1024xf32>
    motif.yield %g : tensor<512x1024xf32>
  }
  return %y : tensor<512x1024xf32>
}
