// The row sum of Inputs/row-sum.mlir split into two partial sums (one per
// half row) that are then added: a different reduction tree. The bits change,
// the values stay within the tolerance class.
// RUN: not motif-equiv %S/Inputs/row-sum.mlir %s --class=bitwise --seed=11 | FileCheck %s --check-prefix=BITWISE
// RUN: motif-equiv %S/Inputs/row-sum.mlir %s --class=tolerance --seed=11 | FileCheck %s --check-prefix=TOL

// BITWISE-LABEL: @normalize: class bitwise, 3 trials, seed 11
// BITWISE:       #0 tensor<8x2x16xf32> bitwise no {{[1-9][0-9]*}} {{[1-9][0-9]*}} {{.*}} FAIL
// BITWISE-NEXT:  @normalize: FAIL

// TOL-LABEL: @normalize: class tolerance, 3 trials, seed 11
// TOL:       #0 tensor<8x2x16xf32> tolerance no {{[1-9][0-9]*}} {{[1-9][0-9]*}} {{[0-9.]+e-0[6-9]}} {{[0-9.]+e-0[6-9]}} PASS
// TOL-NEXT:  @normalize: PASS (tolerance: rel err <= 1.00e-05 against the f64 reference)

func.func @normalize(%x: tensor<8x2x16xf32>) -> tensor<8x2x16xf32> {
  %y = motif.kernel "normalize" threads(32) -> tensor<8x2x16xf32> {
    %p = motif.reduce <add> (%x[i, j, k]) -> [i, j] over [block, seq, thread] : (tensor<8x2x16xf32>) -> tensor<8x2xf32>
    %pr = motif.materialize %p in shared : tensor<8x2xf32>
    %s = motif.reduce <add> (%pr[i, j]) -> [i] over [block, seq] : (tensor<8x2xf32>) -> tensor<8xf32>
    %ss = motif.materialize %s in register : tensor<8xf32>
    %v = motif.map (%x[i, j, k], %ss[i]) -> [i, j, k] over [block, seq, thread] : (tensor<8x2x16xf32>, tensor<8xf32>) -> tensor<8x2x16xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %v in global : tensor<8x2x16xf32>
    motif.yield %g : tensor<8x2x16xf32>
  }
  return %y : tensor<8x2x16xf32>
}
