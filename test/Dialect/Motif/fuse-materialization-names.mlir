// RUN: motif-opt %s --fuse-materialization -o - 2>/dev/null | FileCheck %s
// The merged kernel of 'a' and 'b' would be 'a_b', which another kernel of
// the function already is: kernel names name result buffers (a_b.out0), so
// the merged one gets a suffix.

// CHECK-LABEL: func.func @f
// CHECK: motif.kernel "a_b"
// CHECK: motif.kernel "a_b_1"
func.func @f(%x: tensor<4x32xf32>) -> (tensor<4x32xf32>, tensor<4x32xf32>) {
  %c = motif.kernel "a_b" threads(32) -> tensor<4x32xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %g = motif.materialize %m in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  %a = motif.kernel "a" threads(32) -> tensor<4x32xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%v: f32):
      %r = arith.addf %v, %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  %b = motif.kernel "b" threads(32) -> tensor<4x32xf32> {
    %m = motif.map (%a[i, j]) -> [i, j] over [block, thread] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%v: f32):
      %r = arith.mulf %v, %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  return %c, %b : tensor<4x32xf32>, tensor<4x32xf32>
}
