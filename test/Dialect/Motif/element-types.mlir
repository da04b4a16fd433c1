// RUN: motif-opt %s -split-input-file | motif-opt -split-input-file | FileCheck %s
//
// Element types (docs/dialect.md, "Element types"): tensors of f32, f16 and
// bf16 round-trip; reductions and contractions of half elements accumulate in
// f32, their result type; map bodies convert with arith.extf / truncf.

// CHECK-LABEL: func.func @half_types
// CHECK: motif.reduce <max> (%{{.*}}[i, j]) -> [i] over [block, thread] : (tensor<4x64xbf16>) -> tensor<4xf32>
// CHECK: motif.contract (%{{.*}}[i, j], %{{.*}}[i, j]) -> [i] over [block, thread] : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4xf32>
// CHECK: ^bb0(%{{.*}}: bf16, %{{.*}}: f32, %{{.*}}: f16):
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: motif.yield %{{.*}} : f16
// CHECK: motif.transpose %{{.*}}[j, i] -> [i, j] over [seq, thread] : (tensor<4x64xf16>) -> tensor<64x4xf16>
func.func @half_types(%x: tensor<4x64xbf16>, %h: tensor<4x64xf16>) -> (tensor<4x64xf16>, tensor<64x4xf16>) {
  %y = motif.kernel "k" threads(64) -> tensor<4x64xf16> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<4x64xbf16>) -> tensor<4xf32>
    %mr = motif.materialize %m in register : tensor<4xf32>
    %s = motif.contract (%h[i, j], %h[i, j]) -> [i] over [block, thread]
           : (tensor<4x64xf16>, tensor<4x64xf16>) -> tensor<4xf32>
    %sr = motif.materialize %s in register : tensor<4xf32>
    %v = motif.map (%x[i, j], %mr[i], %h[i, j]) -> [i, j] over [block, thread]
           : (tensor<4x64xbf16>, tensor<4xf32>, tensor<4x64xf16>) -> tensor<4x64xf16> {
    ^bb0(%a: bf16, %b: f32, %c: f16):
      %w = arith.extf %a : bf16 to f32
      %d = arith.subf %w, %b : f32
      %r = arith.truncf %d : f32 to f16
      %q = arith.addf %r, %c : f16
      motif.yield %q : f16
    }
    %g = motif.materialize %v in global : tensor<4x64xf16>
    motif.yield %g : tensor<4x64xf16>
  }
  %t = motif.kernel "t" threads(64) -> tensor<64x4xf16> {
    %tt = motif.transpose %h[i, j] -> [j, i] over [seq, thread]
           : (tensor<4x64xf16>) -> tensor<64x4xf16>
    %gt = motif.materialize %tt in global : tensor<64x4xf16>
    motif.yield %gt : tensor<64x4xf16>
  }
  return %y, %t : tensor<4x64xf16>, tensor<64x4xf16>
}
