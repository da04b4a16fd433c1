// A bad --fuse-materialization option is an error naming the option and its value
// (checked once, before any function: also for a module without one), never a
// silent default.
// RUN: not motif-opt %s --fuse-materialization="register-budget=300" -o /dev/null 2>&1 | FileCheck %s
// RUN: not motif-opt %S/Inputs/empty-module.mlir --fuse-materialization="register-budget=300" -o /dev/null 2>&1 | FileCheck %s

// CHECK: error: fuse-materialization: register budget 300 is outside [0, 255]
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
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
