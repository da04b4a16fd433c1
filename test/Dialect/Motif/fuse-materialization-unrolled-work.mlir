// Unrolled work (docs/residency.md, "Unrolled work"): the lowering unrolls
// the dims a motif indexes register values by, so a register residency that
// would unroll a motif past kMaxUnrolledWork instances of its body is not
// chosen: the value goes to shared memory (an edge) or stays in global
// memory (an input read twice), with a remark naming the motif and the count.
// RUN: motif-opt %s --fuse-materialization --split-input-file --mlir-print-op-on-diagnostic=false -o %t 2>%t.remarks
// RUN: FileCheck %s < %t
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// The fused forms lower (before, the first took half a minute and 10^5
// lines), and compute the written programs' bits.
// RUN: motif-opt %s --fuse-materialization --split-input-file -o /dev/null --convert-motif-to-gpu 2>/dev/null
// RUN: motif-opt %s --fuse-materialization -o %t.fused 2>/dev/null
// RUN: motif-equiv --class=bitwise --trials=2 %s %t.fused | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: PASS

// Both producers' values are read by the thread that computes them. In
// registers together, the contraction would unroll i (48) and j (12), with a
// combine across threads each: 48 * 12 * 17 = 9792. The larger moves to
// shared; the other alone unrolls 12 * 17.
// CHECK-LABEL: func.func @edges
// CHECK: motif.materialize %{{.*}} in shared {motif.producer = "rows#0"
// CHECK: motif.materialize %{{.*}} in register {motif.producer = "cols#0"
// REMARK: remark: 'rows'#0 (tensor<12x48xf32>): global -> shared (rule 5: in registers, it would make the lowering unroll 'motif.contract' of kernel 'mm' to 9792 instances of its body, over the 4096 it unrolls at most; it moved to shared (2304 B))
// REMARK: remark: 'cols'#0 (tensor<12x12xf32>): global -> register (rule 1:
func.func @edges(%a: tensor<12x48xf32>, %b: tensor<12x12xf32>) -> tensor<48x12xf32> {
  %x = motif.kernel "rows" threads(64) -> tensor<12x48xf32> {
    %m = motif.map (%a[i, j]) -> [i, j] over [thread, seq] : (tensor<12x48xf32>) -> tensor<12x48xf32> {
    ^bb0(%v: f32):
      %e = math.exp %v : f32
      motif.yield %e : f32
    }
    %g = motif.materialize %m in global : tensor<12x48xf32>
    motif.yield %g : tensor<12x48xf32>
  }
  %w = motif.kernel "cols" threads(64) -> tensor<12x12xf32> {
    %m = motif.map (%b[i, j]) -> [i, j] over [seq, thread] : (tensor<12x12xf32>) -> tensor<12x12xf32> {
    ^bb0(%v: f32):
      %e = arith.mulf %v, %v : f32
      motif.yield %e : f32
    }
    %g = motif.materialize %m in global : tensor<12x12xf32>
    motif.yield %g : tensor<12x12xf32>
  }
  %y = motif.kernel "mm" threads(64) -> tensor<48x12xf32> {
    %c = motif.contract (%x[k, i], %w[j, k]) -> [i, j] over [seq, seq, thread] : (tensor<12x48xf32>, tensor<12x12xf32>) -> tensor<48x12xf32>
    %g = motif.materialize %c in global : tensor<48x12xf32>
    motif.yield %g : tensor<48x12xf32>
  }
  return %y : tensor<48x12xf32>
}

// -----

// Two inputs each read by both contractions (rule 3): argument #0 in
// registers unrolls each reader 48 x 17; argument #1 as well would unroll
// 48 * 12 * 17. The first is loaded once, the second stays in global memory.
// CHECK-LABEL: func.func @inputs
// CHECK: motif.materialize %{{.*}} in register {motif.producer = "input argument #0"
// CHECK-NOT: "input argument #1"
// CHECK: return
// REMARK: remark: kernel 'two': argument #0 ('tensor<12x48xf32>'): global -> register (rule 3:
// REMARK: remark: kernel 'two': argument #1 ('tensor<12x12xf32>') read by 2 motifs stays in global memory (rule 3 not applied: in registers, it would make the lowering unroll 'motif.contract' to 9792 instances of its body, over the 4096 it unrolls at most)

func.func @inputs(%a: tensor<12x48xf32>, %b: tensor<12x12xf32>) -> (tensor<48x12xf32>, tensor<12x48xf32>) {
  %y:2 = motif.kernel "two" threads(64) -> tensor<48x12xf32>, tensor<12x48xf32> {
    %c = motif.contract (%a[k, i], %b[j, k]) -> [i, j] over [seq, seq, thread] : (tensor<12x48xf32>, tensor<12x12xf32>) -> tensor<48x12xf32>
    %g = motif.materialize %c in global : tensor<48x12xf32>
    %d = motif.contract (%b[i, k], %a[k, j]) -> [i, j] over [seq, seq, thread] : (tensor<12x12xf32>, tensor<12x48xf32>) -> tensor<12x48xf32>
    %h = motif.materialize %d in global : tensor<12x48xf32>
    motif.yield %g, %h : tensor<48x12xf32>, tensor<12x48xf32>
  }
  return %y#0, %y#1 : tensor<48x12xf32>, tensor<12x48xf32>
}
