// RUN: motif-opt %s --convert-motif-to-gpu | FileCheck %s
// A thread's several result instances of a reduction (rows a block: the grid
// dim as `block x seq(R)`) exchange their partials across warps behind one
// barrier (docs/lowering.md, "Batched exchanges"; batchedExchangesOf): every
// instance's butterfly step before the next step, lane 0 of each warp stores
// every instance's partial (a scratch buffer an instance), one barrier, then
// each instance folds its warps in warp order -- each row's tree unchanged.
// Before, each instance had its own exchange and barrier: four here.

// CHECK-LABEL: gpu.func @four_rows_k(
// CHECK-SAME: workgroup(%[[S0:.*]] : memref<2xf32, #gpu.address_space<workgroup>> {{.*}}, %[[S1:.*]] : memref<2xf32, #gpu.address_space<workgroup>> {{.*}}, %[[S2:.*]] : memref<2xf32, #gpu.address_space<workgroup>> {{.*}}, %[[S3:.*]] : memref<2xf32, #gpu.address_space<workgroup>> {{.*}})
// CHECK-NOT: gpu.barrier
// CHECK-COUNT-4: gpu.shuffle  xor %{{.*}}, %c16_i32
// CHECK-COUNT-4: gpu.shuffle  xor %{{.*}}, %c8_i32
// CHECK-COUNT-4: gpu.shuffle  xor %{{.*}}, %c4_i32
// CHECK-COUNT-4: gpu.shuffle  xor %{{.*}}, %c2_i32
// CHECK-COUNT-4: gpu.shuffle  xor %{{.*}}, %c1_i32
// CHECK-NOT: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: memref.store %{{.*}}, %[[S0]]
// CHECK-NEXT: memref.store %{{.*}}, %[[S1]]
// CHECK-NEXT: memref.store %{{.*}}, %[[S2]]
// CHECK-NEXT: memref.store %{{.*}}, %[[S3]]
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: memref.load %[[S0]]
// CHECK: memref.load %[[S0]]
// CHECK: memref.load %[[S3]]
// CHECK: memref.load %[[S3]]
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @four_rows(%x: tensor<16x256xf32>) -> tensor<16xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<16xf32> {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block x seq(4), thread] : (tensor<16x256xf32>) -> tensor<16xf32>
    %g = motif.materialize %s in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  return %y : tensor<16xf32>
}

// A general combiner (the online-softmax state: two values, the butterfly in
// lane order): two buffers an instance, one barrier for both rows.
// CHECK-LABEL: gpu.func @state_two_rows_k(
// CHECK-SAME: workgroup(%{{[^ ]*}} : memref<4xf32, {{[^)]*}}, %{{[^ ]*}} : memref<4xf32, {{[^)]*}}, %{{[^ ]*}} : memref<4xf32, {{[^)]*}}, %{{[^ ]*}} : memref<4xf32, {{[^)]*}}) kernel
// CHECK-NOT: gpu.barrier
// CHECK: scf.if
// CHECK-COUNT-4: memref.store
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @state_two_rows(%x: tensor<8x512xf32>, %w: tensor<8x512xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %m, %l = motif.kernel "k" threads(128) -> tensor<8xf32>, tensor<8xf32> {
    %r:2 = motif.reduce (%x[i, j], %w[i, j]) -> [i] init [0xFF800000 : f32, 0.0 : f32] over [block x seq(2), thread] : (tensor<8x512xf32>, tensor<8x512xf32>) -> (tensor<8xf32>, tensor<8xf32>) combiner {
    ^bb0(%ma: f32, %la: f32, %mb: f32, %lb: f32):
      %mx = arith.maximumf %ma, %mb : f32
      %da = arith.subf %ma, %mx : f32
      %db = arith.subf %mb, %mx : f32
      %ea = math.exp %da : f32
      %eb = math.exp %db : f32
      %sa = arith.mulf %la, %ea : f32
      %s = math.fma %lb, %eb, %sa : f32
      motif.yield %mx, %s : f32, f32
    }
    %g0 = motif.materialize %r#0 in global : tensor<8xf32>
    %g1 = motif.materialize %r#1 in global : tensor<8xf32>
    motif.yield %g0, %g1 : tensor<8xf32>, tensor<8xf32>
  }
  return %m, %l : tensor<8xf32>, tensor<8xf32>
}

// More than kMaxBatchedExchanges (8) instances: two scratch sets used in
// turn, a barrier an instance.
// CHECK-LABEL: gpu.func @sixteen_rows_k(
// CHECK-SAME: workgroup(%{{.*}} : memref<2xf32, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<2xf32, #gpu.address_space<workgroup>> {{.*}}) kernel
// CHECK-COUNT-16: gpu.barrier
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @sixteen_rows(%x: tensor<32x256xf32>) -> tensor<32xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<32xf32> {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block x seq(16), thread] : (tensor<32x256xf32>) -> tensor<32xf32>
    %g = motif.materialize %s in global : tensor<32xf32>
    motif.yield %g : tensor<32xf32>
  }
  return %y : tensor<32xf32>
}
