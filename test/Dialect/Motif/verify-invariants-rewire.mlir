// RUN: motif-opt %s --pass-pipeline="builtin.module(func.func(motif-record-invariants,motif-test-wrong-fusion{mode=rewire},motif-verify-invariants))" --verify-diagnostics=only-expected --mlir-print-op-on-diagnostic=false

func.func @rewired(%x: tensor<64xf32>, %w: tensor<64xf32>) -> tensor<64xf32> {
  %t = motif.kernel "scale" threads(64) -> tensor<64xf32> {
    %s = motif.map (%w[i]) -> [i] over [thread] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32):
      %r = arith.addf %a, %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %s in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %y = motif.kernel "use" threads(64) -> tensor<64xf32> {
    %m = motif.map (%t[i]) -> [i] over [thread] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32):
      %r = arith.mulf %a, %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  // expected-error @+1 {{dependence set changed: result #0 depends on {arg0} but the original depended on {arg1}}}
  return %y : tensor<64xf32>
}
