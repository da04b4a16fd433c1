// Past the 48 KiB a block declares statically, shared buffers are views of
// the block's dynamic shared memory at 16-byte aligned offsets, and the
// launch passes the size (the runtime opts the function in: docs/abi.md).
// At most 48 KiB they stay static workgroup attributions (residencies.mlir).
// RUN: motif-opt %s -split-input-file --convert-motif-to-gpu | FileCheck %s

// A 64 KiB row in shared memory, read by one thread per block.
// CHECK-LABEL: func.func @row_sums
// CHECK: %[[SIZE:.*]] = arith.constant 65536 : i32
// CHECK: gpu.launch_func @motif_kernels::@row_sums_k {{.*}} dynamic_shared_memory_size %[[SIZE]] args(
// CHECK: gpu.func @row_sums_k(
// CHECK-NOT: workgroup(
// CHECK-SAME: kernel
// CHECK: %[[BASE:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[OFF:.*]] = arith.constant 0 : index
// CHECK: memref.view %[[BASE]][%[[OFF]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<16384xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: gpu.dynamic_shared_memory
// CHECK: gpu.return
func.func @row_sums(%x: tensor<64x16384xf32>) -> tensor<64xf32> {
  %s = motif.kernel "k" threads(256) -> tensor<64xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x16384xf32>) -> tensor<64x16384xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    %e = motif.materialize %m in shared : tensor<64x16384xf32>
    %r = motif.reduce <add> (%e[i, j]) -> [i] over [block, seq] : (tensor<64x16384xf32>) -> tensor<64xf32>
    %g = motif.materialize %r in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %s : tensor<64xf32>
}

// -----

// Two buffers: the shared value (49156 B) at 0, the cross-warp scratch of the
// block reduction at the next 16-byte boundary (49168); 49200 B in all.
// CHECK-LABEL: func.func @two_buffers
// CHECK: arith.constant 49200 : i32
// CHECK: gpu.func @two_buffers_k(
// CHECK: %[[BASE:.*]] = gpu.dynamic_shared_memory
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: memref.view %[[BASE]][%[[C0]]][] : {{.*}} to memref<12289xf32, #gpu.address_space<workgroup>>
// CHECK: %[[C1:.*]] = arith.constant 49168 : index
// CHECK: memref.view %[[BASE]][%[[C1]]][] : {{.*}} to memref<8xf32, #gpu.address_space<workgroup>>
func.func @two_buffers(%x: tensor<64x12289xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %y:2 = motif.kernel "k" threads(256) -> tensor<64xf32>, tensor<64xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x12289xf32>) -> tensor<64x12289xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    %r = motif.materialize %m in shared : tensor<64x12289xf32>
    %s = motif.reduce <add> (%r[i, j]) -> [i] over [block, thread] : (tensor<64x12289xf32>) -> tensor<64xf32>
    %t = motif.reduce <max> (%r[i, j]) -> [i] over [block, seq] : (tensor<64x12289xf32>) -> tensor<64xf32>
    %gs = motif.materialize %s in global : tensor<64xf32>
    %gt = motif.materialize %t in global : tensor<64xf32>
    motif.yield %gs, %gt : tensor<64xf32>, tensor<64xf32>
  }
  return %y#0, %y#1 : tensor<64xf32>, tensor<64xf32>
}

// -----

// Exactly the 227 KiB (232448 B) a block may opt in to on sm_90 lowers; one
// element more is refused (BadInput/lowering.mlir).
// CHECK-LABEL: func.func @at_the_limit
// CHECK: arith.constant 232448 : i32
// CHECK: memref.view {{.*}} to memref<58112xf32, #gpu.address_space<workgroup>>
func.func @at_the_limit(%x: tensor<58112xf32>) -> tensor<f32> {
  %y = motif.kernel "k" threads(32) -> tensor<f32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<58112xf32>) -> tensor<58112xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %r = motif.materialize %m in shared : tensor<58112xf32>
    %s = motif.reduce <add> (%r[i]) -> [] over [seq] : (tensor<58112xf32>) -> tensor<f32>
    %g = motif.materialize %s in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}
