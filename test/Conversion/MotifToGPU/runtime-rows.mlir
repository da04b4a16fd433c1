// RUN: motif-opt %s --convert-motif-to-gpu --split-input-file | FileCheck %s
//
// A runtime row count (docs/abi.md): the host reads it off the first
// argument that has one, allocates intermediates of that many rows, and
// launches rows x blocks-per-row blocks; kernel parameters take the static
// bound max_rows (the bare-pointer convention needs static shapes; the row
// stride is static either way), and a kernel over the row count declares no
// known_grid_size. The outermost grid coordinate is blockIdx.x / (blocks per
// row): no kernel reads the row count.

// CHECK-LABEL: func.func @rows(
// CHECK-SAME: %[[X:.*]]: memref<?x4x64xf32> {motif.buffer = "arg0", motif.role = "input"}
// CHECK-SAME: %[[W:.*]]: memref<64xf32> {motif.buffer = "arg1", motif.role = "input"}
// CHECK-SAME: %[[Y:.*]]: memref<?x4xf32> {motif.buffer = "result0", motif.role = "output"}
// CHECK-SAME: attributes {motif.host, motif.max_rows = 536870911 : i64}
// CHECK: %[[ROWS:.*]] = memref.dim %[[X]], %{{.*}} : memref<?x4x64xf32>
// CHECK: %[[XC:.*]] = memref.cast %[[X]] : memref<?x4x64xf32> to memref<536870911x4x64xf32>
// CHECK: %[[T:.*]] = memref.alloc(%[[ROWS]]) {motif.buffer = "scale.out0"} : memref<?x4x64xf32>
// CHECK: %[[TC:.*]] = memref.cast %[[T]] : memref<?x4x64xf32> to memref<536870911x4x64xf32>
// CHECK: %[[GRID:.*]] = arith.muli %[[ROWS]], %c4{{.*}} : index
// CHECK: gpu.launch_func @motif_kernels::@rows_scale blocks in (%[[GRID]], %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%[[XC]] : memref<536870911x4x64xf32>, %[[W]] : memref<64xf32>, %[[TC]] : memref<536870911x4x64xf32>)
// A one-block-per-row kernel launches the row count itself.
// CHECK: gpu.launch_func @motif_kernels::@rows_sum blocks in (%[[ROWS]], %{{.*}}, %{{.*}})
// CHECK: memref.dealloc %[[T]] : memref<?x4x64xf32>
// CHECK: gpu.func @rows_scale(%{{.*}}: memref<536870911x4x64xf32> {llvm.noalias}, %{{.*}}: memref<64xf32> {llvm.noalias}, %{{.*}}: memref<536870911x4x64xf32> {llvm.noalias}) kernel
// CHECK-SAME: motif.blocks_per_row = 4 : i64
// CHECK-NOT: known_grid_size
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: arith.remui %[[BID]], %c4
// CHECK: arith.divui %[[BID]], %c4
// CHECK: gpu.func @rows_sum
// CHECK-SAME: motif.blocks_per_row = 1 : i64
func.func @rows(%x: tensor<?x4x64xf32>, %w: tensor<64xf32>) -> tensor<?x4xf32> {
  %t = motif.kernel "scale" threads(64) -> tensor<?x4x64xf32> {
    %m = motif.map (%x[h, i, j], %w[j]) -> [h, i, j] over [block, block, thread]
           : (tensor<?x4x64xf32>, tensor<64xf32>) -> tensor<?x4x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %p = arith.mulf %a, %b : f32
      motif.yield %p : f32
    }
    %g = motif.materialize %m in global : tensor<?x4x64xf32>
    motif.yield %g : tensor<?x4x64xf32>
  }
  %y = motif.kernel "sum" threads(64) -> tensor<?x4xf32> {
    %s = motif.reduce <add> (%t[h, i, j]) -> [h, i] over [block, seq, thread]
           : (tensor<?x4x64xf32>) -> tensor<?x4xf32>
    %g = motif.materialize %s in global : tensor<?x4xf32>
    motif.yield %g : tensor<?x4xf32>
  }
  return %y : tensor<?x4xf32>
}

// -----

// A static function keeps its known grid and no bound.
// CHECK-LABEL: func.func @static(
// CHECK-SAME: attributes {motif.host} {
// CHECK: gpu.func @static_k
// CHECK-SAME: known_grid_size = array<i32: 8, 1, 1>
// CHECK-NOT: motif.blocks_per_row
func.func @static(%x: tensor<8x32xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8xf32> {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<8x32xf32>) -> tensor<8xf32>
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}

