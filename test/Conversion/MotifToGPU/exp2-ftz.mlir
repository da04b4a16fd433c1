// RUN: motif-opt %s --pass-pipeline='builtin.module(convert-motif-to-gpu,gpu.module(canonicalize,cse))' | FileCheck %s
// A map body's f32 math.exp2 {motif.ftz} (ScalarOps.h; docs/residency.md,
// "Approximate math") lowers to ex2.approx.ftz.f32 through the NVVM
// intrinsic (emitScalarOp, shared with combiner bodies); a plain exp2 stays
// math.exp2 (libdevice's exp2f: ex2.approx.f32, subnormal results kept).
// CHECK-LABEL: gpu.func @ftz_ftz
// CHECK: llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"(%{{.*}}) : (f32) -> f32
// CHECK-NOT: math.exp2
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @ftz_plain
// CHECK-NOT: llvm.nvvm.ex2.approx.ftz.f
// CHECK: math.exp2 %{{.*}} : f32
// CHECK-NOT: llvm.nvvm.ex2.approx.ftz.f
// CHECK: gpu.return
func.func @ftz(%x: tensor<64x256xf32>) -> (tensor<64x256xf32>, tensor<64x256xf32>) {
  %a = motif.kernel "ftz" threads(256) -> tensor<64x256xf32> {
    %e = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x256xf32>) -> tensor<64x256xf32> {
    ^bb0(%v: f32):
      %r = math.exp2 %v {motif.ftz} : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<64x256xf32>
    motif.yield %g : tensor<64x256xf32>
  }
  %b = motif.kernel "plain" threads(256) -> tensor<64x256xf32> {
    %e = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x256xf32>) -> tensor<64x256xf32> {
    ^bb0(%v: f32):
      %r = math.exp2 %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<64x256xf32>
    motif.yield %g : tensor<64x256xf32>
  }
  return %a, %b : tensor<64x256xf32>, tensor<64x256xf32>
}
