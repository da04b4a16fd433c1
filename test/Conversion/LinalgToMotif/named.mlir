// RUN: motif-opt %s --convert-linalg-to-motif -split-input-file | FileCheck %s

// linalg.matmul with a zero fill: a motif.contract summing over k (the fill
// folded), rows on blocks, columns on threads, k sequential.
func.func @matmul(%a: tensor<128x64xf32>, %b: tensor<64x256xf32>) -> tensor<128x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<128x256xf32>) -> tensor<128x256xf32>
  %c = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x256xf32>) outs(%z : tensor<128x256xf32>) -> tensor<128x256xf32>
  return %c : tensor<128x256xf32>
}
// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<128x64xf32>, %[[B:.*]]: tensor<64x256xf32>)
// CHECK: %[[K:.*]] = motif.kernel "matmul_0" threads(256) -> tensor<128x256xf32>
// CHECK-NEXT: motif.contract (%[[A]][i, k], %[[B]][k, j]) -> [i, j] over [block, thread, seq]
// CHECK-NOT: linalg.fill
// CHECK: return %[[K]]

// -----

// batch_matmul: the batch dim on blocks too.
func.func @batch_matmul(%a: tensor<4x32x16xf32>, %b: tensor<4x16x64xf32>) -> tensor<4x32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<4x32x16xf32>, tensor<4x16x64xf32>) outs(%z : tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
  return %c : tensor<4x32x64xf32>
}
// CHECK-LABEL: func.func @batch_matmul
// CHECK: motif.kernel "batch_matmul_0" threads(64) -> tensor<4x32x64xf32>
// CHECK-NEXT: motif.contract (%{{.*}}[i, j, l], %{{.*}}[i, l, k]) -> [i, j, k] over [block, block, thread, seq]

// -----

// linalg.transpose: a motif.transpose (a layout change, not a map).
func.func @transpose(%x: tensor<256x64xf32>) -> tensor<64x256xf32> {
  %e = tensor.empty() : tensor<64x256xf32>
  %t = linalg.transpose ins(%x : tensor<256x64xf32>) outs(%e : tensor<64x256xf32>) permutation = [1, 0]
  return %t : tensor<64x256xf32>
}
// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: tensor<256x64xf32>)
// CHECK: motif.kernel "transpose_0" threads(256) -> tensor<64x256xf32>
// CHECK-NEXT: motif.transpose %[[X]][j, i] -> [i, j] over [block, thread] : (tensor<256x64xf32>) -> tensor<64x256xf32>

// -----

// Elementwise named ops and a fill used as a value: a map each, the fill a
// constant map (no inputs) since it is read as a whole tensor by a matmul.
func.func @named_elementwise(%x: tensor<64x128xf32>, %y: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %e = tensor.empty() : tensor<64x128xf32>
  %s = linalg.add ins(%x, %y : tensor<64x128xf32>, tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %x2 = linalg.exp ins(%s : tensor<64x128xf32>) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %x2 : tensor<64x128xf32>
}
// CHECK-LABEL: func.func @named_elementwise
// CHECK-SAME: (%[[X:.*]]: tensor<64x128xf32>, %[[Y:.*]]: tensor<64x128xf32>)
// CHECK: %[[S:.*]] = motif.kernel "add_0" threads(128)
// CHECK-NEXT: motif.map (%[[X]][i, j], %[[Y]][i, j]) -> [i, j] over [block, thread]
// CHECK: arith.addf
// CHECK: %[[E:.*]] = motif.kernel "exp_1" threads(128)
// CHECK-NEXT: motif.map (%[[S]][i, j]) -> [i, j] over [block, thread]
// CHECK: math.exp
// CHECK: return %[[E]]

// -----

func.func @fill_value(%a: tensor<32x64xf32>) -> (tensor<32x32xf32>, tensor<32x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %e2 = tensor.empty() : tensor<32x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %c = linalg.matmul ins(%a, %ones : tensor<32x64xf32>, tensor<64x32xf32>) outs(%z : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %c, %a : tensor<32x32xf32>, tensor<32x64xf32>
}
// CHECK-LABEL: func.func @fill_value
// CHECK-SAME: (%[[A:.*]]: tensor<32x64xf32>)
// CHECK: %[[ONES:.*]] = motif.kernel "fill_0" threads(32) -> tensor<64x32xf32>
// CHECK-NEXT: motif.map () -> [i, j] over [block, thread]
// CHECK-NEXT: arith.constant 1.000000e+00 : f32
// CHECK: %[[C:.*]] = motif.kernel "matmul_1" threads(32)
// CHECK-NEXT: motif.contract (%[[A]][i, k], %[[ONES]][k, j]) -> [i, j]
// A returned argument is copied (a motif function returns kernel results).
// CHECK: %[[COPY:.*]] = motif.kernel "copy_2" threads(64) -> tensor<32x64xf32>
// CHECK-NEXT: motif.map (%[[A]][i, j]) -> [i, j]
// CHECK: return %[[C]], %[[COPY]]

// -----

// linalg.softmax: max, exp(x - max), sum, divide, as examples/softmax.mlir.
func.func @softmax(%x: tensor<128x512xf32>) -> tensor<128x512xf32> {
  %e = tensor.empty() : tensor<128x512xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<128x512xf32>) outs(%e : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %s : tensor<128x512xf32>
}
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<128x512xf32>)
// CHECK: %[[M:.*]] = motif.kernel "max_0" threads(256) -> tensor<128xf32>
// CHECK-NEXT: motif.reduce <max> (%[[X]][i, j]) -> [i] over [block, thread]
// CHECK: %[[E:.*]] = motif.kernel "exp_1" threads(256) -> tensor<128x512xf32>
// CHECK-NEXT: motif.map (%[[X]][i, j], %[[M]][i]) -> [i, j] over [block, thread]
// CHECK: arith.subf
// CHECK-NEXT: math.exp
// CHECK: %[[S:.*]] = motif.kernel "sum_2" threads(256) -> tensor<128xf32>
// CHECK-NEXT: motif.reduce <add> (%[[E]][i, j]) -> [i] over [block, thread]
// CHECK: %[[D:.*]] = motif.kernel "div_3" threads(256) -> tensor<128x512xf32>
// CHECK-NEXT: motif.map (%[[E]][i, j], %[[S]][i]) -> [i, j] over [block, thread]
// CHECK: arith.divf
// CHECK: return %[[D]]

// -----

// A function without linalg or tensor ops (a motif program) is left alone.
func.func @already_motif(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %m = motif.kernel "row_max" threads(32) -> tensor<4xf32> {
    %r = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<4x8xf32>) -> tensor<4xf32>
    %g = motif.materialize %r in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %m : tensor<4xf32>
}
// CHECK-LABEL: func.func @already_motif
// CHECK: motif.kernel "row_max" threads(32)
