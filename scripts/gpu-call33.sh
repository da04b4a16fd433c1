#!/usr/bin/env bash
# Session 2026-12-04 (6), device call 33: issue 13's families in one motif.bench run with the L2
# evict_last load policy on by default (motif-ptx-l2-load-policy), then the fp32 memory-bound
# families (softmax, layernorm, rmsnorm, residual_relu) against their last run without it. Needs
# .prebuilt (python3 -m motif.prebuild .prebuilt). Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
timeout 330 python3 -m motif.bench \
  --families ${BENCH_FAMILIES:-softmax_bf16,layernorm_bf16,rmsnorm_bf16,gemm_bf16,gemm_f16,linear_bf16,mha_bf16,mha_f16} \
  --json "$logs/bench.json" --png "$logs/bench.png" 2>"$logs/bench-progress.txt" | tee "$logs/bench.txt" | tail -n 70
status=${PIPESTATUS[0]}
timeout 200 python3 -m motif.bench --families ${BENCH_F32:-softmax,layernorm,rmsnorm,residual_relu} \
  --json "$logs/bench-f32.json" 2>"$logs/bench-f32-progress.txt" | tee "$logs/bench-f32.txt" | tail -n 40
[ "${PIPESTATUS[0]}" = 0 ] || status=1
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
