// RUN: motif-opt %s --convert-motif-to-gpu --split-input-file | FileCheck %s

// Register residency: the score never leaves the thread -- no workgroup
// buffer, no barrier, no store of the intermediate.
// CHECK-LABEL: func.func @reg(
// CHECK-SAME: %{{.*}}: memref<4xf32> {motif.buffer = "arg0", motif.role = "input"}
// CHECK-SAME: %{{.*}}: memref<f32> {motif.buffer = "result0", motif.role = "output"}) attributes {motif.host}
// CHECK: gpu.launch_func @motif_kernels::@reg_k blocks in
// CHECK-LABEL: gpu.module @motif_kernels
// Buffers never alias and are 16-byte aligned (docs/abi.md).
// CHECK: gpu.func @reg_k(%{{.*}}: memref<4xf32> {llvm.noalias}, %{{.*}}: memref<4x4xf32> {llvm.noalias}, %[[Y:.*]]: memref<f32> {llvm.noalias}) kernel
// CHECK-SAME: known_block_size = array<i32: 1, 1, 1>
// CHECK: %[[YA:.*]] = memref.assume_alignment %[[Y]], 16 : memref<f32>
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.barrier
// CHECK: scf.for {{.*}} iter_args
// CHECK: math.fma
// CHECK: memref.store %{{.*}}, %[[YA]][] : memref<f32>
// CHECK-NOT: memref.store
// CHECK: gpu.return
func.func @reg(%q: tensor<4xf32>, %k: tensor<4x4xf32>) -> tensor<f32> {
  %y = motif.kernel "k" threads(1) -> tensor<f32> {
    %s = motif.contract (%q[c], %k[j, c]) -> [j] over [seq, seq] : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %sr = motif.materialize %s in register : tensor<4xf32>
    %m = motif.reduce <max> (%sr[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %g = motif.materialize %m in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}

// -----

// Shared residency: score j is stored by lane 0 of warp j into a workgroup
// buffer, a barrier follows, then the reader loads it.
// CHECK-LABEL: gpu.func @shared_k
// CHECK-SAME: workgroup(%[[BUF:.*]] : memref<4xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: known_block_size = array<i32: 128, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]]
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]]
// CHECK: %[[LANE0:.*]] = arith.cmpi eq, %[[LANE]]
// CHECK: scf.if %[[LANE0]] {
// CHECK-NEXT: memref.store %{{.*}}, %[[BUF]][%[[WARP]]] : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: memref.load %[[BUF]][%{{.*}}] : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: arith.maximumf
func.func @shared(%q: tensor<4xf32>, %k: tensor<4x4xf32>) -> tensor<f32> {
  %y = motif.kernel "k" threads(128) -> tensor<f32> {
    %s = motif.contract (%q[c], %k[j, c]) -> [j] over [warp, seq] : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %ss = motif.materialize %s in shared : tensor<4xf32>
    %m = motif.reduce <max> (%ss[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %g = motif.materialize %m in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}

// -----

// Global residency: two kernels, an allocated intermediate, the first stores
// it and the second loads it.
// CHECK-LABEL: func.func @glob(
// CHECK: %[[T:.*]] = memref.alloc() {motif.buffer = "scores.out0"} : memref<4xf32>
// CHECK: gpu.launch_func @motif_kernels::@glob_scores {{.*}} args(%{{.*}} : memref<4xf32>, %{{.*}} : memref<4x4xf32>, %[[T]] : memref<4xf32>)
// CHECK: gpu.launch_func @motif_kernels::@glob_max {{.*}} args(%[[T]] : memref<4xf32>, %{{.*}} : memref<f32>)
// CHECK: memref.dealloc %[[T]]
// CHECK-LABEL: gpu.func @glob_scores
// CHECK-SAME: (%{{.*}}: memref<4xf32> {llvm.noalias}, %{{.*}}: memref<4x4xf32> {llvm.noalias}, %[[OUT:.*]]: memref<4xf32> {llvm.noalias}) kernel
// CHECK: %[[OUTA:.*]] = memref.assume_alignment %[[OUT]], 16
// CHECK: memref.store %{{.*}}, %[[OUTA]][
// CHECK-LABEL: gpu.func @glob_max
// CHECK-SAME: (%[[IN:.*]]: memref<4xf32> {llvm.noalias}, %{{.*}}: memref<f32> {llvm.noalias}) kernel
// CHECK: %[[INA:.*]] = memref.assume_alignment %[[IN]], 16
// CHECK: memref.load %[[INA]][
// CHECK-NOT: memref.store %{{.*}}, %[[INA]][
func.func @glob(%q: tensor<4xf32>, %k: tensor<4x4xf32>) -> tensor<f32> {
  %s = motif.kernel "scores" threads(1) -> tensor<4xf32> {
    %d = motif.contract (%q[c], %k[j, c]) -> [j] over [seq, seq] : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %g = motif.materialize %d in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %y = motif.kernel "max" threads(1) -> tensor<f32> {
    %m = motif.reduce <max> (%s[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %g = motif.materialize %m in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}

// -----

// A block all-reduce: a thread-local loop, a 5-stage xor butterfly, lane 0
// of each warp writes its partial, a barrier, every thread folds the 8
// partials in warp order; then every thread uses the row max in registers.
// CHECK-LABEL: gpu.func @rowmax_k
// CHECK-SAME: workgroup(%[[SCRATCH:.*]] : memref<8xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-SAME: known_grid_size = array<i32: 16, 1, 1>
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[NEG_INF]]) -> (f32)
// CHECK: memref.load %{{.*}}[%[[BID]], %{{.*}}] : memref<16x1024xf32>
// CHECK: gpu.shuffle xor %{{.*}}, %{{.*}}, %{{.*}} : f32
// CHECK: gpu.shuffle xor
// CHECK: gpu.shuffle xor
// CHECK: gpu.shuffle xor
// CHECK: gpu.shuffle xor
// CHECK-NOT: gpu.shuffle
// CHECK: memref.store %{{.*}}, %[[SCRATCH]]
// CHECK: gpu.barrier
// CHECK-COUNT-8: memref.load %[[SCRATCH]]
// CHECK: arith.subf
// CHECK: math.exp
func.func @rowmax(%x: tensor<16x1024xf32>) -> tensor<16x1024xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<16x1024xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<16x1024xf32>) -> tensor<16xf32>
    %mr = motif.materialize %m in register : tensor<16xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<16x1024xf32>, tensor<16xf32>) -> tensor<16x1024xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<16x1024xf32>
    motif.yield %g : tensor<16x1024xf32>
  }
  return %y : tensor<16x1024xf32>
}

// -----

// One row per warp: the row index is block * 8 + warp, the row sum is a
// warp butterfly -- no workgroup memory, no barrier -- and lane 0 stores it.
// CHECK-LABEL: func.func @rows_per_warp(
// CHECK: gpu.launch_func @motif_kernels::@rows_per_warp_k blocks in (%[[G:.*]], %{{.*}}, %{{.*}}) threads in (%[[T:.*]], %{{.*}}, %{{.*}})
// CHECK-LABEL: gpu.func @rows_per_warp_k
// CHECK-NOT: workgroup
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 8, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]]
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]]
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[L0:.*]] = arith.cmpi eq, %[[LANE]]
// CHECK: %[[ROW0:.*]] = arith.muli %[[BID]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.addi %[[ROW0]], %[[WARP]] : index
// CHECK: memref.load %{{.*}}[%[[ROW]], %{{.*}}]
// CHECK-COUNT-5: gpu.shuffle xor
// CHECK-NOT: gpu.barrier
// CHECK: scf.if %[[L0]] {
// CHECK-NEXT: memref.store %{{.*}}[%[[ROW]]]
func.func @rows_per_warp(%x: tensor<64x128xf32>) -> tensor<64xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<64xf32> {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block.warp, lane] : (tensor<64x128xf32>) -> tensor<64xf32>
    %g = motif.materialize %s in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}

// -----

// A reduction across warps whose result is spread over lanes (P.V with the
// output dim on lanes, keys on warps): each lane's partial is its own, so the
// scratch is [warps][lanes], every lane stores (no lane-0 guard), and each
// thread folds its own lane's column. (A [warps] scratch written by lane 0
// alone computed every output from lane 0's partial.)
// CHECK-LABEL: gpu.func @lanes_hold_different_results_k
// CHECK-SAME: workgroup(%[[SCRATCH:.*]] : memref<8x32xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[WARP:.*]] = arith.divui %[[TID]]
// CHECK: %[[LANE:.*]] = arith.remui %[[TID]]
// CHECK: math.fma
// CHECK-NOT: scf.if
// CHECK: memref.store %{{.*}}, %[[SCRATCH]][%[[WARP]], %[[LANE]]]
// CHECK-NEXT: gpu.barrier
// CHECK: memref.load %[[SCRATCH]][%{{.*}}, %[[LANE]]]
// CHECK-COUNT-7: memref.load %[[SCRATCH]][%{{.*}}, %[[LANE]]]
func.func @lanes_hold_different_results(%p: tensor<4x256xf32>, %v: tensor<256x32xf32>) -> tensor<4x32xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<4x32xf32> {
    %o = motif.contract (%p[i, j], %v[j, e]) -> [i, e] over [block, lane, warp] : (tensor<4x256xf32>, tensor<256x32xf32>) -> tensor<4x32xf32>
    %g = motif.materialize %o in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  return %y : tensor<4x32xf32>
}
