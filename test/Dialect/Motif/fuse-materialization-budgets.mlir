// Rule 5: resource limits refuse or downgrade a rewrite; the equivalence cap
// blocks a merge that would change bits. (Default schedules are off: these
// contractions test budgets as written; fuse-materialization-default-schedules.mlir
// has the tiled ones.)
// RUN: motif-opt %s --split-input-file --fuse-materialization="shared-budget=512 default-schedules=false" --verify-diagnostics=only-expected --mlir-print-op-on-diagnostic=false -o - 2>/dev/null | FileCheck %s --check-prefix=SMALL-SHARED
// RUN: motif-opt %s --split-input-file --fuse-materialization="register-budget=2 default-schedules=false" --verify-diagnostics=only-expected --mlir-print-op-on-diagnostic=false -o - 2>/dev/null | FileCheck %s --check-prefix=FEW-REGS
// RUN: motif-opt %s --split-input-file --fuse-materialization=default-schedules=false --mlir-print-op-on-diagnostic=false -o - 2>&1 | FileCheck %s --check-prefix=CAP-BITWISE
// RUN: motif-opt %s --split-input-file --fuse-materialization="equivalence-cap=tolerance default-schedules=false" --mlir-print-op-on-diagnostic=false -o - 2>/dev/null | FileCheck %s --check-prefix=CAP-TOLERANCE

// The probabilities of a 256-key row (1 KiB per block) go to shared memory
// by default; with a 512-byte budget the buffer is refused and P stays in
// global memory (two kernels).
// SMALL-SHARED-LABEL: func.func @negative_shared_over_budget
// SMALL-SHARED: motif.kernel "probs"
// SMALL-SHARED: motif.materialize {{.*}} in global {motif.producer = "probs#0", motif.rule = "rule 5: refused: 1024 shared bytes per block exceed the budget (512 B on sm_90)
// SMALL-SHARED: motif.kernel "pv"
// FEW-REGS-LABEL: func.func @negative_shared_over_budget
func.func @negative_shared_over_budget(%p: tensor<64x256xf32>, %v: tensor<256x64xf32>) -> tensor<64x64xf32> {
  %pr = motif.kernel "probs" threads(256) -> tensor<64x256xf32> {
    %e = motif.map (%p[i, j]) -> [i, j] over [block, thread] : (tensor<64x256xf32>) -> tensor<64x256xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<64x256xf32>
    motif.yield %g : tensor<64x256xf32>
  }
  %y = motif.kernel "pv" threads(64) -> tensor<64x64xf32> {
    %o = motif.contract (%pr[i, j], %v[j, e]) -> [i, e] over [block, thread, seq] : (tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32>
    %g = motif.materialize %o in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %y : tensor<64x64xf32>
}

// -----

// exp(x) of a 1024-wide row is read by its own thread (4 elements each with
// 256 threads): registers by default; with a 2-register budget it is
// downgraded to shared memory (4 KiB per block, within 48 KiB).
// FEW-REGS-LABEL: func.func @negative_register_over_budget
// FEW-REGS: motif.kernel "exp_sum" threads(256)
// FEW-REGS: motif.materialize {{.*}} in shared {motif.producer = "exp#0", motif.rule = "rule 5: 4 registers per thread exceed the register budget (2), downgraded to shared;
// SMALL-SHARED-LABEL: func.func @negative_register_over_budget
// SMALL-SHARED: in register {motif.producer = "exp#0"
func.func @negative_register_over_budget(%x: tensor<16x1024xf32>) -> tensor<16xf32> {
  %e = motif.kernel "exp" threads(256) -> tensor<16x1024xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<16x1024xf32>) -> tensor<16x1024xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<16x1024xf32>
    motif.yield %g : tensor<16x1024xf32>
  }
  %s = motif.kernel "sum" threads(256) -> tensor<16xf32> {
    %r = motif.reduce <add> (%e[i, j]) -> [i] over [block, thread] : (tensor<16x1024xf32>) -> tensor<16xf32>
    %g = motif.materialize %r in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  return %s : tensor<16xf32>
}

// -----

// A row sum computed with 128 threads feeds a consumer launched with 256:
// one kernel means re-blocking the sum to 256 threads, a different reduction
// tree (class 'tolerance'). The default cap (bitwise) refuses it with a
// remark; a 'tolerance' cap merges and records the class on the function.
// CAP-BITWISE: remark: 'rowsum'#0 (tensor<16xf32>): stays global (equivalence cap: merging re-blocks kernel 'rowsum' from 128 to 256 threads, which reorders its cross-thread reduction (class 'tolerance', above the cap 'bitwise'))
// CAP-BITWISE-LABEL: func.func @negative_equivalence_cap
// CAP-BITWISE-SAME: motif.equivalence = #motif<equivalence bitwise>
// CAP-BITWISE-COUNT-2: motif.kernel
// CAP-TOLERANCE-LABEL: func.func @negative_equivalence_cap
// CAP-TOLERANCE-SAME: motif.equivalence = #motif<equivalence tolerance>
// CAP-TOLERANCE: motif.kernel "rowsum_scale" threads(256)
// CAP-TOLERANCE: motif.reduce <add>
// CAP-TOLERANCE-NEXT: motif.materialize %{{.*}} in register
// CAP-TOLERANCE-NOT: motif.kernel
func.func @negative_equivalence_cap(%x: tensor<16x1024xf32>) -> tensor<16x1024xf32> {
  %s = motif.kernel "rowsum" threads(128) -> tensor<16xf32> {
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<16x1024xf32>) -> tensor<16xf32>
    %g = motif.materialize %r in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  %y = motif.kernel "scale" threads(256) -> tensor<16x1024xf32> {
    %m = motif.map (%x[i, j], %s[i]) -> [i, j] over [block, thread] : (tensor<16x1024xf32>, tensor<16xf32>) -> tensor<16x1024xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<16x1024xf32>
    motif.yield %g : tensor<16x1024xf32>
  }
  return %y : tensor<16x1024xf32>
}
