// RUN: motif-opt %s --pass-pipeline='builtin.module(convert-motif-to-gpu,gpu.module(canonicalize,cse))' | FileCheck %s
// Partial last tiles on tensor cores (docs/dialect.md, "Partial last tiles"):
// C = A.B at 40 x 40 in 16 x 16 block tiles, 3 x 3 blocks, the last block
// of rows and of columns partial. The cp.async of A clamps its source row to
// 39 (the last row), that of B its 16-byte chunk to column 32 (the last
// chunk), so every copy stays inside the tensors; each accumulator's store
// checks its row and column against 40. Executed by scripts/emulate-mma.py in
// tensor-core-tiles-emulated.test.

// CHECK: gpu.launch_func @motif_kernels::@partial_mm blocks in (%c9,
// CHECK-LABEL: gpu.func @partial_mm
// CHECK-DAG: %[[LASTROW:.*]] = arith.constant 39 : index
// CHECK-DAG: %[[EXTENT:.*]] = arith.constant 40 : index
// CHECK-DAG: %[[LASTCHUNK:.*]] = arith.constant 32 : index
// CHECK: %[[ROWIN:.*]] = arith.cmpi ult, %{{.*}}, %[[EXTENT]] : index
// CHECK: arith.remui %thread_id_x, %c4 : index
// CHECK: %[[COLIN:.*]] = arith.cmpi ult, %{{.*}}, %[[EXTENT]] : index
// CHECK-NEXT: %[[BOTH:.*]] = arith.andi %[[ROWIN]], %[[COLIN]] : i1
// CHECK: %[[ROW:.*]] = arith.minui %{{.*}}, %[[LASTROW]] : index
// CHECK-NEXT: nvgpu.device_async_copy %{{.*}}[%[[ROW]], %{{.*}}], {{.*}} : memref<40x80xbf16> to memref<3x16x16xbf16
// CHECK: %[[CHUNK:.*]] = arith.minui %{{.*}}, %[[LASTCHUNK]] : index
// CHECK-NEXT: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %[[CHUNK]]], {{.*}} : memref<80x40xbf16> to memref<3x16x16xbf16
// CHECK: nvvm.mma.sync
// CHECK: scf.if %[[BOTH]] {
// CHECK-NEXT: memref.store %{{.*}} : memref<40x40xf32>
// CHECK-NOT: memref.store
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}} : memref<40x40xf32>
func.func @partial(%a: tensor<40x80xbf16>, %b: tensor<80x40xbf16>) -> tensor<40x40xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<40x40xf32> {
    %as = motif.materialize %a in shared : tensor<40x80xbf16>
    %bs = motif.materialize %b in shared : tensor<80x40xbf16>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x seq(2) x thread(8), block x seq(2) x thread(4) x seq(2), seq x seq(16)] mma m16n8k16
           : (tensor<40x80xbf16>, tensor<80x40xbf16>) -> tensor<40x40xf32>
    %g = motif.materialize %p in global : tensor<40x40xf32>
    motif.yield %g : tensor<40x40xf32>
  }
  return %c : tensor<40x40xf32>
}
