// The fused form of ../shared/repro/fault_fused_misaligned_shared.mlir as the
// residency analysis used to produce it: a 4-byte shared row sum declared
// before the cross-warp scratch of a 256-thread max, which the PTX reads
// with ld.shared.v4 (misaligned address on the GPU when the buffer was
// aligned to 4).
func.func @f(%x: tensor<16x1024xf32>) -> tensor<16x1024xf32> {
  %y = motif.kernel "fused" threads(256) -> tensor<16x1024xf32> {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block, seq] : (tensor<16x1024xf32>) -> tensor<16xf32>
    %ss = motif.materialize %s in shared : tensor<16xf32>
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<16x1024xf32>) -> tensor<16xf32>
    %mr = motif.materialize %m in register : tensor<16xf32>
    %p = motif.map (%x[i, j], %ss[i], %mr[i]) -> [i, j] over [block, thread] : (tensor<16x1024xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16x1024xf32> {
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
