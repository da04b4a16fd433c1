// RUN: motif-opt %s -split-input-file | motif-opt -split-input-file | FileCheck %s
//
// Runtime row counts (docs/dialect.md, "Runtime row counts"): a tensor's
// leading dim may be `?`, the function's row count, mapped to `block` as the
// outermost grid dim; every motif kind takes it, and it round-trips.

// CHECK-LABEL: func.func @every_motif
// CHECK-SAME: (%{{.*}}: tensor<?x64xf32>, %{{.*}}: tensor<64x32xf32>) -> tensor<?x32xf32>
// CHECK: motif.reduce <max> (%{{.*}}[i, j]) -> [i] over [block, thread] : (tensor<?x64xf32>) -> tensor<?xf32>
// CHECK: motif.materialize %{{.*}} in register : tensor<?xf32>
// CHECK: motif.broadcast %{{.*}}[i] -> [i, j] over [block, thread] : (tensor<?xf32>) -> tensor<?x64xf32>
// CHECK: motif.map (%{{.*}}[i, j], %{{.*}}[i, j]) -> [i, j] over [block, thread] : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
// CHECK: motif.contract (%{{.*}}[i, k], %{{.*}}[k, j]) -> [i, j] over [block, thread, seq] : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
// CHECK: motif.materialize %{{.*}} in global : tensor<?x32xf32>
func.func @every_motif(%x: tensor<?x64xf32>, %w: tensor<64x32xf32>) -> tensor<?x32xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<?x32xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<?x64xf32>) -> tensor<?xf32>
    %mr = motif.materialize %m in register : tensor<?xf32>
    %b = motif.broadcast %mr[i] -> [i, j] over [block, thread]
           : (tensor<?xf32>) -> tensor<?x64xf32>
    %br = motif.materialize %b in register : tensor<?x64xf32>
    %d = motif.map (%x[i, j], %br[i, j]) -> [i, j] over [block, thread]
           : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32> {
    ^bb0(%a: f32, %c: f32):
      %s = arith.subf %a, %c : f32
      motif.yield %s : f32
    }
    %ds = motif.materialize %d in shared : tensor<?x64xf32>
    %p = motif.contract (%ds[i, k], %w[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<?x64xf32>, tensor<64x32xf32>) -> tensor<?x32xf32>
    %g = motif.materialize %p in global : tensor<?x32xf32>
    motif.yield %g : tensor<?x32xf32>
  }
  return %y : tensor<?x32xf32>
}

// -----

// A grid of two dims: rows outermost, a static dim inside (blocks per row).
// CHECK-LABEL: func.func @rows_then_grid
// CHECK: motif.transpose %{{.*}}[i, k, j] -> [i, j, k] over [block, block, thread] : (tensor<?x8x16xbf16>) -> tensor<?x16x8xbf16>
func.func @rows_then_grid(%x: tensor<?x8x16xbf16>) -> tensor<?x16x8xbf16> {
  %y = motif.kernel "t" threads(16) -> tensor<?x16x8xbf16> {
    %t = motif.transpose %x[h, i, j] -> [h, j, i] over [block, block, thread]
           : (tensor<?x8x16xbf16>) -> tensor<?x16x8xbf16>
    %g = motif.materialize %t in global : tensor<?x16x8xbf16>
    motif.yield %g : tensor<?x16x8xbf16>
  }
  return %y : tensor<?x16x8xbf16>
}
