// WAS A BUG, fixed (lib/Dialect/Motif/IR/MotifOps.cpp, MaterializeOp::verify):
// docs/dialect.md says a global materialization is only yielded, but one with
// no use at all passes the verifier: `motif-opt` and `--fuse-materialization`
// exit 0, and only the lowering refuses it, as "'motif.materialize' op in
// global is not yielded (internal)".
// Expected: the verifier refuses it (a located error, exit 1) without passes.
// RUN: motif-opt %s -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s

func.func @global_not_yielded(%x: tensor<4xf32>) {
  motif.kernel "k" threads(4) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{is not yielded}}
    %g = motif.materialize %m in global : tensor<4xf32>
  }
  return
}
