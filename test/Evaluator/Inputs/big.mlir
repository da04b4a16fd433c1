// 2^28 elements: legal IR, but more than the evaluator holds (2^27).
func.func @big(%x: tensor<16384x16384xf32>) -> tensor<16384x16384xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<16384x16384xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<16384x16384xf32>) -> tensor<16384x16384xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<16384x16384xf32>
    motif.yield %g : tensor<16384x16384xf32>
  }
  return %y : tensor<16384x16384xf32>
}
