// WAS A BUG, fixed (lib/Dialect/Motif/Transforms/FuseMaterialization.cpp,
// runOnOperation): the pass walks `func.getBody().front()` of every
// func.func, and a declaration has no block. `motif-opt
// known-bugs-external-function.mlir --fuse-materialization` segfaults (exit
// 139; in a larger module it spun for minutes instead), and so does
// `motif-compile --fuse-materialization` on any module with a declaration.
// A declaration is valid input. Expected: the pass skips it, exit 0, and the
// kernel is fused as without the declaration.
// RUN: motif-opt %s --fuse-materialization -o - 2>/dev/null | FileCheck %s
// CHECK: func.func private @ext(tensor<4xf32>)
// CHECK: motif.kernel

func.func private @ext(tensor<4xf32>)

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
