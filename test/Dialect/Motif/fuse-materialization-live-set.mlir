// Rule 5 over the merged kernel's register live set, not one value at a
// time: a value is live from the motif that computes it to its last reader
// (an input loaded once by rule 3: from the kernel's start); a map that reads
// a value slot for slot frees each register as it writes its own, so there
// the two count as the larger. The peak must fit what a thread has for
// values at the merged block size: min(255, 65536 / threads) less 24 for
// addresses and indices (40 at threads(1024), 231 at threads(256)).
// Softmax 16x65536 on threads(1024) kept x and exp(x - max) each at the
// 64-register per-value budget, fused into one kernel, and ptxas spilled
// 576 B / 880 B (test/Pipeline/live-set-spills.test).
// RUN: motif-opt %s --split-input-file --fuse-materialization=tail-budget=0 --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: motif-opt %s --split-input-file --fuse-materialization=tail-budget=0 -o - 2>/dev/null | FileCheck %s
// RUN: motif-opt %S/../../Driver/Inputs/three_live.mlir --fuse-materialization="shared-budget=65536" --mlir-print-op-on-diagnostic=false -o - 2>&1 | FileCheck %s --check-prefix=SHARED

// A chain of maps, each read slot for slot by the next: one 32-register value
// live at a time (plus nothing else): all three fuse in registers.
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

// 'd' reads a, b and c slot for slot at threads(1024): 48 registers live at
// once, over 40. The largest live there ('a', the first of three equal ones)
// needs a 64 KiB shared row, over the 48 KiB shared budget: it stays global;
// b and c stay in registers, and rule 3 does not load 'a' once either.
// REMARK: remark: 'a'#0 (tensor<64x16384xf32>): stays global (rule 5: the merged kernel would keep 48 registers per thread live at once ('a'#0 (tensor<64x16384xf32>): 16, 'b'#0 (tensor<64x16384xf32>): 16, 'c'#0 (tensor<64x16384xf32>): 16), over the 40 a thread of threads(1024) has for values on sm_90 (24 kept for addresses and indices); the largest of them needs 65536 shared bytes, over the budget (49152 B), so it stays global)
// REMARK: remark: 'b'#0 (tensor<64x16384xf32>): global -> register (rule 1
// REMARK: remark: 'c'#0 (tensor<64x16384xf32>): global -> register (rule 1
// REMARK: remark: kernel 'b_to_d': 'a'#0 ('tensor<64x16384xf32>') read by 2 motifs stays in global memory (rule 3 not applied: the kernel would keep 48 registers per thread live at once ('b#0' (tensor<64x16384xf32>): 16, 'c#0' (tensor<64x16384xf32>): 16, this input: 16), over the 40 a thread of threads(1024) has for values (24 kept for addresses and indices))
// CHECK-LABEL: func.func @negative_three_live
// CHECK: motif.kernel "a"
// CHECK: motif.kernel "b_to_d"
// CHECK-NOT: motif.kernel
// CHECK: return
// With a 64 KiB shared budget 'a' moves to shared instead: one kernel.
// SHARED: remark: 'a'#0 (tensor<64x16384xf32>): global -> shared (rule 5: the merged kernel would keep 48 registers per thread live at once ({{.*}}), over the 40 a thread of threads(1024) has for values on sm_90 (24 kept for addresses and indices); the largest of them moved to shared (65536 B))
// SHARED: motif.kernel "a_to_d"
// SHARED: motif.materialize {{.*}} in shared {motif.producer = "a#0"
// SHARED: motif.materialize {{.*}} in register {motif.producer = "b#0"
// SHARED: motif.materialize {{.*}} in register {motif.producer = "c#0"
// SHARED-NOT: motif.kernel
func.func @negative_three_live(%x: tensor<64x16384xf32>) -> tensor<64x16384xf32> {
  %a = motif.kernel "a" threads(1024) -> tensor<64x16384xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x16384xf32>) -> tensor<64x16384xf32> {
    ^bb0(%v: f32):
      %r = math.exp %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x16384xf32>
    motif.yield %g : tensor<64x16384xf32>
  }
  %b = motif.kernel "b" threads(1024) -> tensor<64x16384xf32> {
    %m = motif.map (%a[i, j]) -> [i, j] over [block, thread] : (tensor<64x16384xf32>) -> tensor<64x16384xf32> {
    ^bb0(%v: f32):
      %r = math.sin %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x16384xf32>
    motif.yield %g : tensor<64x16384xf32>
  }
  %c = motif.kernel "c" threads(1024) -> tensor<64x16384xf32> {
    %m = motif.map (%b[i, j]) -> [i, j] over [block, thread] : (tensor<64x16384xf32>) -> tensor<64x16384xf32> {
    ^bb0(%v: f32):
      %r = math.cos %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x16384xf32>
    motif.yield %g : tensor<64x16384xf32>
  }
  %d = motif.kernel "d" threads(1024) -> tensor<64x16384xf32> {
    %m = motif.map (%c[i, j], %a[i, j], %b[i, j]) -> [i, j] over [block, thread] : (tensor<64x16384xf32>, tensor<64x16384xf32>, tensor<64x16384xf32>) -> tensor<64x16384xf32> {
    ^bb0(%v: f32, %w: f32, %u: f32):
      %t = math.tanh %v : f32
      %q = arith.addf %t, %w : f32
      %r = arith.addf %q, %u : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x16384xf32>
    motif.yield %g : tensor<64x16384xf32>
  }
  return %d : tensor<64x16384xf32>
}

// -----

// Softmax 16x65536, threads(1024): exp(x - max) alone is 64 registers per
// thread, over the 40 a thread of the block has for values, and 256 KiB of
// shared is over that budget: it stays global. Rule 3 does not load x (or
// the exponentials) once either. Two kernels, no spill.
// REMARK: remark: 'softmax_max'#0 (tensor<16xf32>): global -> register
// REMARK: remark: 'softmax_exp'#0 (tensor<16x65536xf32>): stays global (rule 5: the merged kernel would keep 65 registers per thread live at once ('softmax_exp'#0 (tensor<16x65536xf32>): 64, 'softmax_max'#0 (tensor<16xf32>): 1), over the 40 a thread of threads(1024) has for values on sm_90 (24 kept for addresses and indices); the largest of them needs 262144 shared bytes, over the budget (49152 B), so it stays global)
// REMARK: remark: 'softmax_sum'#0 (tensor<16xf32>): global -> register
// REMARK: remark: kernel 'softmax_max_softmax_exp': argument #0 ('tensor<16x65536xf32>') read by 2 motifs stays in global memory (rule 3 not applied: the kernel would keep 65 registers per thread live at once (this input: 64, 'softmax_max#0' (tensor<16xf32>): 1), over the 40 a thread of threads(1024) has for values (24 kept for addresses and indices))
// REMARK: remark: kernel 'softmax_sum_softmax_div': 'softmax_max_softmax_exp'#0 ('tensor<16x65536xf32>') read by 2 motifs stays in global memory (rule 3 not applied: the kernel would keep 65 registers per thread live at once (this input: 64, 'softmax_sum#0' (tensor<16xf32>): 1), over the 40 a thread of threads(1024) has for values (24 kept for addresses and indices))
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

// -----

// Softmax 4096x16384 on threads(256) (a benchmark shape): x loaded once (64
// registers) dies into exp(x - max) (64) slot for slot; with the two row
// statistics the peak is 65 of 231. One kernel, as before the live set was
// counted (ptxas: 83 registers, no spill).
// REMARK: remark: kernel 'softmax_max_to_softmax_div': argument #0 ('tensor<4096x16384xf32>'): global -> register (rule 3
// CHECK-LABEL: func.func @softmax_long_rows
// CHECK-COUNT-1: motif.kernel "softmax_max_to_softmax_div"
// CHECK-NOT: motif.kernel
// CHECK: return
func.func @softmax_long_rows(%x: tensor<4096x16384xf32>) -> tensor<4096x16384xf32> {
  %max = motif.kernel "softmax_max" threads(256) -> tensor<4096xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<4096x16384xf32>) -> tensor<4096xf32>
    %g = motif.materialize %m in global : tensor<4096xf32>
    motif.yield %g : tensor<4096xf32>
  }
  %exp = motif.kernel "softmax_exp" threads(256) -> tensor<4096x16384xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<4096x16384xf32>, tensor<4096xf32>) -> tensor<4096x16384xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<4096x16384xf32>
    motif.yield %g : tensor<4096x16384xf32>
  }
  %sum = motif.kernel "softmax_sum" threads(256) -> tensor<4096xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<4096x16384xf32>) -> tensor<4096xf32>
    %g = motif.materialize %s in global : tensor<4096xf32>
    motif.yield %g : tensor<4096xf32>
  }
  %y = motif.kernel "softmax_div" threads(256) -> tensor<4096x16384xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<4096x16384xf32>, tensor<4096xf32>) -> tensor<4096x16384xf32> {
    ^bb0(%e: f32, %s: f32):
      %r = arith.divf %e, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<4096x16384xf32>
    motif.yield %g : tensor<4096x16384xf32>
  }
  return %y : tensor<4096x16384xf32>
}
