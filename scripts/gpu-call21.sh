#!/usr/bin/env bash
# Session 2026-12-04 (5), device call 21: issue 13's families in one motif.bench run after P V on
# wgmma with P in registers became the default (mha_bf16 / mha_f16 at D = 64 and 128 against SDPA
# and the Triton flash kernel; gemm_f16_w8 in a one-run bench for the first time). Needs .prebuilt
# (python3 -m motif.prebuild .prebuilt). Then test_flash_wgmma_sanitizers with the new defaults'
# expectations. Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
timeout 300 python3 -m motif.bench \
  --families ${BENCH_FAMILIES:-softmax_bf16,layernorm_bf16,rmsnorm_bf16,gemm_bf16,gemm_f16,linear_bf16,mha_bf16,mha_f16} \
  --json "$logs/bench.json" --png "$logs/bench.png" 2>"$logs/bench-progress.txt" | tee "$logs/bench.txt" | tail -n 60
status=${PIPESTATUS[0]}
timeout 250 python3 -m pytest -q -rs python/tests/test_gpu.py -k test_flash_wgmma_sanitizers 2>&1 | tee "$logs/pytest-sanitizers.txt" | tail -n 4
[ "${PIPESTATUS[0]}" = 0 ] || status=1
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
