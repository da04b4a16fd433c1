#!/usr/bin/env bash
# Session 2026-12-04 (4), device call 14: after the flash form's two warpgroups and P.V one key tile
# behind the scores became rule 4's default on sm_90a (E >= 128): the flash GPU tests (the half edge
# shapes in five builds, the wgmma sanitizer tests with ping-pong under synccheck), issue 13's families
# in one motif.bench run, and the flash variants (defaults, bf16 and f16, D = 64 and 128) against SDPA
# and Triton. Needs .prebuilt (python3 -m motif.prebuild .prebuilt) and .variants. Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 150 python3 scripts/flash-variants.py .variants/*_h64_*/ 2>&1 | tee "$logs/flash-variants.txt"
grep -q WRONG "$logs/flash-variants.txt" && status=1
timeout 330 python3 -m pytest -q -rs python/tests/test_gpu.py -k "flash" 2>&1 | tee "$logs/pytest-flash.txt" | tail -n 8
[ "${PIPESTATUS[0]}" = 0 ] || status=1
timeout 200 python3 -m motif.bench \
  --families ${BENCH_FAMILIES:-softmax_bf16,layernorm_bf16,rmsnorm_bf16,gemm_bf16,gemm_f16,linear_bf16,mha_bf16,mha_f16} \
  --json "$logs/bench.json" --png "$logs/bench.png" 2>"$logs/bench-progress.txt" | tee "$logs/bench.txt" | tail -n 40
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
