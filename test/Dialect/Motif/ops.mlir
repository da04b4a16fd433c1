// RUN: motif-opt %s | FileCheck %s
// RUN: motif-opt %s | motif-opt | FileCheck %s
// RUN: motif-opt %s --mlir-print-op-generic | motif-opt | FileCheck %s

// CHECK-LABEL: func.func @every_motif
// CHECK-SAME: (%[[X:.*]]: tensor<8x64xf32>, %[[W:.*]]: tensor<64x16xf32>)
func.func @every_motif(%x: tensor<8x64xf32>, %w: tensor<64x16xf32>) -> (tensor<8x64xf32>, tensor<8x16xf32>, tensor<64x8xf32>) {
  // CHECK: motif.kernel "all" threads(64) -> tensor<8x64xf32>, tensor<8x16xf32>, tensor<64x8xf32> {
  %y:3 = motif.kernel "all" threads(64) -> tensor<8x64xf32>, tensor<8x16xf32>, tensor<64x8xf32> {
    // CHECK: %[[M:.*]] = motif.reduce <max> (%[[X]][i, j]) -> [i] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32>
    %m = motif.reduce <max> (%x[row, col]) -> [row] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32>
    // CHECK: %[[MR:.*]] = motif.materialize %[[M]] in register : tensor<8xf32>
    %mr = motif.materialize %m in register : tensor<8xf32>
    // CHECK: motif.broadcast %[[MR]][i] -> [i, j] over [block, thread] : (tensor<8xf32>) -> tensor<8x64xf32>
    %b = motif.broadcast %mr[r] -> [r, c] over [block, thread] : (tensor<8xf32>) -> tensor<8x64xf32>
    %br = motif.materialize %b in register : tensor<8x64xf32>
    // CHECK: motif.map (%[[X]][i, j], %{{.*}}[i, j]) -> [i, j] over [block, thread]
    // CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
    // CHECK: math.exp
    // CHECK: motif.yield %{{.*}} : f32
    %e = motif.map (%x[r, c], %br[r, c]) -> [r, c] over [block, thread] : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32, %mm: f32):
      %d = arith.subf %a, %mm : f32
      %ex = math.exp %d : f32
      motif.yield %ex : f32
    }
    // CHECK: motif.materialize %{{.*}} in shared : tensor<8x64xf32>
    %es = motif.materialize %e in shared : tensor<8x64xf32>
    // CHECK: motif.contract (%{{.*}}[i, k], %[[W]][k, j]) -> [i, j] over [block, thread, seq] : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
    %mm = motif.contract (%es[r, kk], %w[kk, c]) -> [r, c] over [block, thread, seq] : (tensor<8x64xf32>, tensor<64x16xf32>) -> tensor<8x16xf32>
    // CHECK: motif.transpose %{{.*}}[j, i] -> [i, j] over [thread, block] : (tensor<8x64xf32>) -> tensor<64x8xf32>
    %t = motif.transpose %es[a, b] -> [b, a] over [thread, block] : (tensor<8x64xf32>) -> tensor<64x8xf32>
    // CHECK: motif.materialize %{{.*}} in global observable : tensor<8x64xf32>
    %g0 = motif.materialize %e in global observable : tensor<8x64xf32>
    %g1 = motif.materialize %mm in global : tensor<8x16xf32>
    %g2 = motif.materialize %t in global : tensor<64x8xf32>
    motif.yield %g0, %g1, %g2 : tensor<8x64xf32>, tensor<8x16xf32>, tensor<64x8xf32>
  }
  return %y#0, %y#1, %y#2 : tensor<8x64xf32>, tensor<8x16xf32>, tensor<64x8xf32>
}

// The online-softmax state (running max m, running sum l) reduced with a
// general combiner: two inputs, two identities, a region over two states.
// CHECK-LABEL: func.func @online_softmax_state
func.func @online_softmax_state(%m0: tensor<4x32xf32>, %l0: tensor<4x32xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r:2 = motif.kernel "state" threads(32) -> tensor<4xf32>, tensor<4xf32> {
    // CHECK: motif.reduce (%{{.*}}[i, j], %{{.*}}[i, j]) -> [i] init [0xFF800000 : f32, 0.000000e+00 : f32] over [block, lane]
    // CHECK-SAME: -> (tensor<4xf32>, tensor<4xf32>) combiner {
    // CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
    // CHECK: motif.yield %{{.*}}, %{{.*}} : f32, f32
    %m, %l = motif.reduce (%m0[i, j], %l0[i, j]) -> [i] init [0xFF800000 : f32, 0.0 : f32] over [block, lane]
        : (tensor<4x32xf32>, tensor<4x32xf32>) -> (tensor<4xf32>, tensor<4xf32>) combiner {
    ^bb0(%ma: f32, %la: f32, %mb: f32, %lb: f32):
      %mx = arith.maximumf %ma, %mb : f32
      %da = arith.subf %ma, %mx : f32
      %db = arith.subf %mb, %mx : f32
      %ea = math.exp %da : f32
      %eb = math.exp %db : f32
      %sa = arith.mulf %la, %ea : f32
      %l = math.fma %lb, %eb, %sa : f32
      motif.yield %mx, %l : f32, f32
    }
    %gm = motif.materialize %m in global : tensor<4xf32>
    %gl = motif.materialize %l in global : tensor<4xf32>
    motif.yield %gm, %gl : tensor<4xf32>, tensor<4xf32>
  }
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xf32>
}

// Rank-0 results: a reduction of everything, read back through an empty index.
// CHECK-LABEL: func.func @scalar_result
func.func @scalar_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "one_thread" threads(1) -> tensor<4xf32> {
    // CHECK: motif.reduce <add> (%{{.*}}[i]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %s = motif.reduce <add> (%x[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %sr = motif.materialize %s in register : tensor<f32>
    // CHECK: motif.map (%{{.*}}[i], %{{.*}}[]) -> [i] over [seq]
    %d = motif.map (%x[j], %sr[]) -> [j] over [seq] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %q = arith.divf %a, %b : f32
      motif.yield %q : f32
    }
    %g = motif.materialize %d in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// Several rows per block: one row per warp of the grid, lanes across the row.
// CHECK-LABEL: func.func @rows_per_warp
func.func @rows_per_warp(%x: tensor<64x128xf32>) -> tensor<64xf32> {
  %y = motif.kernel "rows" threads(256) -> tensor<64xf32> {
    // CHECK: motif.reduce <add> (%{{.*}}[i, j]) -> [i] over [block.warp, lane]
    %s = motif.reduce <add> (%x[r, c]) -> [r] over [block.warp, lane] : (tensor<64x128xf32>) -> tensor<64xf32>
    %g = motif.materialize %s in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}

// A recomputed value (docs/residency.md, "Recompute"): no slots; the sum and
// the division each compute exp(x) at the element they read.
// CHECK-LABEL: func.func @recompute
func.func @recompute(%x: tensor<8x1024xf32>) -> tensor<8x1024xf32> {
  %y = motif.kernel "rec" threads(64) -> tensor<8x1024xf32> {
    %e = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<8x1024xf32>) -> tensor<8x1024xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    // CHECK: motif.materialize %{{.*}} in register recompute {motif.rule = "kept"} : tensor<8x1024xf32>
    %t = motif.materialize %e in register recompute {motif.rule = "kept"} : tensor<8x1024xf32>
    %s = motif.reduce <add> (%t[i, j]) -> [i] over [block, thread] : (tensor<8x1024xf32>) -> tensor<8xf32>
    %sr = motif.materialize %s in register : tensor<8xf32>
    %p = motif.map (%t[i, j], %sr[i]) -> [i, j] over [block, thread] : (tensor<8x1024xf32>, tensor<8xf32>) -> tensor<8x1024xf32> {
    ^bb0(%a: f32, %b: f32):
      %q = arith.divf %a, %b : f32
      motif.yield %q : f32
    }
    %g = motif.materialize %p in global : tensor<8x1024xf32>
    motif.yield %g : tensor<8x1024xf32>
  }
  return %y : tensor<8x1024xf32>
}

// A register value with a shared tail (docs/residency.md, "Shared tails"):
// 16 slots per thread, the last 8 in shared memory.
// CHECK-LABEL: func.func @shared_tail
func.func @shared_tail(%x: tensor<8x1024xf32>) -> tensor<8xf32> {
  %y = motif.kernel "tail" threads(64) -> tensor<8xf32> {
    %e = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<8x1024xf32>) -> tensor<8x1024xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    // CHECK: motif.materialize %{{.*}} in register shared_tail(8) : tensor<8x1024xf32>
    %t = motif.materialize %e in register shared_tail(8) : tensor<8x1024xf32>
    %s = motif.reduce <add> (%t[i, j]) -> [i] over [block, thread] : (tensor<8x1024xf32>) -> tensor<8xf32>
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}
