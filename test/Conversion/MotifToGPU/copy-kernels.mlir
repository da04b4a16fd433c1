// RUN: motif-opt %s --convert-motif-to-gpu | FileCheck %s
// ../shared/repro/wrong_copy_kernel_stores_nothing.mlir: a kernel result that
// no motif of the kernel computes (a copy) was never stored. Now a copy from
// outside the kernel is a grid-stride loop over every element, and a
// register or shared value also yielded in global memory is stored by the
// motif that computes it.

// CHECK-LABEL: gpu.func @copy_argument_copy
// CHECK-SAME:    (%[[IN:[^:]*]]: memref<4x32xf32> {llvm.noalias}, %[[OUT:[^:]*]]: memref<4x32xf32> {llvm.noalias})
// CHECK-DAG:     %[[SRC:.*]] = memref.assume_alignment %[[IN]]
// CHECK-DAG:     %[[DST:.*]] = memref.assume_alignment %[[OUT]]
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c128{{.*}} step %c32{{.*}}
// CHECK:           %[[V:.*]] = memref.load %[[SRC]][
// CHECK:           memref.store %[[V]], %[[DST]][
func.func @copy_argument(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = motif.kernel "copy" threads(32) -> tensor<4x32xf32> {
    %g = motif.materialize %x in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  return %y : tensor<4x32xf32>
}

// An earlier kernel's result copied by a kernel that also computes: the copy
// strides over the grid of the kernel's motifs (4 blocks x 32 threads).
// CHECK-LABEL: gpu.func @copy_result_both
// CHECK-SAME:    (%[[X:[^:]*]]: memref<4x32xf32> {llvm.noalias}, %[[B:[^:]*]]: memref<4x32xf32> {llvm.noalias}, %[[G:[^:]*]]: memref<4x32xf32> {llvm.noalias}, %[[C:[^:]*]]: memref<4x32xf32> {llvm.noalias})
// CHECK-DAG:     %[[SB:.*]] = memref.assume_alignment %[[B]]
// CHECK-DAG:     %[[SC:.*]] = memref.assume_alignment %[[C]]
// CHECK:         scf.for %{{.*}} = %{{.*}} to %c128{{.*}} step %c128
// CHECK:           %[[V:.*]] = memref.load %[[SB]][
// CHECK:           memref.store %[[V]], %[[SC]][
func.func @copy_result(%x: tensor<4x32xf32>) -> (tensor<4x32xf32>, tensor<4x32xf32>) {
  %a = motif.kernel "first" threads(32) -> tensor<4x32xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%v: f32):
      %r = arith.addf %v, %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  %b:2 = motif.kernel "both" threads(32) -> tensor<4x32xf32>, tensor<4x32xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %g = motif.materialize %m in global : tensor<4x32xf32>
    %c = motif.materialize %a in global : tensor<4x32xf32>
    motif.yield %g, %c : tensor<4x32xf32>, tensor<4x32xf32>
  }
  return %b#0, %b#1 : tensor<4x32xf32>, tensor<4x32xf32>
}

// A register value that is also a kernel result: the map stores it.
// CHECK-LABEL: gpu.func @copy_register_k
// CHECK:         %[[E:.*]] = math.exp
// CHECK:         memref.store %[[E]], %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x32xf32>
// CHECK:         arith.mulf %[[E]], %[[E]]
func.func @copy_register(%x: tensor<4x32xf32>) -> (tensor<4x32xf32>, tensor<4x32xf32>) {
  %y:2 = motif.kernel "k" threads(32) -> tensor<4x32xf32>, tensor<4x32xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%v: f32):
      %r = math.exp %v : f32
      motif.yield %r : f32
    }
    %mr = motif.materialize %m in register : tensor<4x32xf32>
    %sq = motif.map (%mr[i, j]) -> [i, j] over [block, thread] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%v: f32):
      %r = arith.mulf %v, %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %sq in global : tensor<4x32xf32>
    %c = motif.materialize %mr in global : tensor<4x32xf32>
    motif.yield %g, %c : tensor<4x32xf32>, tensor<4x32xf32>
  }
  return %y#0, %y#1 : tensor<4x32xf32>, tensor<4x32xf32>
}
