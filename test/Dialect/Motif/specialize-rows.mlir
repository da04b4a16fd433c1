// RUN: motif-opt %s --pass-pipeline="builtin.module(func.func(motif-specialize-rows{rows=1000}))" | FileCheck %s
// RUN: motif-opt %examples/softmax_dynamic.mlir --pass-pipeline="builtin.module(func.func(motif-specialize-rows{rows=1}))" | FileCheck %s --check-prefix=ONE
// RUN: not motif-opt %s --pass-pipeline="builtin.module(func.func(motif-specialize-rows{rows=0}))" 2>&1 | FileCheck %s --check-prefix=ZERO
// Past 2^40 instances the specialized program fails the verifier, located.
// RUN: not motif-opt %s --pass-pipeline="builtin.module(func.func(motif-specialize-rows{rows=4294967296}))" 2>&1 | FileCheck %s --check-prefix=HUGE
//
// Every `?` of a function (signature, kernel results, motif results, body
// values) becomes the row count; static dims and static functions stay.

// CHECK-LABEL: func.func @rows(%{{.*}}: tensor<1000x1024xf32>, %{{.*}}: tensor<1024xf32>) -> tensor<1000x1024xf32>
// CHECK: motif.kernel "k" threads(256) -> tensor<1000x1024xf32>
// CHECK: motif.reduce <add> (%{{.*}}[i, j]) -> [i] over [block, thread] : (tensor<1000x1024xf32>) -> tensor<1000xf32>
// CHECK: motif.materialize %{{.*}} in register : tensor<1000xf32>
// CHECK: motif.map (%{{.*}}[i, j], %{{.*}}[i], %{{.*}}[j]) -> [i, j] over [block, thread] : (tensor<1000x1024xf32>, tensor<1000xf32>, tensor<1024xf32>) -> tensor<1000x1024xf32>
// CHECK-NOT: ?x
// CHECK-LABEL: func.func @static(%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
// ONE: func.func @softmax_dynamic(%{{.*}}: tensor<1x1024xf32>) -> tensor<1x1024xf32>
// ONE-NOT: tensor<?
// ZERO: error: motif-specialize-rows: rows=0 must be at least 1
// HUGE: error: 'motif.reduce' op has more than 1099511627776 iteration instances (2^40)
func.func @rows(%x: tensor<?x1024xf32>, %g: tensor<1024xf32>) -> tensor<?x1024xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<?x1024xf32> {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<?x1024xf32>) -> tensor<?xf32>
    %sr = motif.materialize %s in register : tensor<?xf32>
    %m = motif.map (%x[i, j], %sr[i], %g[j]) -> [i, j] over [block, thread]
           : (tensor<?x1024xf32>, tensor<?xf32>, tensor<1024xf32>) -> tensor<?x1024xf32> {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %d = arith.subf %a, %b : f32
      %e = arith.mulf %d, %c : f32
      motif.yield %e : f32
    }
    %mg = motif.materialize %m in global : tensor<?x1024xf32>
    motif.yield %mg : tensor<?x1024xf32>
  }
  return %y : tensor<?x1024xf32>
}

func.func @static(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "c" threads(4) -> tensor<4xf32> {
    %g = motif.materialize %x in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}
