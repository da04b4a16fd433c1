// The other two wrong rewrites: losing an observable value and rewiring a
// consumer to the wrong input. Each is a located error.
// RUN: motif-opt %s --pass-pipeline="builtin.module(func.func(motif-record-invariants,motif-test-wrong-fusion{mode=drop-observable},motif-verify-invariants))" --verify-diagnostics=only-expected --mlir-print-op-on-diagnostic=false --split-input-file

// expected-error @+1 {{observable values changed: 0 observable materializations, the original had 1}}
func.func @observable(%x: tensor<64xf32>) -> tensor<64xf32> {
  %t = motif.kernel "double" threads(64) -> tensor<64xf32> {
    %s = motif.map (%x[i]) -> [i] over [thread] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32):
      %r = arith.addf %a, %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %s in global observable : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %t : tensor<64xf32>
}
