module {
  func.func @attention(%arg0: tensor<64x4000x64xbf16>, %arg1: tensor<64x4000x64xbf16>, %arg2: tensor<64x4000x64xbf16>) -> tensor<64x4000x64xbf16> attributes {motif.equivalence = #motif<equivalence mathematical>, motif.invariants = {deps = [array<i64: 0, 1, 2>], observables = 0 : i64, reductions = []}} {
    %0 = motif.kernel "attn_pv_online" threads(64) -> tensor<64x4000x64xbf16> {
      %1 = motif.online_contract (%arg0[i, j, m], %arg1[i, l, m], %arg2[i, l, k]) -> [i, j, k] scale(1.250000e-01) stages(4) over [block, block x seq(32), seq, seq, seq] {motif.rewrite = "rule 4 (online contraction): the softmax over dim [2] of the scores (kernel 'attn_scores', scaled in 'attn_scale'; max 'attn_max', exp 'attn_exp', sum 'attn_sum', divide 'attn_probs') and its contraction with argument #2 (kernel 'attn_pv'), rounded to bf16 in 'attn_out', merged into one motif.online_contract in kernel 'attn_pv_online', carrying (max, sum, acc) over tiles of the keys, 128 rows per block (the last of 32 partial, its rows past 4000 masked) in 256 threads (8 warps of 1 m-tile, 64-key tiles, 4 stages) on tensor cores (mma.sync m16n8k16 bf16, f32 accumulators; S and P in accumulator fragments; compiled for sm_90a, S = Q K^T on wgmma.mma_async m64n64k16 from swizzled shared Q and K tiles, and P V on wgmma.mma_async m64n64k16, P rounded in registers as its A operand (motif_nvvm.wgmma_rs), V MN-major (online-wgmma-pv=auto), one key tile behind the scores (online-overlap=auto), in two warpgroups of 64 rows); scale 1.250000e-01 (exp as exp2, log2(e) folded in); class mathematical (partial sums rescaled as the max grows; the division after the contraction); the scores and the probabilities are never stored"} : (tensor<64x4000x64xbf16>, tensor<64x4000x64xbf16>, tensor<64x4000x64xbf16>) -> tensor<64x4000x64xbf16>
      %2 = motif.materialize %1 in global {motif.producer = "attn_pv_online#0", motif.rule = "rule 1: externally observable (returned by the function)", motif.saved_bytes = 0 : i64, motif.was = #motif<residency global>} : tensor<64x4000x64xbf16>
      motif.yield %2 : tensor<64x4000x64xbf16>
    }
    return %0 : tensor<64x4000x64xbf16>
  }
}

