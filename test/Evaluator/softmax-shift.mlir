// Softmax is shift-invariant: subtracting the row minimum instead of the row
// maximum gives the same values in exact arithmetic but other bits in f32.
// The bitwise class rejects it, the tolerance class accepts it.
// RUN: not motif-equiv %S/Inputs/softmax.mlir %s --class=bitwise --seed=3 | FileCheck %s --check-prefix=BITWISE
// RUN: motif-equiv %S/Inputs/softmax.mlir %s --class=tolerance --seed=3 | FileCheck %s --check-prefix=TOL
// A tolerance too tight for f32 rejects even the reference itself.
// RUN: not motif-equiv %S/Inputs/softmax.mlir %s --class=tolerance --rtol=1e-9 --seed=3 | FileCheck %s --check-prefix=TIGHT

// BITWISE-LABEL: @softmax: class bitwise, 3 trials, seed 3
// BITWISE:       #0 tensor<16x32xf32> bitwise no {{[1-9][0-9]*}} {{[1-9][0-9]*}} {{.*}} FAIL
// BITWISE-NEXT:  @softmax: FAIL (bitwise: every output bit-identical)

// TOL-LABEL: @softmax: class tolerance, 3 trials, seed 3
// TOL:       #0 tensor<16x32xf32> tolerance no {{[1-9][0-9]*}} {{[0-9]+}} {{[0-9.]+e-0[6-9]}} {{[0-9.]+e-0[6-9]}} PASS
// TOL-NEXT:  @softmax: PASS (tolerance: rel err <= 1.00e-05 against the f64 reference)

// TIGHT:     @softmax: FAIL (tolerance: rel err <= 1.00e-09 against the f64 reference)

func.func @softmax(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %y = motif.kernel "softmax" threads(32) -> tensor<16x32xf32> {
    %m = motif.reduce <min> (%x[i, j]) -> [i] over [block, thread] : (tensor<16x32xf32>) -> tensor<16xf32>
    %mr = motif.materialize %m in register : tensor<16xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<16x32xf32>, tensor<16xf32>) -> tensor<16x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<16x32xf32>
    %s = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<16x32xf32>) -> tensor<16xf32>
    %ss = motif.materialize %s in shared : tensor<16xf32>
    %v = motif.map (%er[i, j], %ss[i]) -> [i, j] over [block, thread] : (tensor<16x32xf32>, tensor<16xf32>) -> tensor<16x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %v in global : tensor<16x32xf32>
    motif.yield %g : tensor<16x32xf32>
  }
  return %y : tensor<16x32xf32>
}
