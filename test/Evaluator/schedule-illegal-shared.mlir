// The schedule-faithful model executes the mapping: the doubled matrix kept
// in shared memory is written by block b for row b, but the transpose in
// block b reads column b, so most of what it reads was never written in this
// block (../shared/repro/wrong_shared_read_by_other_blocks.mlir; relative
// error 1.37 on the GPU). The model reports FAIL on its own, without the
// lowering's check; the sequential model, where a materialization is the
// identity, cannot see it.
// RUN: not motif-equiv %S/Inputs/transpose-legal.mlir %s --seed=5 --trials=1 | FileCheck %s
// RUN: not motif-equiv %S/Inputs/transpose-legal.mlir %s --seed=5 --trials=1 --class=tolerance | FileCheck %s --check-prefix=TOL
// RUN: motif-equiv %S/Inputs/transpose-legal.mlir %s --seed=5 --trials=1 --model=sequential | FileCheck %s --check-prefix=SEQ
// RUN: motif-equiv --run %s --seed=5 | FileCheck %s --check-prefix=ALONE

// CHECK-LABEL: @f: class bitwise, 1 trials, seed 5, model schedule
// CHECK:       #0 tensor<64x64xf32> bitwise no {{[1-9][0-9]*}} {{.*}} FAIL
// CHECK:       @f: FAIL
// TOL:         #0 tensor<64x64xf32> tolerance no {{[0-9]+}} {{[0-9]+}} 0.00e+00 {{[1-9][0-9.]*e\+00}} FAIL
// SEQ-LABEL:   @f: class bitwise, 1 trials, seed 5, model sequential
// SEQ:         @f: PASS
// A relative error of order 1 against the f64 reference of the program.
// ALONE:       #0 tensor<64x64xf32> {{.*}} rel-err f32 vs f64 {{[0-9.]+e\+00}}

func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<64x64xf32> {
    %t = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x64xf32>) -> tensor<64x64xf32> {
    ^bb0(%a: f32):
      %c = arith.constant 2.0 : f32
      %r = arith.mulf %a, %c : f32
      motif.yield %r : f32
    }
    %ts = motif.materialize %t in shared : tensor<64x64xf32>
    %u = motif.transpose %ts[j, i] -> [i, j] over [block, thread] : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %g = motif.materialize %u in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %y : tensor<64x64xf32>
}
