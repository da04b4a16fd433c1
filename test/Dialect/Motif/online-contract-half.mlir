// RUN: motif-opt %s | motif-opt | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: motif-opt %examples/mha_bf16.mlir --motif-online-softmax --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: motif-opt %S/Inputs/attention_f16_round_map.mlir --motif-online-softmax --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=ROUNDMAP
// RUN: motif-opt %S/Inputs/attention_f16_p_returned.mlir --motif-online-softmax --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NEGATIVE_P
// RUN: motif-opt %S/Inputs/attention_bf16_rows24.mlir --motif-online-softmax --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=PARTIAL_ROWS
// RUN: motif-opt %S/Inputs/attention_bf16_rows24.mlir --motif-online-softmax -o %t.rows24 2>/dev/null
// RUN: motif-equiv --class=mathematical --trials=2 %S/Inputs/attention_bf16_rows24.mlir %t.rows24 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: motif-opt %examples/mha_bf16.mlir --fuse-materialization=equivalence-cap=tolerance --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NEGATIVE_CAP
// RUN: motif-opt %examples/mha_bf16.mlir --fuse-materialization=equivalence-cap=mathematical --motif-residency-report -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: motif-opt %examples/mha_bf16.mlir --motif-online-softmax -o %t.bf16 2>/dev/null
// RUN: motif-equiv --class=mathematical --trials=2 %examples/mha_bf16.mlir %t.bf16 2>&1 | FileCheck %s --check-prefix=EQUIV
// RUN: motif-opt %S/Inputs/attention_f16_round_map.mlir --motif-online-softmax -o %t.f16 2>/dev/null
// RUN: motif-equiv --class=mathematical --trials=2 %S/Inputs/attention_f16_round_map.mlir %t.f16 2>&1 | FileCheck %s --check-prefix=EQUIV
// A wrong rewrite (the scale off by 4 %) fails the class.
// RUN: sed -e 's/scale(1.250000e-01)/scale(1.300000e-01)/' %t.bf16 > %t.wrong
// RUN: not motif-equiv --class=mathematical --trials=2 %examples/mha_bf16.mlir %t.wrong 2>&1 | FileCheck %s --check-prefix=WRONG

// Rule 4 on half-precision attention (issue 13): bf16/f16 q, k, v, f32 scores
// and statistics, P rounded to the operands' type before P.V. The online
// contraction takes half operands (tensor cores) and a result of f32 or their
// type.

// ROUNDTRIP-LABEL: func.func @flash_bf16
// ROUNDTRIP: motif.online_contract (%{{.*}}[i, j, l], %{{.*}}[i, m, l], %{{.*}}[i, m, k]) -> [i, j, k] scale(1.250000e-01) over [block, block x seq(128), seq, seq, seq] : (tensor<2x256x64xbf16>, tensor<2x256x64xbf16>, tensor<2x256x64xbf16>) -> tensor<2x256x64xbf16>
// ROUNDTRIP-LABEL: func.func @flash_f16_f32_out
// ROUNDTRIP: -> tensor<2x256x64xf32>
func.func @flash_bf16(%q: tensor<2x256x64xbf16>, %k: tensor<2x256x64xbf16>, %v: tensor<2x256x64xbf16>) -> tensor<2x256x64xbf16> {
  %y = motif.kernel "flash" threads(128) -> tensor<2x256x64xbf16> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125)
           over [block, block x seq(128), seq, seq, seq]
           : (tensor<2x256x64xbf16>, tensor<2x256x64xbf16>, tensor<2x256x64xbf16>) -> tensor<2x256x64xbf16>
    %g = motif.materialize %o in global : tensor<2x256x64xbf16>
    motif.yield %g : tensor<2x256x64xbf16>
  }
  return %y : tensor<2x256x64xbf16>
}
func.func @flash_f16_f32_out(%q: tensor<2x256x64xf16>, %k: tensor<2x256x64xf16>, %v: tensor<2x256x64xf16>) -> tensor<2x256x64xf32> {
  %y = motif.kernel "flash" threads(128) -> tensor<2x256x64xf32> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125)
           over [block, block x seq(64), seq, seq, seq]
           : (tensor<2x256x64xf16>, tensor<2x256x64xf16>, tensor<2x256x64xf16>) -> tensor<2x256x64xf32>
    %g = motif.materialize %o in global : tensor<2x256x64xf32>
    motif.yield %g : tensor<2x256x64xf32>
  }
  return %y : tensor<2x256x64xf32>
}

// examples/mha_bf16.mlir unchanged: eight kernels become one; the rounding of
// the output (kernel 'attn_out') is absorbed (the op's result is bf16); 2
// heads x 256 rows give too few blocks for 128 rows, so 16 rows in one warp.
// BF16: remark: rule 4 (online contraction): the softmax over dim [2] of the scores (kernel 'attn_scores', scaled in 'attn_scale'; max 'attn_max', exp 'attn_exp', sum 'attn_sum', divide 'attn_probs') and its contraction with argument #2 (kernel 'attn_pv'), rounded to bf16 in 'attn_out', merged into one motif.online_contract in kernel 'attn_pv_online', carrying (max, sum, acc) over tiles of the keys, 16 rows per block in 32 threads (1 warp of 1 m-tile, 64-key tiles, 3 stages) on tensor cores (mma.sync m16n8k16 bf16, f32 accumulators; S and P in accumulator fragments)
// BF16-SAME: class mathematical
// BF16-LABEL: func.func @mha_bf16
// BF16-NOT: motif.kernel "attn_
// BF16: motif.kernel "attn_pv_online" threads(32) -> tensor<2x256x64xbf16>
// BF16-NEXT: motif.online_contract {{.*}} over [block, block x seq(16), seq, seq, seq]
// BF16-SAME: (tensor<2x256x64xbf16>, tensor<2x256x64xbf16>, tensor<2x256x64xbf16>) -> tensor<2x256x64xbf16>
// BF16-NOT: motif.kernel
// BF16: return

// P rounded by a map of its own is found too, and so is the output's rounding.
// ROUNDMAP: remark: rule 4 (online contraction): {{.*}} (P rounded to f16 in 'attn_round'), rounded to f16 in 'attn_out', merged into one motif.online_contract
// ROUNDMAP-NOT: motif.kernel "attn_
// ROUNDMAP: motif.kernel "attn_pv_online" threads(32) -> tensor<3x64x64xf16>
// ROUNDMAP-NOT: motif.kernel "attn_

// The rounded probabilities are also returned: no flash form, and why.
// NEGATIVE_P: remark: rule 4 (online contraction) not applied to the softmax of kernel 'attn_max' and the contraction of kernel 'attn_pv': the rounded probabilities is also read by the function's return (the flash form never stores it)
// NEGATIVE_P-NOT: online_contract

// 24 rows, not a multiple of the 16 rows of an m-tile: 32 and 16 pad alike
// (to 32 rows), and below 128 blocks the smaller wins: two blocks of 16, the
// second partial.
// PARTIAL_ROWS: remark: rule 4 (online contraction): {{.*}} 16 rows per block (the last of 2 partial, its rows past 24 masked) in 32 threads
// PARTIAL_ROWS: motif.kernel "attn_pv_online" threads(32) -> tensor<24x64xbf16>
// PARTIAL_ROWS-NEXT: motif.online_contract {{.*}} over [block x seq(16), seq, seq, seq]

// Below the mathematical cap: declined with the reason.
// NEGATIVE_CAP: remark: rule 4 (online contraction) not applied {{.*}}: the equivalence cap is 'tolerance'
// NEGATIVE_CAP-NOT: online_contract

// REPORT: attn_pv_online (online_contract query rows) tensor<2x256x64xbf16>  global    shared                 0            2304         1  rule 4: staged by the flash lowering, 16 rows of 64 elements per block, padded by 8
// REPORT: attn_pv_online (online_contract key tile) tensor<2x256x64xbf16>    global    shared                 0           27648         1  rule 4: staged by the flash lowering, 64 rows of 64 elements per block, 3 stages (cp.async: the next 2 tiles land while this one is used)
// REPORT: attn_pv_online (online_contract value tile) tensor<2x256x64xbf16>  global    shared                 0           27648
// REPORT: attn_pv_online (online_contract scores S, probabilities P)         global    register          786432               0         0  rule 4: never stored; S of the current key tile is an mma.sync accumulator fragment
// REPORT: total: 1 kernel(s), 786432 global bytes saved, 57600 shared bytes

// EQUIV: PASS (mathematical: rel err <= 1.00e-03, #0 {{.*}} against the f64 reference)
// WRONG: FAIL (mathematical
