// Softmax over the rows of a 16x32 tensor, one kernel per motif: every
// intermediate is materialized in global memory. The reference program that
// the tests in this folder compare rewrites against.
func.func @softmax(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %m = motif.kernel "row_max" threads(32) -> tensor<16xf32> {
    %r = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<16x32xf32>) -> tensor<16xf32>
    %g = motif.materialize %r in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  %e = motif.kernel "exp" threads(32) -> tensor<16x32xf32> {
    %v = motif.map (%x[i, j], %m[i]) -> [i, j] over [block, thread] : (tensor<16x32xf32>, tensor<16xf32>) -> tensor<16x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %v in global : tensor<16x32xf32>
    motif.yield %g : tensor<16x32xf32>
  }
  %s = motif.kernel "row_sum" threads(32) -> tensor<16xf32> {
    %r = motif.reduce <add> (%e[i, j]) -> [i] over [block, thread] : (tensor<16x32xf32>) -> tensor<16xf32>
    %g = motif.materialize %r in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  %y = motif.kernel "normalize" threads(32) -> tensor<16x32xf32> {
    %v = motif.map (%e[i, j], %s[i]) -> [i, j] over [block, thread] : (tensor<16x32xf32>, tensor<16xf32>) -> tensor<16x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %v in global : tensor<16x32xf32>
    motif.yield %g : tensor<16x32xf32>
  }
  return %y : tensor<16x32xf32>
}
