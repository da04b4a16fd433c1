// RUN: motif-opt %s | FileCheck %s
// RUN: motif-opt %s | motif-opt | FileCheck %s
// RUN: motif-opt %s --mlir-print-op-generic | motif-opt | FileCheck %s
// RUN: motif-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// Tile nests in a mapping (docs/dialect.md, "Tiles"): one iteration dim split
// over sized levels, outermost first; printed as written, and through the
// generic form as #motif.tile attributes.

// CHECK-LABEL: func.func @gemm
// CHECK: motif.contract (%{{.*}}[i, k], %{{.*}}[k, j]) -> [i, j] over [block(4) x thread(4) x seq(4), block(2) x thread(8) x seq(3), seq(4) x seq(8)]
// CHECK: motif.map (%{{.*}}[i, j]) -> [i, j] over [block(4) x thread(4) x seq(4), block(2) x thread(8) x seq(3)]
// GENERIC: mapping = [#motif.tile<[block, thread, seq], [4, 4, 4]>, #motif.tile<[block, thread, seq], [2, 8, 3]>, #motif.tile<[seq, seq], [4, 8]>]
func.func @gemm(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> tensor<64x48xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<64x48xf32> {
    %r = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [block(4) x thread(4) x seq(4), block(2) x thread(8) x seq(3), seq(4) x seq(8)]
           : (tensor<64x32xf32>, tensor<32x48xf32>) -> tensor<64x48xf32>
    %e = motif.materialize %r in register : tensor<64x48xf32>
    %o = motif.map (%e[i, j]) -> [i, j] over [block(4) x thread(4) x seq(4), block(2) x thread(8) x seq(3)]
           : (tensor<64x48xf32>) -> tensor<64x48xf32> {
    ^bb0(%x: f32):
      %z = arith.constant 0.0 : f32
      %m = arith.maximumf %x, %z : f32
      motif.yield %m : f32
    }
    %g = motif.materialize %o in global : tensor<64x48xf32>
    motif.yield %g : tensor<64x48xf32>
  }
  return %c : tensor<64x48xf32>
}

// A nest next to single levels, a nest of one level, and a reduction whose
// kept dim is tiled and whose reduced dim is a single 'seq'.
// CHECK-LABEL: func.func @mixed
// CHECK: motif.reduce <add> (%{{.*}}[i, j]) -> [i] over [block(2) x thread(64), seq]
// CHECK: motif.broadcast %{{.*}}[i] -> [i, j] over [block(2) x thread(64), seq(16)]
func.func @mixed(%x: tensor<128x16xf32>) -> tensor<128x16xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<128x16xf32> {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block(2) x thread(64), seq]
           : (tensor<128x16xf32>) -> tensor<128xf32>
    %r = motif.materialize %s in register : tensor<128xf32>
    %b = motif.broadcast %r[i] -> [i, j] over [block(2) x thread(64), seq(16)]
           : (tensor<128xf32>) -> tensor<128x16xf32>
    %g = motif.materialize %b in global : tensor<128x16xf32>
    motif.yield %g : tensor<128x16xf32>
  }
  return %y : tensor<128x16xf32>
}

// An unsized outermost block takes the rest of the extent: 512 / 32 = 16
// blocks on i, 1024 / (8 x 4) = 32 on j.
// CHECK-LABEL: func.func @rest_of_extent
// CHECK: motif.map (%{{.*}}[i, j]) -> [i, j] over [block x thread(32), block x thread(8) x seq(4)]
// GENERIC-LABEL: sym_name = "rest_of_extent"
// GENERIC: mapping = [#motif.tile<[block, thread], [0, 32]>, #motif.tile<[block, thread, seq], [0, 8, 4]>]
func.func @rest_of_extent(%x: tensor<512x1024xf32>) -> tensor<512x1024xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<512x1024xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block x thread(32), block x thread(8) x seq(4)] : (tensor<512x1024xf32>) -> tensor<512x1024xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<512x1024xf32>
    motif.yield %g : tensor<512x1024xf32>
  }
  return %y : tensor<512x1024xf32>
}
