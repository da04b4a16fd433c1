// A deliberately wrong rewrite (--motif-test-wrong-fusion) after a correct
// fusion is caught by --motif-verify-invariants, which compares against the
// invariants --fuse-materialization stamped before rewriting.
// RUN: motif-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(fuse-materialization,motif-verify-invariants))" --mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=OK
// RUN: motif-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(fuse-materialization,motif-test-wrong-fusion{mode=swap-combiner},motif-verify-invariants))" --verify-diagnostics=only-expected --mlir-print-op-on-diagnostic=false

// OK-LABEL: func.func @softmax_rows
// OK-SAME: motif.invariants = {deps = [array<i64: 0>], observables = 0 : i64, reductions = ["max over [64] of {arg0}"]}
func.func @softmax_rows(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %max = motif.kernel "max" threads(64) -> tensor<8xf32> {
    // expected-error @+1 {{reduction domain changed: 'min over [64] of {arg0}' is not a reduction of the original}}
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32>
    %g = motif.materialize %m in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %y = motif.kernel "sub" threads(64) -> tensor<8x64xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread] : (tensor<8x64xf32>, tensor<8xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %e in global : tensor<8x64xf32>
    motif.yield %g : tensor<8x64xf32>
  }
  return %y : tensor<8x64xf32>
}
