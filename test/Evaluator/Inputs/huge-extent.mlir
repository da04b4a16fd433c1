// ../shared/repro/crash_equiv_huge_extent.mlir: a tensor of INT64_MAX elements
// (motif-equiv aborted with std::length_error).
func.func @f(%x: tensor<9223372036854775807xf32>) -> tensor<9223372036854775807xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<9223372036854775807xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<9223372036854775807xf32>) -> tensor<9223372036854775807xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<9223372036854775807xf32>
    motif.yield %g : tensor<9223372036854775807xf32>
  }
  return %y : tensor<9223372036854775807xf32>
}
