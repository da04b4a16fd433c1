// WAS A BUG, fixed (lib/Dialect/Motif/Transforms/VerifyInvariants.cpp): a
// `motif.invariants` that is not a dictionary is taken for "no stamp"
// (getAttrOfType<DictionaryAttr> is null): `motif-opt
// known-bugs-invariants-attr.mlir --motif-verify-invariants` exits 0 and
// checks nothing. An empty or incomplete dictionary is refused ("must hold
// deps, reductions and observables").
// Expected: the same refusal for an attribute of the wrong kind, located,
// exit 1.
// RUN: motif-opt %s --motif-verify-invariants -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s --motif-verify-invariants

// expected-error @+1 {{'motif.invariants'}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> attributes {motif.invariants = 1 : i32} {
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}
