// Bad input: a function missing from A or B, different signatures. Each is
// reported with its location and the tool exits with 2 (not 1, a failed
// verdict): no table is printed.
// RUN: not motif-equiv %s %S/Inputs/softmax.mlir --function=nope 2>&1 | FileCheck %s --check-prefix=MISSING-A
// RUN: not motif-equiv %s %S/Inputs/softmax.mlir --function=only_here 2>&1 | FileCheck %s --check-prefix=MISSING-B
// RUN: not motif-equiv %s %S/Inputs/softmax.mlir --function=softmax 2>&1 | FileCheck %s --check-prefix=SIGNATURE
// RUN: not motif-equiv --run %s %s 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: not motif-equiv %s %S/Inputs/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE

// MISSING-A: errors-input.mlir:{{[0-9]+}}:{{[0-9]+}}: error: no function @nope in {{.*}}errors-input.mlir
// MISSING-A-NOT: verdict

// MISSING-B: errors-input.mlir:[[@LINE+3]]:1: error: no function @only_here in {{.*}}Inputs/softmax.mlir
// MISSING-B-NOT: verdict

func.func @only_here(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}

// SIGNATURE: softmax.mlir:{{[0-9]+}}:1: error: signature of @softmax '(tensor<16x32xf32>) -> tensor<16x32xf32>' differs from '(tensor<16x16xf32>) -> tensor<16x16xf32>'
// SIGNATURE: errors-input.mlir:[[@LINE+2]]:1: note: compared against this function
// SIGNATURE-NOT: verdict
func.func @softmax(%x: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %y = motif.kernel "softmax" threads(32) -> tensor<16x16xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<16x16xf32>) -> tensor<16xf32>
    %mr = motif.materialize %m in register : tensor<16xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<16x16xf32>, tensor<16xf32>) -> tensor<16x16xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %e in global : tensor<16x16xf32>
    motif.yield %g : tensor<16x16xf32>
  }
  return %y : tensor<16x16xf32>
}

// USAGE: motif-equiv: expected 1 file with --run, got 2
// NOFILE: motif-equiv: {{.*}}does-not-exist.mlir{{.*}}
