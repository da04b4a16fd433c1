// @runtime_rows_inner_dim of test/Dialect/Motif/fuse-materialization-rows-a-block.mlir
// at 64 rows a batch (fused with a smaller row-block-min-grid), for motif-equiv at several
// row counts: a runtime row count (the batch) over a static sequence of rows of 256, with an
// RMS-style statistic as a map of per-row values.
func.func @runtime_rows_inner_dim(%x: tensor<?x64x256xf32>) -> tensor<?x64x256xf32> {
  %s = motif.kernel "sumsq" threads(256) -> tensor<?x64xf32> {
    %q = motif.map (%x[b, i, j]) -> [b, i, j] over [block, block, thread]
           : (tensor<?x64x256xf32>) -> tensor<?x64x256xf32> {
    ^bb0(%a: f32):
      %m = arith.mulf %a, %a : f32
      motif.yield %m : f32
    }
    %qr = motif.materialize %q in register : tensor<?x64x256xf32>
    %r = motif.reduce <add> (%qr[b, i, j]) -> [b, i] over [block, block, thread]
           : (tensor<?x64x256xf32>) -> tensor<?x64xf32>
    %g = motif.materialize %r in global : tensor<?x64xf32>
    motif.yield %g : tensor<?x64xf32>
  }
  %inv = motif.kernel "inv" threads(256) -> tensor<?x64xf32> {
    %v = motif.map (%s[b, i]) -> [b, i] over [block, block]
           : (tensor<?x64xf32>) -> tensor<?x64xf32> {
    ^bb0(%a: f32):
      %n = arith.constant 3.906250e-03 : f32
      %e = arith.constant 9.99999974E-6 : f32
      %m = arith.mulf %a, %n : f32
      %p = arith.addf %m, %e : f32
      %r = math.rsqrt %p : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %v in global : tensor<?x64xf32>
    motif.yield %g : tensor<?x64xf32>
  }
  %y = motif.kernel "scale" threads(256) -> tensor<?x64x256xf32> {
    %p = motif.map (%x[b, i, j], %inv[b, i]) -> [b, i, j] over [block, block, thread]
           : (tensor<?x64x256xf32>, tensor<?x64xf32>) -> tensor<?x64x256xf32> {
    ^bb0(%a: f32, %v: f32):
      %d = arith.mulf %a, %v : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<?x64x256xf32>
    motif.yield %g : tensor<?x64x256xf32>
  }
  return %y : tensor<?x64x256xf32>
}
