// Two kernels: the doubled matrix crosses a kernel boundary (global) before
// the transpose reads it in other blocks. The legal form of
// ../schedule-illegal-shared.mlir.
func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %t = motif.kernel "double" threads(64) -> tensor<64x64xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x64xf32>) -> tensor<64x64xf32> {
    ^bb0(%a: f32):
      %c = arith.constant 2.0 : f32
      %r = arith.mulf %a, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  %y = motif.kernel "transpose" threads(64) -> tensor<64x64xf32> {
    %u = motif.transpose %t[j, i] -> [i, j] over [block, thread] : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %g = motif.materialize %u in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %y : tensor<64x64xf32>
}
