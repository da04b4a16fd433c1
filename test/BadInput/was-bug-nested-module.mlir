// WAS A BUG, fixed (lib/Conversion/MotifToGPU/MotifToGPU.cpp, runOnOperation): only
// the func.func ops of the top-level module are converted. A kernel in a
// function of a nested builtin.module passes the "nested" check (its parent
// is a func.func) and is then skipped: `motif-opt
// known-bugs-nested-module.mlir --convert-motif-to-gpu` exits 0 with the
// motif ops still there. (motif-compile now refuses what is left with a
// located error, test/BadInput/compile-input.test.)
// Expected: a located error on the kernel, exit 1.
// RUN: motif-opt %s --convert-motif-to-gpu -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s --convert-motif-to-gpu

module {
  module @inner {
    func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
      // expected-error @+1 {{'motif.kernel' op}}
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
  }
}
