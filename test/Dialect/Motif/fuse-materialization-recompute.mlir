// Rule 6 (recompute, docs/residency.md "Recompute"): a map's value that the
// fusion keeps on chip at a cost in shared bytes (a shared tail, or a shared
// buffer its own threads read) is computed again by each reader from operands
// the kernel keeps in registers, where that lowers the kernel's peak.

// bf16 rows of 65536 (mathematical cap: the row grows to 512 threads): x stays
// on chip as bf16 (64 slots a thread and a 64 KiB tail); exp(x - max) in f32
// would need 128 slots more, half of them in a 128 KiB tail. Recomputed by the
// sum and the division instead.
// RUN: sed 's/512/2048/g; s/1024/65536/g' %examples/softmax_bf16.mlir | motif-opt --fuse-materialization='equivalence-cap=mathematical' 2>%t.bf16.err | FileCheck %s --check-prefix=BF16
// RUN: FileCheck %s --check-prefix=BF16-REMARK < %t.bf16.err
// BF16: motif.kernel "softmax_bf16_max_to_softmax_bf16_div" threads(512)
// BF16: motif.materialize %{{.*}} in register shared_tail(64) {motif.producer = "input argument #0"
// BF16: %[[E:.*]] = motif.materialize %{{.*}} in register recompute {motif.producer = "softmax_bf16_exp#0"
// BF16-SAME: motif.rule = "rule 6: recomputed by its 2 reader(s)
// BF16: motif.reduce <add> (%[[E]][i, j])
// BF16: motif.map (%[[E]][i, j]
// BF16-NOT: shared_tail
// BF16-REMARK: remark: rule 6 (recompute): 'softmax_bf16_exp#0' (tensor<2048x65536xf32>) recomputed by its 2 reader(s) from 'input argument #0', 'softmax_bf16_max#0' (in registers): its 128 slots a thread are not kept (it had a shared tail); shared bytes of the kernel's values at their peak 196608 -> 65536 B, blocks an SM 1 -> 2, registers a thread for its values (16-bit ones two to a register) 65 -> 34; its body (5 operations) runs once a reader (bitwise: the same operations on the same values)

// bf16 rows of 32768: everything in registers (x 64 bf16 slots, the
// exponentials 64 f32 ones), 65 registers a thread for values and 24 more:
// one block of 512 an SM. Recomputed, 34: two blocks, whose load, reduce and
// store phases overlap, though the division runs the exponentials again. With
// the division's stores grouped (convert-motif-to-gpu's group-stores, the
// default) that wins: on the H200 131.8 us against 161.4 kept in registers
// (docs/residency.md). Taken by default; recompute-registers=false declines it
// with the figures. The same rows at 8192 (16 slots) hold several blocks an
// SM already: nothing to gain, no remark.
// RUN: sed 's/512/4096/g; s/1024/32768/g' %examples/softmax_bf16.mlir | motif-opt --fuse-materialization='equivalence-cap=mathematical recompute-registers=false' 2>&1 | FileCheck %s --check-prefix=REGS-OFF
// REGS-OFF: remark: rule 6 (recompute) not applied to 'softmax_bf16_exp#0' (tensor<4096x32768xf32>): it is kept in registers and recompute-registers=false: recomputed, it would let the kernel hold 2 blocks an SM instead of 1 (registers a thread at their peak 65 -> 34)
// REGS-OFF: motif.materialize %{{.*}} in register {motif.producer = "softmax_bf16_exp#0"
// REGS-OFF-NOT: recompute {
// RUN: sed 's/512/4096/g; s/1024/32768/g' %examples/softmax_bf16.mlir | motif-opt --fuse-materialization='equivalence-cap=mathematical' 2>&1 | FileCheck %s --check-prefix=REGS
// REGS: remark: rule 6 (recompute): 'softmax_bf16_exp#0' (tensor<4096x32768xf32>) recomputed by its 2 reader(s) from 'input argument #0', 'softmax_bf16_max#0' (in registers): its 64 slots a thread are not kept (it was in registers); shared bytes of the kernel's values at their peak 0 -> 0 B, blocks an SM 1 -> 2, registers a thread for its values (16-bit ones two to a register) 65 -> 34
// REGS: motif.materialize %{{.*}} in register recompute {motif.producer = "softmax_bf16_exp#0"
// RUN: sed 's/512/4096/g; s/1024/8192/g' %examples/softmax_bf16.mlir | motif-opt --fuse-materialization='equivalence-cap=mathematical' 2>&1 | FileCheck %s --check-prefix=FEW
// FEW-NOT: rule 6
// FEW: motif.materialize %{{.*}} in register {motif.producer = "softmax_bf16_exp#0"

// The residency report: the exponentials take no shared bytes; x's tail is the
// kernel's only one.
// RUN: sed 's/512/2048/g; s/1024/65536/g' %examples/softmax_bf16.mlir | motif-opt --fuse-materialization='equivalence-cap=mathematical' --motif-residency-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: input argument #0 (map) tensor<2048x65536xbf16>   global    reg+tail       268435456           65536         0  rule 3:
// REPORT: softmax_bf16_exp#0 (map) tensor<2048x65536xf32>   global    recompute      1610612736               0         0  rule 6: recomputed by its 2 reader(s)

// Turned off: the f32 exponentials keep their tail.
// RUN: sed 's/512/2048/g; s/1024/65536/g' %examples/softmax_bf16.mlir | motif-opt --fuse-materialization='equivalence-cap=mathematical recompute=false' 2>&1 | FileCheck %s --check-prefix=OFF
// OFF-NOT: rule 6
// OFF: motif.materialize %{{.*}} in register shared_tail(64) {motif.producer = "softmax_bf16_exp#0"
// OFF-NOT: recompute {

// f32 rows of 65536: exp(x - max) takes over x's tail slot for slot (x is read
// for the last time by the map), so recomputing would keep as much on chip.
// RUN: sed 's/512/2048/g; s/1024/65536/g' %examples/softmax.mlir | motif-opt --fuse-materialization='equivalence-cap=mathematical' 2>&1 >/dev/null | FileCheck %s --check-prefix=F32
// F32: remark: rule 6 (recompute) not applied to 'softmax_exp#0' (tensor<2048x65536xf32>): the kernel would keep as much on chip or need more registers (shared bytes of its values at their peak 131072 -> 131072 B, registers a thread 65 -> 66, 104 for values: its operands live as long as its readers)
// F32-NOT: rule 6 (recompute):

// Under the bitwise cap the bf16 row keeps its block of 256: x is not cached
// in registers (rule 3 declines), so recomputing would read it again.
// RUN: sed 's/512/2048/g; s/1024/65536/g' %examples/softmax_bf16.mlir | motif-opt --fuse-materialization 2>&1 >/dev/null | FileCheck %s --check-prefix=BITWISE
// BITWISE: remark: rule 6 (recompute) not applied to 'softmax_bf16_exp#0' (tensor<2048x65536xf32>): its operand a tensor<2048x65536xbf16> is not kept in registers by the kernel (recomputing would read it again from memory)

// A value in shared memory (rule 5 downgraded it from registers over a small
// budget; its own threads read it): recomputed, the buffer given back.
// RUN: sed 's/512/8/g; s/1024/4096/g' %examples/softmax_bf16.mlir | motif-opt --fuse-materialization='equivalence-cap=tolerance register-budget=8 row-blocks=false' 2>&1 | FileCheck %s --check-prefix=SHARED
// SHARED: remark: rule 6 (recompute): 'softmax_bf16_exp#0' (tensor<8x4096xf32>) recomputed by its 2 reader(s) from 'input argument #0', 'softmax_bf16_max#0' (in registers): its 16 slots a thread are not kept (it was in shared memory); shared bytes of the kernel's values at their peak 20480 -> 4096 B, blocks an SM 8 -> 8
// SHARED: motif.materialize %{{.*}} in register recompute {motif.producer = "softmax_bf16_exp#0"

// A shared value other threads read (the reduction walks the row in sequence):
// no reader could compute what it reads. Declined, the value stays shared.
// RUN: motif-opt %s --fuse-materialization 2>&1 | FileCheck %s --check-prefix=OTHERS
// OTHERS: remark: rule 6 (recompute) not applied to the value of a map of 'others' (tensor<8x64xf32>): its readers cannot compute it: keeps the result of 'motif.map' in register, but 'motif.reduce' reads it (operand #0) in same block: dim 1 is computed at 'thread' but read at 'seq'
// OTHERS: %[[S:[0-9]+]] = motif.materialize %{{.*}} in shared : tensor<8x64xf32>
// OTHERS: motif.reduce <add> (%[[S]][i, j]) -> [i] over [block, seq]
func.func @others(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %y = motif.kernel "others" threads(64) -> tensor<8xf32> {
    %l = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %lr = motif.materialize %l in register : tensor<8x64xf32>
    %e = motif.map (%lr[i, j]) -> [i, j] over [block, thread] : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    %es = motif.materialize %e in shared : tensor<8x64xf32>
    %s = motif.reduce <add> (%es[i, j]) -> [i] over [block, seq] : (tensor<8x64xf32>) -> tensor<8xf32>
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}
