// ../shared/repro/fault_fused_misaligned_shared.mlir (a copy, so the GPU machine has it): valid
// unfused; after --fuse-materialization it faulted (misaligned address) at threads(256).
// unfused: a per-row sum over [block, seq] (owned by thread 0), a row max over [block, thread]
// (cross-warp reduction with threads(256)), and a map reading both: fusion puts the sum in shared.
func.func @f(%x: tensor<16x1024xf32>) -> tensor<16x1024xf32> {
  %s = motif.kernel "rsum" threads(256) -> tensor<16xf32> {
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, seq] : (tensor<16x1024xf32>) -> tensor<16xf32>
    %g = motif.materialize %r in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  %m = motif.kernel "rmax" threads(256) -> tensor<16xf32> {
    %r = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<16x1024xf32>) -> tensor<16xf32>
    %g = motif.materialize %r in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  %y = motif.kernel "comb" threads(256) -> tensor<16x1024xf32> {
    %p = motif.map (%x[i, j], %s[i], %m[i]) -> [i, j] over [block, thread] : (tensor<16x1024xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16x1024xf32> {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %d = arith.subf %a, %c : f32
      %e = arith.divf %d, %b : f32
      motif.yield %e : f32
    }
    %g = motif.materialize %p in global : tensor<16x1024xf32>
    motif.yield %g : tensor<16x1024xf32>
  }
  return %y : tensor<16x1024xf32>
}
