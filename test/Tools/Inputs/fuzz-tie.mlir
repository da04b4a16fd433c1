// Two sums of the same row, one over the threads and one over the warps of a
// block: equal in float64, not always in f32 (the trees differ). A select on
// `s_warps < s_threads` takes a branch float64 never takes, so every form is
// off the float64 meaning by 1 on such rows, bit for bit alike. The fuzz oracle
// called it 'wrong' (off the float64 meaning) although unfused and fused are
// bit-identical (motif-fuzz run --seed=20261222, program seed
// 17076871874413897651, here reduced by hand).
func.func @tie(%x: tensor<96x12xf32>) -> tensor<96xf32> {
  %t = motif.kernel "threads" threads(1024) -> tensor<96xf32> {
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<96x12xf32>) -> tensor<96xf32>
    %g = motif.materialize %r in global : tensor<96xf32>
    motif.yield %g : tensor<96xf32>
  }
  %w = motif.kernel "warps" threads(1024) -> tensor<96xf32> {
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, warp] : (tensor<96x12xf32>) -> tensor<96xf32>
    %g = motif.materialize %r in global : tensor<96xf32>
    motif.yield %g : tensor<96xf32>
  }
  %c = motif.kernel "compare" threads(1024) -> tensor<96xf32> {
    %m = motif.map (%w[i], %t[i]) -> [i] over [block] : (tensor<96xf32>, tensor<96xf32>) -> tensor<96xf32> {
    ^bb0(%a: f32, %b: f32):
      %lt = arith.cmpf olt, %a, %b : f32
      %one = arith.constant 1.000000e+00 : f32
      %zero = arith.constant 0.000000e+00 : f32
      %r = arith.select %lt, %one, %zero : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<96xf32>
    motif.yield %g : tensor<96xf32>
  }
  return %c : tensor<96xf32>
}
