// Each row of x (8 rows of 2x16 elements) divided by its sum; the sum runs
// over all 32 elements of a row in one reduction (row-major order).
func.func @normalize(%x: tensor<8x2x16xf32>) -> tensor<8x2x16xf32> {
  %y = motif.kernel "normalize" threads(32) -> tensor<8x2x16xf32> {
    %s = motif.reduce <add> (%x[i, j, k]) -> [i] over [block, seq, thread] : (tensor<8x2x16xf32>) -> tensor<8xf32>
    %ss = motif.materialize %s in shared : tensor<8xf32>
    %v = motif.map (%x[i, j, k], %ss[i]) -> [i, j, k] over [block, seq, thread] : (tensor<8x2x16xf32>, tensor<8xf32>) -> tensor<8x2x16xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %v in global : tensor<8x2x16xf32>
    motif.yield %g : tensor<8x2x16xf32>
  }
  return %y : tensor<8x2x16xf32>
}
