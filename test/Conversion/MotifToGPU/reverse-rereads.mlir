// reverse-rereads (docs/lowering.md, "Re-reads in reverse"): an elementwise
// motif that reads a global tensor an earlier motif of the same kernel
// already read walks its loop over that tensor in reverse run order (run
// 63 - k at iteration k), so it starts on the lines loaded last, still in L2.
// @softmax is examples/softmax.mlir at a long row (4 x 65536); fused under
// the mathematical cap (rule 4) it is one kernel: the online (max, sum)
// reduction walks the row forward, the map exp2(...)/l re-reads it in
// reverse, 128-bit runs kept whole (run r covers elements 4 (256 r + tid)
// .. + 3). A tensor read once, and a reduction that re-reads, walk forward.

// RUN: motif-opt %s --fuse-materialization="equivalence-cap=mathematical tail-budget=0 row-clusters=off" \
// RUN:   --convert-motif-to-gpu --canonicalize --cse | FileCheck %s
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=mathematical tail-budget=0 row-clusters=off" \
// RUN:   --convert-motif-to-gpu=reverse-rereads=false --canonicalize --cse \
// RUN:   | FileCheck %s --check-prefix=OFF

// CHECK-LABEL: gpu.func @softmax_softmax_max_softmax_div(
// CHECK-DAG:     %[[C63:.*]] = arith.constant 63 : index
// CHECK-DAG:     %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG:     %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG:     %[[C4:.*]] = arith.constant 4 : index
// CHECK:         %[[TID:.*]] = gpu.thread_id x
// The online state's reduction: forward.
// CHECK:         scf.for %[[K:.*]] = %{{.*}} to %[[C64]] step %{{.*}} iter_args(
// CHECK-NOT:       arith.subi
// CHECK:           arith.muli %[[K]], %[[C256]] : index
// CHECK:           scf.yield
// The map re-reading x: run 63 - k.
// CHECK:         scf.for %[[K2:.*]] = %{{.*}} to %[[C64]] step %{{.*}} {
// CHECK-NEXT:      %[[R:.*]] = arith.subi %[[C63]], %[[K2]] : index
// CHECK-NEXT:      %[[A:.*]] = arith.muli %[[R]], %[[C256]] : index
// CHECK-NEXT:      %[[B:.*]] = arith.addi %[[A]], %[[TID]] : index
// CHECK-NEXT:      %[[I:.*]] = arith.muli %[[B]], %[[C4]] : index
// CHECK-NEXT:      memref.load %{{.*}}[%{{.*}}, %[[I]]] : memref<4x65536xf32>
// exp(x - max) recomputed from x and the state's max, subnormals flushed (motif.ftz):
// CHECK:           llvm.call_intrinsic "llvm.nvvm.ex2.approx.ftz.f"
// CHECK:           memref.store %{{.*}}, %{{.*}}[%{{.*}}, %[[I]]] : memref<4x65536xf32>
// CHECK:         gpu.return

// Off: both loops walk forward.
// OFF-LABEL: gpu.func @softmax_softmax_max_softmax_div(
// OFF:         scf.for
// OFF-NOT:     arith.subi
// OFF:         scf.for
// OFF-NOT:     arith.subi
// OFF:         gpu.return

func.func @softmax(%x: tensor<4x65536xf32>) -> tensor<4x65536xf32> {
  %max = motif.kernel "softmax_max" threads(256) -> tensor<4xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<4x65536xf32>) -> tensor<4xf32>
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %exp = motif.kernel "softmax_exp" threads(256) -> tensor<4x65536xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<4x65536xf32>, tensor<4xf32>) -> tensor<4x65536xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<4x65536xf32>
    motif.yield %g : tensor<4x65536xf32>
  }
  %sum = motif.kernel "softmax_sum" threads(256) -> tensor<4xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<4x65536xf32>) -> tensor<4xf32>
    %g = motif.materialize %s in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %y = motif.kernel "softmax_div" threads(256) -> tensor<4x65536xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<4x65536xf32>, tensor<4xf32>) -> tensor<4x65536xf32> {
    ^bb0(%e: f32, %s: f32):
      %r = arith.divf %e, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<4x65536xf32>
    motif.yield %g : tensor<4x65536xf32>
  }
  return %y : tensor<4x65536xf32>
}

// Read once: forward.
// CHECK-LABEL: gpu.func @scale_scale(
// CHECK-NOT:     arith.subi
// CHECK:         scf.for
// CHECK-NOT:     arith.subi
// CHECK:         gpu.return
func.func @scale(%x: tensor<4x65536xf32>) -> tensor<4x65536xf32> {
  %y = motif.kernel "scale" threads(256) -> tensor<4x65536xf32> {
    %s = motif.map (%x[i, j]) -> [i, j] over [block, thread]
           : (tensor<4x65536xf32>) -> tensor<4x65536xf32> {
    ^bb0(%a: f32):
      %c = arith.constant 2.0 : f32
      %r = arith.mulf %a, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %s in global : tensor<4x65536xf32>
    motif.yield %g : tensor<4x65536xf32>
  }
  return %y : tensor<4x65536xf32>
}

// A reduction re-reading x keeps its fold order: forward.
// CHECK-LABEL: gpu.func @max_and_sum_max_and_sum(
// CHECK-NOT:     arith.subi
// CHECK:         scf.for
// CHECK-NOT:     arith.subi
// CHECK:         scf.for
// CHECK-NOT:     arith.subi
// CHECK:         gpu.return
func.func @max_and_sum(%x: tensor<4x65536xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a, %b = motif.kernel "max_and_sum" threads(256) -> tensor<4xf32>, tensor<4xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<4x65536xf32>) -> tensor<4xf32>
    %gm = motif.materialize %m in global : tensor<4xf32>
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<4x65536xf32>) -> tensor<4xf32>
    %gs = motif.materialize %s in global : tensor<4xf32>
    motif.yield %gm, %gs : tensor<4xf32>, tensor<4xf32>
  }
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
