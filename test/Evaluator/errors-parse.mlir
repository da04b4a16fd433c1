// An unparsable program is bad input (exit 2), reported with its location.
// RUN: not motif-equiv %s %s 2>&1 | FileCheck %s
// CHECK: errors-parse.mlir:[[@LINE+4]]:{{[0-9]+}}: error: custom op 'motif.materialize' unknown residency 'texture' (expected global, shared or register)
// CHECK-NOT: verdict
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4xf32> {
    %g = motif.materialize %x in texture : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}
