// The softmax of Inputs/softmax.mlir fused by hand into one kernel, every
// intermediate kept in a register (the row sum in shared memory): a pure
// residency move, so the outputs must be bit-identical.
// RUN: motif-equiv %S/Inputs/softmax.mlir %s --class=bitwise --trials=4 --seed=1 | FileCheck %s
// A seed from std::random_device is printed so a failure reproduces.
// RUN: motif-equiv %S/Inputs/softmax.mlir %s | FileCheck %s --check-prefix=SEED

// CHECK-LABEL: @softmax: class bitwise, 4 trials, seed 1
// CHECK-NEXT:  output type class bitwise differing max-ulp rel-err-A rel-err-B verdict
// CHECK-NEXT:  #0 tensor<16x32xf32> bitwise yes 0 0 {{[0-9.]+e-[0-9]+}} {{[0-9.]+e-[0-9]+}} PASS
// CHECK-NEXT:  @softmax: PASS (bitwise: every output bit-identical)

// SEED: @softmax: class bitwise, 3 trials, seed {{[0-9]+}}
// SEED: @softmax: PASS

func.func @softmax(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %y = motif.kernel "softmax" threads(32) -> tensor<16x32xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<16x32xf32>) -> tensor<16xf32>
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
