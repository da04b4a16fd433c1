// WAS A BUG, fixed (lib/Conversion/MotifToGPU/MotifToGPU.cpp, convertFunction): the
// function body's terminator is cast to func.return unchecked. With a
// `cf.br` ending the entry block (the kernel first, `return` in a second
// block), `motif-opt known-bugs-multi-block-function.mlir
// --convert-motif-to-gpu` exits 0 and emits a host function with no output
// buffer: the kernel writes a temporary that is deallocated, the result is
// gone. (motif-compile then refuses it as "host function @f has no output
// buffer", which names the symptom, not the input.)
// Expected: a located error on the function (its body is not one block of
// kernels and a return), exit 1.
// RUN: motif-opt %s --convert-motif-to-gpu -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s --convert-motif-to-gpu

// expected-error @+1 {{must be one block of motif.kernel ops ending in func.return to be lowered}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  cf.br ^bb1
^bb1:
  return %y : tensor<4xf32>
}
