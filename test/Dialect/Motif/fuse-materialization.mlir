// RUN: motif-opt %s --fuse-materialization --split-input-file --verify-diagnostics --mlir-print-op-on-diagnostic=false | FileCheck %s

// Softmax: the row max and the row sum are all-reduced over the block, so
// every thread that consumes them owns them: registers. exp(x - max) is read
// by the thread that computed it: register. One kernel remains.
// CHECK-LABEL: func.func @softmax_small
// CHECK-SAME: motif.equivalence = #motif<equivalence bitwise>
// CHECK: motif.kernel "max_to_div" threads(32)
// CHECK: %[[XL:.*]] = motif.map (%{{.*}}[i, j]) -> [i, j] over [block, thread]
// CHECK: %[[XR:.*]] = motif.materialize %[[XL]] in register
// CHECK: motif.reduce <max> (%[[XR]][i, j])
// CHECK-NEXT: motif.materialize %{{.*}} in register
// CHECK: math.exp
// CHECK: motif.materialize %{{.*}} in register
// CHECK: motif.reduce <add>
// CHECK-NEXT: motif.materialize %{{.*}} in register
// CHECK: arith.divf
// CHECK: motif.materialize %{{.*}} in global
// CHECK-NOT: motif.kernel
// CHECK-NOT: in shared
func.func @softmax_small(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %max = motif.kernel "max" threads(32) -> tensor<8xf32> {
    // Under the default cap (bitwise) rule 4 declines, and says so.
    // expected-remark @+1 {{rule 4 (online softmax) not applied: the equivalence cap is 'bitwise'; merging the max with the sum of exp(x - max) (kernel 'sum') rescales partial sums (class mathematical)}}
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32>
    // expected-remark @+1 {{'max'#0 (tensor<8xf32>): global -> register (rule 1: not observable, same thread; consumer 'exp' (motif.map): every reader owns the element (the all-reduce over 'thread' leaves it in each thread))}}
    %g = motif.materialize %m in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %exp = motif.kernel "exp" threads(32) -> tensor<8x64xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread] : (tensor<8x64xf32>, tensor<8xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    // expected-remark @+1 {{'exp'#0 (tensor<8x64xf32>): global -> register (rule 1: not observable, same thread; 2 consumer kernels ('sum', 'div'); first with this scope: consumer 'sum' (motif.reduce): each element is read by the thread that computes it)}}
    %g = motif.materialize %e in global : tensor<8x64xf32>
    motif.yield %g : tensor<8x64xf32>
  }
  %sum = motif.kernel "sum" threads(32) -> tensor<8xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32>
    // expected-remark @+1 {{'sum'#0 (tensor<8xf32>): global -> register}}
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  // Rule 3: once merged, the kernel reads %x in two motifs (max, exp), in
  // the same threads: it is loaded once into registers (2 per thread).
  // expected-remark @+1 {{kernel 'max_to_div': argument #0 ('tensor<8x64xf32>'): global -> register (rule 3: argument #0 is read by 2 motifs of the kernel; loaded once, 2 register(s) per thread)}}
  %y = motif.kernel "div" threads(32) -> tensor<8x64xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread] : (tensor<8x64xf32>, tensor<8xf32>) -> tensor<8x64xf32> {
    ^bb0(%e: f32, %s: f32):
      %r = arith.divf %e, %s : f32
      motif.yield %r : f32
    }
    // expected-remark @+1 {{'div'#0 (tensor<8x64xf32>): stays global (rule 1: externally observable (returned by the function))}}
    %g = motif.materialize %p in global : tensor<8x64xf32>
    motif.yield %g : tensor<8x64xf32>
  }
  return %y : tensor<8x64xf32>
}

// -----

// Seed 000's shared form: score j is computed by lane 0 of warp j, and the
// softmax runs on thread 0 -- other threads of the block read the scores, so
// they go to shared memory (STS, BAR.SYNC, LDS after lowering).
// CHECK-LABEL: func.func @scores_by_warps
// CHECK: motif.kernel "scores_softmax" threads(128)
// CHECK: motif.contract {{.*}} over [warp, seq]
// CHECK-NEXT: motif.materialize %{{.*}} in shared
// CHECK: motif.reduce <max> {{.*}} over [seq]
func.func @scores_by_warps(%q: tensor<4xf32>, %k: tensor<4x4xf32>) -> tensor<f32> {
  %s = motif.kernel "scores" threads(128) -> tensor<4xf32> {
    %d = motif.contract (%q[c], %k[j, c]) -> [j] over [warp, seq] : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    // expected-remark @+1 {{'scores'#0 (tensor<4xf32>): global -> shared (rule 1: not observable, other threads of the block read it (block barrier); consumer 'softmax' (motif.reduce): dim 0 is computed at 'warp' but read at 'seq')}}
    %g = motif.materialize %d in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %m = motif.kernel "softmax" threads(128) -> tensor<f32> {
    %r = motif.reduce <max> (%s[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %r in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %m : tensor<f32>
}

// -----

// The same scores computed by one thread and consumed by it: register.
// CHECK-LABEL: func.func @scores_by_one_thread
// CHECK: motif.contract {{.*}} over [seq, seq]
// CHECK-NEXT: motif.materialize %{{.*}} in register
func.func @scores_by_one_thread(%q: tensor<4xf32>, %k: tensor<4x4xf32>) -> tensor<f32> {
  %s = motif.kernel "scores" threads(1) -> tensor<4xf32> {
    %d = motif.contract (%q[c], %k[j, c]) -> [j] over [seq, seq] : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    // expected-remark @+1 {{global -> register (rule 1: not observable, same thread; consumer 'softmax' (motif.reduce): each element is read by the thread that computes it)}}
    %g = motif.materialize %d in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %m = motif.kernel "softmax" threads(1) -> tensor<f32> {
    %r = motif.reduce <max> (%s[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %r in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %m : tensor<f32>
}

// -----

// An observable intermediate stays in global memory even though its only
// consumer is the same thread.
// CHECK-LABEL: func.func @negative_observable
// CHECK: motif.kernel "add"
// CHECK: motif.materialize %{{.*}} in global observable
// CHECK: motif.kernel "relu"
func.func @negative_observable(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %t = motif.kernel "add" threads(64) -> tensor<8x64xf32> {
    %s = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32):
      %r = arith.addf %a, %a : f32
      motif.yield %r : f32
    }
    // expected-remark @+1 {{'add'#0 (tensor<8x64xf32>): stays global (rule 1: externally observable (marked 'observable'))}}
    %g = motif.materialize %s in global observable : tensor<8x64xf32>
    motif.yield %g : tensor<8x64xf32>
  }
  %y = motif.kernel "relu" threads(64) -> tensor<8x64xf32> {
    %r = motif.map (%t[i, j]) -> [i, j] over [block, thread] : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32):
      %z = arith.constant 0.0 : f32
      %m = arith.maximumf %a, %z : f32
      motif.yield %m : f32
    }
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %r in global : tensor<8x64xf32>
    motif.yield %g : tensor<8x64xf32>
  }
  return %y : tensor<8x64xf32>
}

// -----

// A value the function returns and also consumes stays global.
// CHECK-LABEL: func.func @negative_returned_and_consumed
// CHECK-COUNT-2: motif.kernel
func.func @negative_returned_and_consumed(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %t = motif.kernel "double" threads(64) -> tensor<64xf32> {
    %s = motif.map (%x[i]) -> [i] over [thread] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32):
      %r = arith.addf %a, %a : f32
      motif.yield %r : f32
    }
    // expected-remark @+1 {{'double'#0 (tensor<64xf32>): stays global (rule 1: externally observable (returned by the function))}}
    %g = motif.materialize %s in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %y = motif.kernel "square" threads(64) -> tensor<64xf32> {
    %r = motif.map (%t[i]) -> [i] over [thread] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32):
      %m = arith.mulf %a, %a : f32
      motif.yield %m : f32
    }
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %r in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %t, %y : tensor<64xf32>, tensor<64xf32>
}

// -----

// Row sums are produced one row per block, but the consumer spreads columns
// over blocks and needs every row: other blocks read each sum -> global.
// CHECK-LABEL: func.func @negative_cross_block
// CHECK-COUNT-2: motif.kernel
func.func @negative_cross_block(%x: tensor<8x64xf32>) -> tensor<64x8xf32> {
  %s = motif.kernel "rowsum" threads(64) -> tensor<8xf32> {
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32>
    // expected-remark @+1 {{'rowsum'#0 (tensor<8xf32>): stays global (rule 1: consumer 'scale_cols' (motif.map) runs in other blocks: the producer runs on grid [8] but the consumer on [64])}}
    %g = motif.materialize %r in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %y = motif.kernel "scale_cols" threads(8) -> tensor<64x8xf32> {
    %m = motif.map (%s[i]) -> [j, i] over [block, thread] : (tensor<8xf32>) -> tensor<64x8xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %m in global : tensor<64x8xf32>
    motif.yield %g : tensor<64x8xf32>
  }
  return %y : tensor<64x8xf32>
}

// -----

// A reduction over blocks' worth of rows: the consumer reads the whole
// vector in every block.
// CHECK-LABEL: func.func @negative_every_block_reads_all
// CHECK-COUNT-2: motif.kernel
func.func @negative_every_block_reads_all(%x: tensor<8x64xf32>) -> tensor<8x8xf32> {
  %s = motif.kernel "rowsum" threads(64) -> tensor<8xf32> {
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32>
    // expected-remark @+1 {{stays global (rule 1: consumer 'outer' (motif.map) runs in other blocks: every block of the consumer's block dim #0 reads the whole value)}}
    %g = motif.materialize %r in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %y = motif.kernel "outer" threads(8) -> tensor<8x8xf32> {
    %m = motif.map (%s[j]) -> [i, j] over [block, thread] : (tensor<8xf32>) -> tensor<8x8xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %m in global : tensor<8x8xf32>
    motif.yield %g : tensor<8x8xf32>
  }
  return %y : tensor<8x8xf32>
}

// -----

// 'b' must stay global (observable); kernel 'use_both' reads it, so it cannot
// join 'both' even though 'a' alone could move to a register.
// CHECK-LABEL: func.func @negative_group_not_closed
// CHECK-COUNT-2: motif.kernel
// CHECK-NOT: in register
func.func @negative_group_not_closed(%x: tensor<64xf32>) -> tensor<64xf32> {
  %a, %b = motif.kernel "both" threads(64) -> tensor<64xf32>, tensor<64xf32> {
    %s = motif.map (%x[i]) -> [i] over [thread] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%v: f32):
      %r = arith.addf %v, %v : f32
      motif.yield %r : f32
    }
    // expected-remark @+1 {{'both'#0 (tensor<64xf32>): stays global (kept: kernel 'use_both' also reads 'both'#1 (tensor<64xf32>), which stays in global memory (rule 1: externally observable (marked 'observable')), so it cannot be merged with 'both', which writes it)}}
    %ga = motif.materialize %s in global : tensor<64xf32>
    // expected-remark @+1 {{'both'#1 (tensor<64xf32>): stays global (rule 1: externally observable (marked 'observable'))}}
    %gb = motif.materialize %s in global observable : tensor<64xf32>
    motif.yield %ga, %gb : tensor<64xf32>, tensor<64xf32>
  }
  %y = motif.kernel "use_both" threads(64) -> tensor<64xf32> {
    %r = motif.map (%a[i], %b[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%u: f32, %v: f32):
      %m = arith.mulf %u, %v : f32
      motif.yield %m : f32
    }
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %r in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}
