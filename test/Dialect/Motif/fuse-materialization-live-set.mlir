// Rule 5 over the merged kernel's register live set, not one value at a
// time: a value is live from the motif that computes it to its last reader
// (an input loaded once by rule 3: from the kernel's start), and the sum
// live at the worst motif must fit the register budget. Softmax 16x65536 on
// threads(1024) kept x and exp(x - max) each at exactly 64 registers, fused
// into one kernel and ptxas spilled 576 B / 880 B; now each merge says which
// values would be live together and what it did instead.
// RUN: motif-opt %s --split-input-file --fuse-materialization --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: motif-opt %s --split-input-file --fuse-materialization -o - 2>/dev/null | FileCheck %s

// Two live at once at most (64 = the budget): all three fuse in registers.
// REMARK: remark: 'a'#0 (tensor<64x8192xf32>): global -> register (rule 1
// REMARK: remark: 'b'#0 (tensor<64x8192xf32>): global -> register (rule 1
// REMARK: remark: 'c'#0 (tensor<64x8192xf32>): global -> register (rule 1
// CHECK-LABEL: func.func @chain_fits
// CHECK-COUNT-1: motif.kernel "a_to_d"
// CHECK-NOT: motif.kernel
// CHECK: return
func.func @chain_fits(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
  %a = motif.kernel "a" threads(256) -> tensor<64x8192xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    ^bb0(%v: f32):
      %r = math.exp %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x8192xf32>
    motif.yield %g : tensor<64x8192xf32>
  }
  %b = motif.kernel "b" threads(256) -> tensor<64x8192xf32> {
    %m = motif.map (%a[i, j]) -> [i, j] over [block, thread] : (tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    ^bb0(%v: f32):
      %r = math.sin %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x8192xf32>
    motif.yield %g : tensor<64x8192xf32>
  }
  %c = motif.kernel "c" threads(256) -> tensor<64x8192xf32> {
    %m = motif.map (%b[i, j]) -> [i, j] over [block, thread] : (tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    ^bb0(%v: f32):
      %r = math.cos %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x8192xf32>
    motif.yield %g : tensor<64x8192xf32>
  }
  %d = motif.kernel "d" threads(256) -> tensor<64x8192xf32> {
    %m = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    ^bb0(%v: f32):
      %r = math.tanh %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x8192xf32>
    motif.yield %g : tensor<64x8192xf32>
  }
  return %d : tensor<64x8192xf32>
}

// -----

// 'd' reads 'a' too: a, b and c are live together at 'c' (96 > 64). The
// largest live there ('a', the first of three equal ones) goes to shared
// memory; the rest stay in registers.
// REMARK: remark: 'a'#0 (tensor<64x8192xf32>): global -> shared (rule 5: the merged kernel would keep 96 registers per thread live at once ('a'#0 (tensor<64x8192xf32>): 32, 'b'#0 (tensor<64x8192xf32>): 32, 'c'#0 (tensor<64x8192xf32>): 32), over the register budget (64); the largest of them moved to shared (32768 B))
// REMARK: remark: 'b'#0 (tensor<64x8192xf32>): global -> register (rule 1
// REMARK: remark: 'c'#0 (tensor<64x8192xf32>): global -> register (rule 1
// CHECK-LABEL: func.func @negative_three_live
// CHECK: motif.kernel "a_to_d"
// CHECK: motif.materialize {{.*}} in shared {motif.producer = "a#0"
// CHECK: motif.materialize {{.*}} in register {motif.producer = "b#0"
// CHECK: motif.materialize {{.*}} in register {motif.producer = "c#0"
// CHECK-NOT: motif.kernel
// CHECK: return
func.func @negative_three_live(%x: tensor<64x8192xf32>) -> tensor<64x8192xf32> {
  %a = motif.kernel "a" threads(256) -> tensor<64x8192xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    ^bb0(%v: f32):
      %r = math.exp %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x8192xf32>
    motif.yield %g : tensor<64x8192xf32>
  }
  %b = motif.kernel "b" threads(256) -> tensor<64x8192xf32> {
    %m = motif.map (%a[i, j]) -> [i, j] over [block, thread] : (tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    ^bb0(%v: f32):
      %r = math.sin %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x8192xf32>
    motif.yield %g : tensor<64x8192xf32>
  }
  %c = motif.kernel "c" threads(256) -> tensor<64x8192xf32> {
    %m = motif.map (%b[i, j]) -> [i, j] over [block, thread] : (tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    ^bb0(%v: f32):
      %r = math.cos %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x8192xf32>
    motif.yield %g : tensor<64x8192xf32>
  }
  %d = motif.kernel "d" threads(256) -> tensor<64x8192xf32> {
    %m = motif.map (%c[i, j], %a[i, j]) -> [i, j] over [block, thread] : (tensor<64x8192xf32>, tensor<64x8192xf32>) -> tensor<64x8192xf32> {
    ^bb0(%v: f32, %w: f32):
      %t = math.tanh %v : f32
      %r = arith.addf %t, %w : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x8192xf32>
    motif.yield %g : tensor<64x8192xf32>
  }
  return %d : tensor<64x8192xf32>
}

// -----

// Softmax 16x65536, threads(1024): exp(x - max) alone is 64 registers per
// thread and the row max 1 more; over the budget, and 256 KiB of shared is
// over that budget too, so it stays global. Rule 3 does not load x (or the
// exponentials) once either: 64 + 1 registers live.
// REMARK: remark: 'softmax_max'#0 (tensor<16xf32>): global -> register
// REMARK: remark: 'softmax_exp'#0 (tensor<16x65536xf32>): stays global (rule 5: the merged kernel would keep 65 registers per thread live at once ('softmax_exp'#0 (tensor<16x65536xf32>): 64, 'softmax_max'#0 (tensor<16xf32>): 1), over the register budget (64); the largest of them needs 262144 shared bytes, over the budget (49152 B), so it stays global)
// REMARK: remark: 'softmax_sum'#0 (tensor<16xf32>): global -> register
// REMARK: remark: kernel 'softmax_max_softmax_exp': argument #0 ('tensor<16x65536xf32>') read by 2 motifs stays in global memory (rule 3 not applied: the kernel would keep 65 registers per thread live at once (this input: 64, 'softmax_max#0' (tensor<16xf32>): 1), over the register budget (64))
// REMARK: remark: kernel 'softmax_sum_softmax_div': 'softmax_max_softmax_exp'#0 ('tensor<16x65536xf32>') read by 2 motifs stays in global memory (rule 3 not applied: the kernel would keep 65 registers per thread live at once (this input: 64, 'softmax_sum#0' (tensor<16xf32>): 1), over the register budget (64))
// CHECK-LABEL: func.func @negative_softmax_two_at_budget
// CHECK: motif.kernel "softmax_max_softmax_exp"
// CHECK-NOT: in register {motif.producer = "input
// CHECK: motif.kernel "softmax_sum_softmax_div"
// CHECK-NOT: in register {motif.producer = "input
// CHECK: return
func.func @negative_softmax_two_at_budget(%x: tensor<16x65536xf32>) -> tensor<16x65536xf32> {
  %max = motif.kernel "softmax_max" threads(1024) -> tensor<16xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<16x65536xf32>) -> tensor<16xf32>
    %g = motif.materialize %m in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  %exp = motif.kernel "softmax_exp" threads(1024) -> tensor<16x65536xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<16x65536xf32>, tensor<16xf32>) -> tensor<16x65536xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<16x65536xf32>
    motif.yield %g : tensor<16x65536xf32>
  }
  %sum = motif.kernel "softmax_sum" threads(1024) -> tensor<16xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<16x65536xf32>) -> tensor<16xf32>
    %g = motif.materialize %s in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  %y = motif.kernel "softmax_div" threads(1024) -> tensor<16x65536xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<16x65536xf32>, tensor<16xf32>) -> tensor<16x65536xf32> {
    ^bb0(%e: f32, %s: f32):
      %r = arith.divf %e, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<16x65536xf32>
    motif.yield %g : tensor<16x65536xf32>
  }
  return %y : tensor<16x65536xf32>
}
