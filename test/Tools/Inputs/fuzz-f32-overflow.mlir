// A product of 64 x 16384 exponentials: its float64 meaning (about 1e147 per
// row) is out of f32's reach, so every form computes +inf. The fuzz oracle
// called it 'wrong' (off the float64 meaning) although unfused and fused are
// bit-identical (motif-fuzz mutate, seed 202, mutant 15358).
func.func @rows_global(%x: tensor<64x16384xf32>) -> tensor<64xf32> {
  %e = motif.kernel "exp" threads(256) -> tensor<64x16384xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x16384xf32>) -> tensor<64x16384xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x16384xf32>
    motif.yield %g : tensor<64x16384xf32>
  }
  %s = motif.kernel "prod" threads(256) -> tensor<64xf32> {
    %r = motif.reduce <mul> (%e[i, j]) -> [i] over [block, seq] : (tensor<64x16384xf32>) -> tensor<64xf32>
    %g = motif.materialize %r in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %s : tensor<64xf32>
}
