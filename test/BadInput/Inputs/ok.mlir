// A valid program: the bad options and files of the .test files are refused
// on it, so what fails is the option, never the input.
func.func @ok(%x: tensor<8x32xf32>) -> tensor<8x32xf32> {
  %m = motif.kernel "row_max" threads(32) -> tensor<8xf32> {
    %r = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<8x32xf32>) -> tensor<8xf32>
    %g = motif.materialize %r in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %y = motif.kernel "sub" threads(32) -> tensor<8x32xf32> {
    %e = motif.map (%x[i, j], %m[i]) -> [i, j] over [block, thread] : (tensor<8x32xf32>, tensor<8xf32>) -> tensor<8x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %e in global : tensor<8x32xf32>
    motif.yield %g : tensor<8x32xf32>
  }
  return %y : tensor<8x32xf32>
}
