// RUN: motif-opt %s | motif-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: motif-opt %examples/attention.mlir --motif-online-softmax --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ATT
// RUN: motif-opt %examples/mha.mlir --motif-online-softmax --mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=MHA
// RUN: motif-opt %examples/attention.mlir --motif-online-softmax=equivalence-cap=tolerance --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NEGATIVE_CAP
// RUN: motif-opt %S/Inputs/attention_max_returned.mlir --motif-online-softmax --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NEGATIVE_MAX
// RUN: motif-opt %examples/attention.mlir --fuse-materialization=equivalence-cap=mathematical --motif-residency-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: motif-opt %examples/attention.mlir --motif-online-softmax -o %t.att 2>/dev/null
// RUN: motif-equiv --class=mathematical --trials=2 %examples/attention.mlir %t.att 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: motif-opt %s --motif-residency-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=STAGES

// Rule 4, online contraction (docs/residency.md): the softmax of a
// contraction, contracted again, becomes one motif.online_contract carrying
// (max, sum, acc) over tiles of the keys.

// The op round-trips.
// ROUNDTRIP-LABEL: func.func @flash
// ROUNDTRIP: motif.kernel "flash" threads(128)
// ROUNDTRIP: motif.online_contract (%{{.*}}[i, j, l], %{{.*}}[i, m, l], %{{.*}}[i, m, k]) -> [i, j, k] scale(1.250000e-01) over [block, block x seq(64), seq, seq, seq] : (tensor<2x256x64xf32>, tensor<2x256x64xf32>, tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
func.func @flash(%q: tensor<2x256x64xf32>, %k: tensor<2x256x64xf32>, %v: tensor<2x256x64xf32>) -> tensor<2x256x64xf32> {
  %y = motif.kernel "flash" threads(128) -> tensor<2x256x64xf32> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125)
           over [block, block x seq(64), seq, seq, seq]
           : (tensor<2x256x64xf32>, tensor<2x256x64xf32>, tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
    %g = motif.materialize %o in global : tensor<2x256x64xf32>
    motif.yield %g : tensor<2x256x64xf32>
  }
  return %y : tensor<2x256x64xf32>
}

// examples/attention.mlir unchanged: seven kernels become one; the scale
// 0.125 of 'attn_scale' is folded into the op; S and P are gone.
// ATT: remark: rule 4 (online contraction): the softmax over dim [1] of the scores (kernel 'attn_scores', scaled in 'attn_scale'; max 'attn_max', exp 'attn_exp', sum 'attn_sum', divide 'attn_probs') and its contraction with argument #2 (kernel 'attn_pv') merged into one motif.online_contract in kernel 'attn_pv_online', carrying (max, sum, acc) over tiles of the keys, 64 rows per block, the keys split over 4 groups of 64 threads (their partial states merged at the end)
// ATT-SAME: class mathematical
// ATT-LABEL: func.func @attention
// ATT-SAME: motif.equivalence = #motif<equivalence mathematical>
// ATT-NOT: motif.kernel "attn_
// One head of 256 rows: the keys (8 tiles of 32) split over 4 groups of
// threads (keyGroups: each group at least two tiles); 4 blocks of 64 rows in
// groups of 2 warps give the grid as many warps as 8 blocks of 32 in groups
// of one, and the tie goes to 64 (each block reads the keys once for more
// rows).
// ATT: motif.kernel "attn_pv_online" threads(256) -> tensor<256x64xf32>
// ATT-NEXT: motif.online_contract (%arg0[i, l], %arg1[k, l], %arg2[k, j]) -> [i, j] scale(1.250000e-01) splits(4) over [block x seq(64), seq, seq, seq]
// ATT-NEXT: motif.materialize %{{.*}} in global
// ATT-NOT: motif.kernel
// ATT: return

// Batched over the heads: the head dim stays a block dim.
// MHA-LABEL: func.func @mha
// MHA-NOT: motif.kernel "attn_
// MHA: motif.kernel "attn_pv_online"
// MHA-NEXT: motif.online_contract (%arg0[i, j, m], %arg1[i, l, m], %arg2[i, l, k]) -> [i, j, k] scale(1.250000e-01) splits(4) over [block, block x seq(64), seq, seq, seq]
// MHA-NOT: motif.kernel

// Below the mathematical cap: refused with a remark, the program unchanged.
// NEGATIVE_CAP: remark: rule 4 (online contraction) not applied to the softmax of kernel 'attn_max' and the contraction of kernel 'attn_pv': the equivalence cap is 'tolerance'
// NEGATIVE_CAP-NOT: motif.online_contract
// NEGATIVE_CAP: motif.kernel "attn_scores"
// NEGATIVE_CAP-NOT: motif.online_contract

// The max read elsewhere (returned): no online contraction, and why.
// NEGATIVE_MAX: remark: rule 4 (online contraction) not applied to the softmax of kernel 'attn_max' and the contraction of kernel 'attn_pv': the max is also read by the function's return (the flash form never stores it)
// NEGATIVE_MAX-NOT: motif.online_contract
// NEGATIVE_MAX: motif.kernel "attn_pv"
// NEGATIVE_MAX-NOT: motif.online_contract

// Through fuse-materialization at the mathematical cap: one kernel; the
// report names the rewrite.
// REPORT-LABEL: residency report: @attention
// REPORT: attn_pv_online#0 (online_contract) tensor<256x64xf32>  global    global
// The tiles the lowering stages (64 rows of Q; 32 keys of K and V for each
// of the 4 key groups; rows of 64 + 4 floats), the partial states of groups
// 1..3 (3 x 64 rows), and the S x S pair it never stores (2 x 256 x 256 x 4 B).
// REPORT-NEXT: attn_pv_online (online_contract query rows) tensor<256x64xf32>  global shared 0 17408 1 rule 4: staged by the flash lowering, 64 rows of 64 floats per block, padded by 4
// REPORT-NEXT: attn_pv_online (online_contract key tile) tensor<256x64xf32> global shared 0 34816 1 rule 4: staged by the flash lowering, 128 rows (a tile of 32 keys for each of the 4 key groups) of 64 floats
// REPORT-NEXT: attn_pv_online (online_contract value tile) tensor<256x64xf32> global shared 0 34816 1 rule 4
// REPORT-NEXT: attn_pv_online (online_contract partial states) register shared 0 52224 1 rule 4: the keys split over 4 groups of threads; groups 1.. leave (acc, m, l) of 64 rows here
// REPORT-NEXT: attn_pv_online (online_contract scores S, probabilities P) global register 524288 0 0 rule 4: never stored
// REPORT-NEXT: total: 1 kernel(s), 524288 global bytes saved, 139264 shared bytes
// REPORT-NEXT: rewrite: rule 4 (online contraction)
// REPORT-SAME: the scores and the probabilities are never stored

// The rewrite meets its class on fresh random inputs (motif-equiv draws
// them; the f64 reference is the unfused program's sequential meaning).
// EQUIV: @attention: class mathematical, 2 trials
// EQUIV: #0{{ +}}tensor<256x64xf32>{{ +}}mathematical{{ +}}no{{.*}}PASS
// EQUIV: @attention: PASS (mathematical

// splits(s) round-trips: the keys in s runs, one per group of threads / s.
// ROUNDTRIP-LABEL: func.func @flash_split
// ROUNDTRIP: motif.online_contract (%{{.*}}[i, j, l], %{{.*}}[i, m, l], %{{.*}}[i, m, k]) -> [i, j, k] scale(1.250000e-01) splits(2) over [block, block x seq(32), seq, seq, seq]
func.func @flash_split(%q: tensor<2x256x64xf32>, %k: tensor<2x256x64xf32>, %v: tensor<2x256x64xf32>) -> tensor<2x256x64xf32> {
  %y = motif.kernel "flash_split" threads(64) -> tensor<2x256x64xf32> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125) splits(2)
           over [block, block x seq(32), seq, seq, seq]
           : (tensor<2x256x64xf32>, tensor<2x256x64xf32>, tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
    %g = motif.materialize %o in global : tensor<2x256x64xf32>
    motif.yield %g : tensor<2x256x64xf32>
  }
  return %y : tensor<2x256x64xf32>
}

// stages(n) round-trips, after splits; the report gives the stages and
// their bytes: 64 rows of Q (64 x 68 x 4 = 17408 B), 3 copies of a 32-key
// tile of K and of V (3 x 32 x 68 x 4 = 26112 B each).
// ROUNDTRIP-LABEL: func.func @flash_stages
// ROUNDTRIP: motif.online_contract (%{{.*}}[i, j, l], %{{.*}}[i, m, l], %{{.*}}[i, m, k]) -> [i, j, k] scale(1.250000e-01) stages(3) over [block, block x seq(64), seq, seq, seq]
// STAGES-LABEL: residency report: @flash_stages
// STAGES: flash_stages (online_contract query rows) {{.*}} shared {{ *}}0 {{ *}}17408 {{.*}} 64 rows of 64 floats per block, padded by 4
// STAGES-NEXT: flash_stages (online_contract key tile) {{.*}} shared {{ *}}0 {{ *}}26112 {{.*}} 32 rows of 64 floats per block, 3 stages (cp.async: the next 2 tiles land while this one is used)
// STAGES-NEXT: flash_stages (online_contract value tile) {{.*}} shared {{ *}}0 {{ *}}26112 {{.*}} 3 stages
func.func @flash_stages(%q: tensor<2x256x64xf32>, %k: tensor<2x256x64xf32>, %v: tensor<2x256x64xf32>) -> tensor<2x256x64xf32> {
  %y = motif.kernel "flash_stages" threads(64) -> tensor<2x256x64xf32> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125) stages(3)
           over [block, block x seq(64), seq, seq, seq]
           : (tensor<2x256x64xf32>, tensor<2x256x64xf32>, tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
    %g = motif.materialize %o in global : tensor<2x256x64xf32>
    motif.yield %g : tensor<2x256x64xf32>
  }
  return %y : tensor<2x256x64xf32>
}

// Without stages, no key groups, and the bytes fit: the fma form keeps 2
// copies (2 x 32 x 68 x 4 = 17408 B of K, the same of V).
// STAGES-LABEL: residency report: @flash_default_stages
// STAGES: flash_default_stages (online_contract key tile) {{.*}} shared {{ *}}0 {{ *}}17408 {{.*}} 2 stages (cp.async: the next tile lands while this one is used)
func.func @flash_default_stages(%q: tensor<2x256x64xf32>, %k: tensor<2x256x64xf32>, %v: tensor<2x256x64xf32>) -> tensor<2x256x64xf32> {
  %y = motif.kernel "flash_default_stages" threads(64) -> tensor<2x256x64xf32> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125)
           over [block, block x seq(64), seq, seq, seq]
           : (tensor<2x256x64xf32>, tensor<2x256x64xf32>, tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
    %g = motif.materialize %o in global : tensor<2x256x64xf32>
    motif.yield %g : tensor<2x256x64xf32>
  }
  return %y : tensor<2x256x64xf32>
}
