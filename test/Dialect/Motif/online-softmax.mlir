// RUN: motif-opt %s --motif-online-softmax --split-input-file --verify-diagnostics --mlir-print-op-on-diagnostic=false | FileCheck %s
// RUN: motif-opt %s --motif-online-softmax="equivalence-cap=tolerance" --split-input-file --mlir-print-op-on-diagnostic=false -o %t 2>&1 | FileCheck %s --check-prefix=CAP
// RUN: FileCheck %s --check-prefix=CAPIR < %t
// RUN: not motif-opt %s --motif-online-softmax="equivalence-cap=approximate" 2>&1 | FileCheck %s --check-prefix=BADCAP
// RUN: motif-opt %S/../../Pipeline/Inputs/softmax_long_rows.mlir --fuse-materialization="equivalence-cap=mathematical tail-budget=0 row-clusters=off" --motif-residency-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: motif-opt %S/../../Pipeline/Inputs/softmax_long_rows.mlir --fuse-materialization="equivalence-cap=mathematical online-softmax=false tail-budget=0 row-clusters=off" --motif-residency-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=OFF
// Without tails one CTA cannot keep the row, a cluster of 8 CTAs of 128 can
// (64 elements a thread): row-clusters=auto takes it, one kernel, no rule 4.
// RUN: motif-opt %S/../../Pipeline/Inputs/softmax_long_rows.mlir --fuse-materialization="equivalence-cap=mathematical online-softmax=false tail-budget=0" --motif-residency-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=CLUSTER
// CLUSTER: remark: row clusters: kernel 'softmax_max': a cluster keeps on chip what one CTA of at most 512 threads cannot: 100663296 -> 33554432 B
// CLUSTER: motif.kernel "softmax_max_to_softmax_div" threads(1024) cluster(8)
// CLUSTER: total: 1 kernel(s)
// With rule 4 on (the default), its gate asks the same: a cluster keeps the row
// on chip, read once, so the state's two passes over x would only add traffic
// (f32 rows of 131072 on the H200: the cluster 301 us, the state 434 us).
// RUN: motif-opt %S/../../Pipeline/Inputs/softmax_long_rows.mlir --fuse-materialization="equivalence-cap=mathematical tail-budget=0" --motif-residency-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=GATE-CLUSTER
// GATE-CLUSTER: remark: rule 4 (online softmax) not applied: the row stays on chip in a cluster of 8 CTAs of 128 threads: 64 element(s) per thread, 64 in registers and 0 in a shared tail (0 B per CTA), so the fusion reads it once and the online state's two passes would only add traffic (row-clusters=off lets it rewrite)
// GATE-CLUSTER: motif.kernel "softmax_max_to_softmax_div" threads(1024) cluster(8)
// GATE-CLUSTER-NOT: rewrite:
// GATE-CLUSTER: total: 1 kernel(s)
// A row one block of 512 threads keeps (registers and a tail) once row blocks
// grow it from the written 256, where 338 elements a thread are too many: the
// gate counts the grown block, so the state declines under every row-clusters
// mode and row-clusters=auto's choice is off's (one block), always's a cluster.
// (Before, the gate counted the written block: the state took such rows.)
// RUN: sed 's/512/3/g; s/1024/86391/g' %examples/softmax.mlir | motif-opt --fuse-materialization="equivalence-cap=mathematical" 2>&1 | FileCheck %s --check-prefix=GROWN
// GROWN: remark: rule 4 (online softmax) not applied: the row stays on chip in one block of 512 threads (row blocks grow it): 169 element(s) per thread, 64 in registers and 105 in a shared tail (215040 B per block), so the fusion reads it once and the online state's two passes would only add traffic (row-blocks=false lets it rewrite)
// GROWN-NOT: combiner
// GROWN: motif.kernel "softmax_max_to_softmax_div" threads(512)
// RUN: sed 's/512/3/g; s/1024/86391/g' %examples/softmax.mlir | motif-opt --fuse-materialization="equivalence-cap=mathematical row-blocks=false" 2>/dev/null | FileCheck %s --check-prefix=UNGROWN
// UNGROWN: combiner
// RUN: motif-opt %s --split-input-file --fuse-materialization=equivalence-cap=mathematical -o /dev/null 2>&1 | FileCheck %s --check-prefix=GATE
// RUN: motif-opt %S/Inputs/softmax_live_set_gate.mlir --fuse-materialization="equivalence-cap=mathematical tail-budget=0 row-clusters=off" --motif-residency-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIVE
// RUN: motif-opt %S/Inputs/softmax_live_set_gate.mlir --fuse-materialization=equivalence-cap=mathematical --motif-residency-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=TAIL

// Through fuse-materialization, on a row of 65536 (256 per thread, over the
// register budget): the rewrite first, then the fusion, one kernel; the
// report names the rewrite.
// REPORT-LABEL: residency report: @softmax
// REPORT: rule 4: the online state's seed (x, 1): a constant map, no slots
// REPORT: total: 1 kernel(s)
// REPORT-NEXT: rewrite: rule 4 (online softmax): the max over dims [1] of argument #0 (kernel 'softmax_max') and the sum of exp(x - max) (kernel 'softmax_sum') merged
// OFF-LABEL: residency report: @softmax
// OFF: total: 2 kernel(s)
// OFF-NOT: rewrite:
// fuse-materialization rewrites only where a pass goes: a row that fits the
// register budget is already read once by the fusion.
// GATE: remark: rule 4 (online softmax) not applied: the row stays on chip: 2 element(s) per thread, within the register budget (64) and, with its statistic, within the live set of threads(32) (231), so the fusion reads it once and the online state would only add work (--motif-online-softmax rewrites regardless)

// Within the per-value budget but over the live set: rewritten, one kernel.
// LIVE: remark: rule 4 (online softmax): the max over dims [1] of argument #0 (kernel 'softmax_max')
// LIVE-NOT: the row stays on chip
// LIVE: total: 1 kernel(s)

// With shared tails (the default tail budget) the same row stays on chip: 36
// of its 64 slots per thread in registers, 28 in a shared tail (28 x 4 B x
// 1024 threads), so rule 4 declines and the fusion reads x once.
// TAIL: remark: rule 4 (online softmax) not applied: the row stays on chip: 64 element(s) per thread, 36 in registers and 28 in a shared tail of each thread's own (114688 B per block, within the tail budget of 232448 B)
// TAIL-NOT: remark: rule 4 (online softmax): the max
// TAIL: 'softmax_exp'#0 (tensor<2048x65536xf32>): global -> register shared_tail(28)
// TAIL: argument #0 ('tensor<2048x65536xf32>'): global -> register (rule 3: argument #0 is read by 2 motifs of the kernel; loaded once, 36 register(s) per thread and 28 slots in a shared tail
// The report: exp(x - max)'s tail is in x's region (0 more bytes), so the
// kernel's tails total 114688 B, not twice that.
// TAIL: input argument #0 (map) tensor<2048x65536xf32>  global    reg+tail 536870912 114688 0
// TAIL: softmax_exp#0 (map) tensor<2048x65536xf32>      global    reg+tail 1610612736 0 0 {{.*}} [shared tail in the region of input argument #0]
// TAIL: total: 1 kernel(s), {{[0-9]+}} global bytes saved, 114688 shared bytes

// Rule 4 (docs/residency.md): a max, exp(x - max) and the sum of it over the
// max's dims become one reduction carrying (max, sum); the division reads the
// state and recomputes exp(x - max) itself. Below the mathematical cap every
// candidate is declined with a remark (CAP).

// BADCAP: motif-online-softmax: unknown equivalence cap 'approximate' (expected bitwise, tolerance, mathematical or semantic)

// The unfused softmax: four kernels become two.
// CHECK-LABEL: func.func @softmax
// CHECK-SAME: motif.equivalence = #motif<equivalence mathematical>
// CHECK: motif.kernel "max" threads(32) -> tensor<8xf32>, tensor<8xf32>
// The seed (x, 1): a constant map, no operands.
// CHECK: %[[ONE:.*]] = motif.map () -> [i, j] over [block, thread]
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK: %[[ONES:.*]] = motif.materialize %[[ONE]] in register
// CHECK: %[[S:.*]]:2 = motif.reduce (%arg0[i, j], %[[ONES]][i, j]) -> [i] init [0xFF800000 : f32, 0.000000e+00 : f32] over [block, thread]
// CHECK-SAME: combiner
// CHECK: ^bb0(%[[MA:.*]]: f32, %[[LA:.*]]: f32, %[[MB:.*]]: f32, %[[LB:.*]]: f32):
// CHECK: %[[MX:.*]] = arith.maximumf %[[MA]], %[[MB]]
// A -inf max (an empty or fully masked part) is guarded: -inf - -inf is NaN.
// CHECK: %[[E:.*]] = arith.cmpf oeq, %[[MX]], %{{.*}}
// CHECK: %[[SAFE:.*]] = arith.select %[[E]], %{{.*}}, %[[MX]]
// CHECK: arith.subf %[[MA]], %[[SAFE]]
// exp(d) = exp2(d * log2(e))
// CHECK: arith.constant 1.44269502 : f32
// CHECK: math.exp2
// CHECK: arith.subf %[[MB]], %[[SAFE]]
// CHECK: math.exp2
// CHECK: %[[SA:.*]] = arith.mulf %[[LA]], %{{.*}}
// CHECK: %[[L:.*]] = math.fma %[[LB]], %{{.*}}, %[[SA]]
// CHECK: motif.yield %[[MX]], %[[L]] : f32, f32
// CHECK: motif.materialize %[[S]]#0 in global
// CHECK: motif.materialize %[[S]]#1 in global
// No exp kernel, no sum kernel: the division recomputes exp(x - max), as
// exp2((x - max) * log2(e)) (the class is mathematical already).
// CHECK-NOT: motif.kernel "exp"
// CHECK-NOT: motif.kernel "sum"
// CHECK: motif.kernel "div"
// CHECK: motif.map (%{{.*}}#1[i], %arg0[i, j], %{{.*}}#0[i]) -> [i, j]
// CHECK: %[[D:.*]] = arith.subf
// CHECK-NEXT: %[[L2E:.*]] = arith.constant 1.44269502 : f32
// CHECK-NEXT: %[[DS:.*]] = arith.mulf %[[D]], %[[L2E]]
// CHECK-NEXT: %[[P:.*]] = math.exp2 %[[DS]]
// CHECK-NEXT: arith.divf %[[P]]
// CHECK-NOT: motif.reduce <
// CAP: remark: rule 4 (online softmax) not applied: the equivalence cap is 'tolerance'; merging the max with the sum of exp(x - max) (kernel 'sum') rescales partial sums (class mathematical)
// CAP: remark: rule 4 (online softmax) not applied: the equivalence cap is 'tolerance'; merging the max with the sum of exp(x - max) (kernel 'log_softmax')
// CAPIR-LABEL: func.func @softmax
// CAPIR-NOT: motif.equivalence
// CAPIR: motif.reduce <max>
// CAPIR: motif.reduce <add>
func.func @softmax(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %max = motif.kernel "max" threads(32) -> tensor<8xf32> {
    // expected-remark @+1 {{rule 4 (online softmax): the max over dims [1] of argument #0 (kernel 'max') and the sum of exp(x - max) (kernel 'sum') merged into one reduction carrying (max, sum); class mathematical (the sum is rescaled as the max grows); reductions over the row: 2 -> 1; exp(x - max) recomputed in its 1 map reader(s) as exp2((x - max) * log2(e)) (never stored)}}
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32>
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
    %g = motif.materialize %e in global : tensor<8x64xf32>
    motif.yield %g : tensor<8x64xf32>
  }
  %sum = motif.kernel "sum" threads(32) -> tensor<8xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32>
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %y = motif.kernel "div" threads(32) -> tensor<8x64xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread] : (tensor<8x64xf32>, tensor<8xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<8x64xf32>
    motif.yield %g : tensor<8x64xf32>
  }
  return %y : tensor<8x64xf32>
}

// -----

// Log-softmax, hand-fused in one kernel: the max has another reader (the
// final map), which reads the state's max; exp(x - max) had only the sum.
// CHECK-LABEL: func.func @log_softmax
// CHECK: %[[S:.*]]:2 = motif.reduce (%arg0[i, j], %{{.*}}[i, j]) -> [i] init
// CHECK: %[[M:.*]] = motif.materialize %[[S]]#0 in register
// CHECK: %[[L:.*]] = motif.materialize %[[S]]#1 in register
// CHECK-NOT: math.exp %
// CHECK: motif.map (%arg0[i, j], %[[M]][i], %[[L]][i]) -> [i, j]
// CHECK: math.log
// CHECK-NOT: motif.reduce <
func.func @log_softmax(%x: tensor<4x128xf32>) -> tensor<4x128xf32> {
  %y = motif.kernel "log_softmax" threads(128) -> tensor<4x128xf32> {
    // expected-remark @+1 {{rule 4 (online softmax): the max over dims [1] of argument #0 (kernel 'log_softmax') and the sum of exp(x - max) (kernel 'log_softmax') merged into one reduction carrying (max, sum); class mathematical (the sum is rescaled as the max grows); reductions over the row: 2 -> 1; the max's 1 other reader(s) read the state's max (the same bits); exp(x - max) removed (the sum was its only reader)}}
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<4x128xf32>) -> tensor<4xf32>
    %mr = motif.materialize %m in register : tensor<4xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<4x128xf32>, tensor<4xf32>) -> tensor<4x128xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<4x128xf32>
    %l = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<4x128xf32>) -> tensor<4xf32>
    %lr = motif.materialize %l in register : tensor<4xf32>
    %o = motif.map (%x[i, j], %mr[i], %lr[i]) -> [i, j] over [block, thread] : (tensor<4x128xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4x128xf32> {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %d = arith.subf %a, %b : f32
      %lg = math.log %c : f32
      %r = arith.subf %d, %lg : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %o in global : tensor<4x128xf32>
    motif.yield %g : tensor<4x128xf32>
  }
  return %y : tensor<4x128xf32>
}

// -----

// Cross-entropy against one-hot targets, loss = max + log(sum exp(x - max))
// - sum_j x t: state (max, sum); the scaled exponent exp(0.5 * (x - max))
// (a temperature) puts 0.5 * log2(e) in the combiner.
// CHECK-LABEL: func.func @cross_entropy
// CHECK: motif.kernel "lse" threads(64) -> tensor<16xf32>, tensor<16xf32>
// CHECK: motif.reduce (%arg0[i, j], %{{.*}}[i, j]) -> [i]
// CHECK: arith.constant 0.72134751 : f32
// CHECK-NOT: motif.kernel "sum"
// CHECK: motif.contract
// CHECK: motif.kernel "loss"
// CHECK-NOT: motif.reduce <
func.func @cross_entropy(%x: tensor<16x256xf32>, %t: tensor<16x256xf32>) -> tensor<16xf32> {
  %r:2 = motif.kernel "lse" threads(64) -> tensor<16xf32>, tensor<16x256xf32> {
    // expected-remark @+1 {{rule 4 (online softmax): the max over dims [1] of argument #0 (kernel 'lse') and the sum of exp(5.000000e-01 * (x - max)) (kernel 'sum')}}
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<16x256xf32>) -> tensor<16xf32>
    %mr = motif.materialize %m in register : tensor<16xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<16x256xf32>, tensor<16xf32>) -> tensor<16x256xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %h = arith.constant 0.5 : f32
      %s = arith.mulf %h, %d : f32
      %o = math.exp %s : f32
      motif.yield %o : f32
    }
    %ge = motif.materialize %e in global : tensor<16x256xf32>
    %gm = motif.materialize %m in global : tensor<16xf32>
    motif.yield %gm, %ge : tensor<16xf32>, tensor<16x256xf32>
  }
  %l = motif.kernel "sum" threads(64) -> tensor<16xf32> {
    %s = motif.reduce <add> (%r#1[i, j]) -> [i] over [block, thread] : (tensor<16x256xf32>) -> tensor<16xf32>
    %g = motif.materialize %s in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  %dot = motif.kernel "dot" threads(64) -> tensor<16xf32> {
    %d = motif.contract (%x[i, j], %t[i, j]) -> [i] over [block, thread] : (tensor<16x256xf32>, tensor<16x256xf32>) -> tensor<16xf32>
    %g = motif.materialize %d in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  %loss = motif.kernel "loss" threads(16) -> tensor<16xf32> {
    %o = motif.map (%r#0[i], %l[i], %dot[i]) -> [i] over [thread] : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %lg = math.log %b : f32
      %h = arith.constant 2.0 : f32
      %sc = arith.mulf %lg, %h : f32
      %s = arith.addf %a, %sc : f32
      %y = arith.subf %s, %c : f32
      motif.yield %y : f32
    }
    %g = motif.materialize %o in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  return %loss : tensor<16xf32>
}

// -----

// negative_: the exp reads another tensor than the max: no rewrite, a remark.
// CHECK-LABEL: func.func @negative_other_tensor
// CHECK: motif.reduce <max>
// CHECK: motif.reduce <add>
func.func @negative_other_tensor(%x: tensor<4x32xf32>, %z: tensor<4x32xf32>) -> tensor<4xf32> {
  %r = motif.kernel "k" threads(32) -> tensor<4xf32> {
    // expected-remark @+1 {{rule 4 (online softmax) not applied: the map of kernel 'k' exponentiates argument #1, not the tensor the max is over (argument #0)}}
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<4x32xf32>) -> tensor<4xf32>
    %mr = motif.materialize %m in register : tensor<4xf32>
    %e = motif.map (%z[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<4x32xf32>, tensor<4xf32>) -> tensor<4x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %o = math.exp %d : f32
      motif.yield %o : f32
    }
    %er = motif.materialize %e in register : tensor<4x32xf32>
    %s = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<4x32xf32>) -> tensor<4xf32>
    %g = motif.materialize %s in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// negative_: exp(max - x) is not the softmax's exponent.
// CHECK-LABEL: func.func @negative_wrong_sign
// CHECK: motif.reduce <max>
func.func @negative_wrong_sign(%x: tensor<4x32xf32>) -> tensor<4xf32> {
  %r = motif.kernel "k" threads(32) -> tensor<4xf32> {
    // expected-remark @+1 {{rule 4 (online softmax) not applied: the map of kernel 'k' computes something else than exp(x - max) or exp((x - max) * c) with a constant c > 0}}
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<4x32xf32>) -> tensor<4xf32>
    %mr = motif.materialize %m in register : tensor<4xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<4x32xf32>, tensor<4xf32>) -> tensor<4x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %b, %a : f32
      %o = math.exp %d : f32
      motif.yield %o : f32
    }
    %er = motif.materialize %e in register : tensor<4x32xf32>
    %s = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<4x32xf32>) -> tensor<4xf32>
    %g = motif.materialize %s in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// negative_: a negative scale, exp(-(x - max)), would need the min.
// CHECK-LABEL: func.func @negative_scale
// CHECK: motif.reduce <max>
func.func @negative_scale(%x: tensor<4x32xf32>) -> tensor<4xf32> {
  %r = motif.kernel "k" threads(32) -> tensor<4xf32> {
    // expected-remark @+1 {{rule 4 (online softmax) not applied: the map of kernel 'k' computes something else than exp(x - max)}}
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<4x32xf32>) -> tensor<4xf32>
    %mr = motif.materialize %m in register : tensor<4xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<4x32xf32>, tensor<4xf32>) -> tensor<4x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %c = arith.constant -1.0 : f32
      %n = arith.mulf %d, %c : f32
      %o = math.exp %n : f32
      motif.yield %o : f32
    }
    %er = motif.materialize %e in register : tensor<4x32xf32>
    %s = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<4x32xf32>) -> tensor<4xf32>
    %g = motif.materialize %s in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// negative_: exp(x - max) summed over the other dim (a column sum of a row
// softmax's numerators) is not the state's sum.
// CHECK-LABEL: func.func @negative_other_dims
// CHECK: motif.reduce <max>
// CHECK: motif.reduce <add>
func.func @negative_other_dims(%x: tensor<32x32xf32>) -> tensor<32xf32> {
  %m = motif.kernel "rowmax" threads(32) -> tensor<32xf32> {
    // expected-remark @+1 {{rule 4 (online softmax) not applied: the map of kernel 'exp' is summed over dims [0], not the max's [1]}}
    %r = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<32x32xf32>) -> tensor<32xf32>
    %g = motif.materialize %r in global : tensor<32xf32>
    motif.yield %g : tensor<32xf32>
  }
  %e = motif.kernel "exp" threads(32) -> tensor<32x32xf32> {
    %o = motif.map (%x[i, j], %m[i]) -> [i, j] over [block, thread] : (tensor<32x32xf32>, tensor<32xf32>) -> tensor<32x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %o in global : tensor<32x32xf32>
    motif.yield %g : tensor<32x32xf32>
  }
  %s = motif.kernel "colsum" threads(32) -> tensor<32xf32> {
    %r = motif.reduce <add> (%e[i, j]) -> [j] over [seq, thread] : (tensor<32x32xf32>) -> tensor<32xf32>
    %g = motif.materialize %r in global : tensor<32xf32>
    motif.yield %g : tensor<32xf32>
  }
  return %s : tensor<32xf32>
}

// -----

// negative_: a max nobody exponentiates is not a softmax: no rewrite and no
// remark (a plain max-pool, the max read by a clamp).
// CHECK-LABEL: func.func @negative_not_softmax
// CHECK: motif.reduce <max>
// CHECK-NOT: motif.reduce (
func.func @negative_not_softmax(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %r = motif.kernel "k" threads(32) -> tensor<4x32xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<4x32xf32>) -> tensor<4xf32>
    %mr = motif.materialize %m in register : tensor<4xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<4x32xf32>, tensor<4xf32>) -> tensor<4x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %o = arith.divf %a, %b : f32
      motif.yield %o : f32
    }
    %g = motif.materialize %e in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  return %r : tensor<4x32xf32>
}
