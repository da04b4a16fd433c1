// WAS A BUG, fixed (lib/Dialect/Motif/IR/MotifOps.cpp KernelOp::verifyRegions, and
// lib/Conversion, lib/Evaluator): a kernel that yields one global
// materialization twice is accepted everywhere and computes a wrong result:
// `motif-opt known-bugs-yield-twice.mlir --convert-motif-to-gpu` (exit 0)
// emits one store, to result #0; result #1's buffer is never written.
// motif-compile writes a manifest for it (exit 0), and `motif-equiv --run`
// prints result #1 as empty ("first []") and `motif-equiv A A` PASSes it.
// Two materializations of the same value (`%g`, `%h`) lower correctly.
// Expected, as for `return %y, %y` ("returns the same kernel result twice"):
// a located refusal on the kernel, exit 1 (or both buffers stored, and this
// file rewritten).
// RUN: motif-opt %s -split-input-file -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s

func.func @map_result_yielded_twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{twice}}
  %a:2 = motif.kernel "a" threads(4) -> tensor<4xf32>, tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g, %g : tensor<4xf32>, tensor<4xf32>
  }
  return %a#0, %a#1 : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @copy_yielded_twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  // expected-error @+1 {{twice}}
  %a:2 = motif.kernel "a" threads(4) -> tensor<4xf32>, tensor<4xf32> {
    %g = motif.materialize %x in global : tensor<4xf32>
    motif.yield %g, %g : tensor<4xf32>, tensor<4xf32>
  }
  return %a#0, %a#1 : tensor<4xf32>, tensor<4xf32>
}
