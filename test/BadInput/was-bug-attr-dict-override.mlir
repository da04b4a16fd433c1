// WAS A BUG, fixed (lib/Dialect/Motif/IR/MotifOps.td, the declarative formats of
// motif.kernel and motif.materialize): an attribute dictionary may name an
// inherent attribute the syntax already set, and the dictionary wins,
// silently:
//   * `motif.kernel "k" threads(4) -> ... attributes {threads = 64 : i64}`
//     is a kernel of 64 threads (`motif-opt` prints `threads(64)`, exit 0);
//     `attributes {sym_name = "other"}` renames it;
//   * `motif.materialize %m in register {residency = #motif<residency
//     shared>}` is a shared materialization.
// (The custom parsers of map/reduce refuse it: "attribute 'mapping' occurs
// more than once in the attribute list".)
// Expected: the same refusal, located, exit 1.
// RUN: motif-opt %s -split-input-file -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s

func.func @kernel_threads_twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{occurs more than once}}
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> attributes {threads = 64 : i64} {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @kernel_name_twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{occurs more than once}}
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> attributes {sym_name = "other"} {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @residency_twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{occurs more than once}}
    %r = motif.materialize %m in register {residency = #motif<residency shared>} : tensor<4xf32>
    %n = motif.map (%r[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %n in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}
