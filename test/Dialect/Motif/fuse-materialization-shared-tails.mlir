// Shared tails (docs/residency.md, "Shared tails"): a value every reader owns
// that is over the register budget and too large for shared memory as a whole
// keeps its first slots in registers and the rest in a shared region of each
// thread's own (no barrier), within `tail-budget` (default: the chip's opt-in
// maximum, 232448 B on sm_90).
// RUN: motif-opt %S/../../Pipeline/Inputs/shared_tails.mlir --fuse-materialization --mlir-print-op-on-diagnostic=false -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t
// RUN: motif-equiv --class=bitwise %S/../../Pipeline/Inputs/shared_tails.mlir %t | FileCheck %s --check-prefix=EQUIV
// RUN: motif-opt %S/../../Pipeline/Inputs/shared_tails.mlir --fuse-materialization=tail-budget=0 --mlir-print-op-on-diagnostic=false -o - 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: motif-opt %S/../../Pipeline/Inputs/shared_tails.mlir --fuse-materialization=tail-budget=100000 --mlir-print-op-on-diagnostic=false -o - 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: motif-opt %s --fuse-materialization --mlir-print-op-on-diagnostic=false -o - 2>&1 | FileCheck %s --check-prefix=UNROLL
// RUN: not motif-opt %s --fuse-materialization=tail-budget=-2 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not motif-opt %s --fuse-materialization=tail-budget=300000 2>&1 | FileCheck %s --check-prefix=MAX

// softmax 8x65536 at threads(256): 256 slots per thread. exp(x - max) keeps 64
// in registers and 192 in its tail (192 x 4 B x 256 threads); x, read by the max
// and by exp, is loaded once the same way (rule 3), and exp's tail takes x's
// region (the map reads x slot for slot), so the kernel needs 196608 B, not twice.
// REMARK: 'softmax_long_exp'#0 (tensor<8x65536xf32>): global -> register shared_tail(192) (rule 5: 256 registers per thread exceed the register budget (64) and the whole value would need 262144 shared bytes, over the budget (49152 B); the first 64 slots per thread stay in registers, the last 192 in a shared tail of each thread's own (196608 B per block, no barrier);
// REMARK: kernel 'softmax_long_max_to_softmax_long_div': argument #0 ('tensor<8x65536xf32>'): global -> register (rule 3: argument #0 is read by 2 motifs of the kernel; loaded once, 64 register(s) per thread and 192 slots in a shared tail of each thread's own (196608 B per block, no barrier; 256 registers per thread exceed the register budget (64)))
// CHECK-LABEL: func.func @softmax_long
// CHECK-COUNT-1: motif.kernel
// CHECK: motif.materialize %{{.*}} in register shared_tail(192)
// CHECK: motif.reduce <max>
// CHECK: motif.materialize %{{.*}} in register shared_tail(192)
// CHECK: motif.reduce <add>
// CHECK-NOT: motif.kernel
// CHECK-LABEL: func.func @softmax_odd

// 40000 elements over 256 threads: 157 slots, the tail 93.
// REMARK: 'softmax_odd_exp'#0 (tensor<6x40000xf32>): global -> register shared_tail(93)
// CHECK: motif.materialize %{{.*}} in register shared_tail(93)

// threads(1024): 64 slots are within the register budget, but with the max
// over the 40 a thread has for values: the live-set check moves 28 to the tail.
// REMARK: 'softmax_t1024_exp'#0 (tensor<4x65536xf32>): global -> register shared_tail(28) (rule 5: the merged kernel would keep 65 registers per thread live at once ('softmax_t1024_exp'#0 (tensor<4x65536xf32>): 64, 'softmax_t1024_max'#0 (tensor<4xf32>): 1), over the 40 a thread of threads(1024) has for values on sm_90 (24 kept for addresses and indices); the largest of them keeps the first 36 slots per thread stay in registers, the last 28 in a shared tail of each thread's own (114688 B per block, no barrier))
// REMARK: argument #0 ('tensor<4x65536xf32>'): global -> register (rule 3: argument #0 is read by 2 motifs of the kernel; loaded once, 36 register(s) per thread and 28 slots in a shared tail

// bf16: x's tail would hold bf16 and exp's f32, so they cannot share a region;
// both would need 98304 + 196608 B: x stays in global memory (read twice).
// REMARK: 'softmax_bf16_long_bf16_exp'#0 (tensor<8x65536xf32>): global -> register shared_tail(192)
// REMARK: argument #0 ('tensor<8x65536xbf16>') read by 2 motifs stays in global memory (rule 3 not applied: 256 registers per thread exceed the register budget (64); with a shared tail of 192 slots the kernel's tails would need 294912 B at once, over the tail budget (232448 B))

// RMSNorm 8x32768: x in 64 registers and a 64-slot tail.
// REMARK: kernel 'rmsnorm_long_ss_rmsnorm_long_norm': argument #0 ('tensor<8x32768xf32>'): global -> register (rule 3: argument #0 is read by 2 motifs of the kernel; loaded once, 64 register(s) per thread and 64 slots in a shared tail of each thread's own (65536 B per block, no barrier;

// tail-budget=0: no tails; exp(x - max) stays global and the kernels stay two.
// OFF: 'softmax_long_exp'#0 (tensor<8x65536xf32>): stays global (rule 5: refused: 262144 shared bytes per block exceed the budget (49152 B on sm_90); rule 5: 256 registers per thread exceed the register budget (64), downgraded to shared (a shared tail of 192 slots would need 196608 B, over the tail budget (0 B));
// OFF: argument #0 ('tensor<8x65536xf32>') read by 2 motifs stays in global memory (rule 3 not applied: 256 registers per thread exceed the register budget (64) (shared tails are off: tail-budget=0))
// OFF-LABEL: func.func @softmax_long
// OFF-COUNT-2: motif.kernel "softmax_long
// OFF-NOT: shared_tail

// A tail budget below what softmax_long needs (196608 B) but above
// softmax_odd's (95232 B).
// SMALL: 'softmax_long_exp'#0 (tensor<8x65536xf32>): stays global ({{.*}}(a shared tail of 192 slots would need 196608 B, over the tail budget (100000 B))
// SMALL: 'softmax_odd_exp'#0 (tensor<6x40000xf32>): global -> register shared_tail(93)

// The CPU evaluator runs the unfused and the fused programs thread by thread
// (the schedule model, where a tail is a register value): bitwise.
// EQUIV: @softmax_long: PASS (bitwise
// EQUIV: @softmax_odd: PASS (bitwise
// EQUIV: @softmax_t1024: PASS (bitwise
// EQUIV: @softmax_bf16_long: PASS (bitwise
// EQUIV: @rmsnorm_long: PASS (bitwise

// NEG: fuse-materialization: tail budget -2 is negative (use -1 for the chip's opt-in maximum, 0 for no tails)
// MAX: fuse-materialization: tail budget 300000 B exceeds sm_90's per-block maximum (232448 B)

// 512 slots per thread: past the 256 the lowering unrolls, so no tail either.
// UNROLL: 'negative_unroll_exp'#0 (tensor<4x131072xf32>): stays global (rule 5: refused: 524288 shared bytes per block exceed the budget (49152 B on sm_90); rule 5: 512 registers per thread exceed the register budget (64), downgraded to shared (a shared tail of 448 slots would need 458752 B, over the tail budget (232448 B), and the lowering unrolls at most 256 slots);
// UNROLL-NOT: shared_tail
func.func @negative_unroll(%x: tensor<4x131072xf32>) -> tensor<4xf32> {
  %exp = motif.kernel "negative_unroll_exp" threads(256) -> tensor<4x131072xf32> {
    %e = motif.map (%x[i, j]) -> [i, j] over [block, thread]
           : (tensor<4x131072xf32>) -> tensor<4x131072xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<4x131072xf32>
    motif.yield %g : tensor<4x131072xf32>
  }
  %sum = motif.kernel "negative_unroll_sum" threads(256) -> tensor<4xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<4x131072xf32>) -> tensor<4xf32>
    %g = motif.materialize %s in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %sum : tensor<4xf32>
}
