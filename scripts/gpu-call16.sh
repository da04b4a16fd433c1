#!/usr/bin/env bash
# Session 2026-12-04 (4), device call 16: Nsight Compute on the flash form's default kernels (D = 128: two
# warpgroups, P.V behind the scores; D = 64: one warpgroup) -- where the time goes, shared-memory
# traffic above all; then examples/gemm_f16_w8.mlir (new) against gemm_bf16_w8, gemm_f16 and cuBLAS at
# 8192^3 (scripts/gemm-variants.py) and the GPU tests of the GEMM families (numerics of every variant,
# sanitizers). Needs .variants and .prebuilt. Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 120 python3 scripts/gemm-variants.py .variants/g-f16w8/ .variants/g-bf16w8/ .variants/g-f16/ 2>&1 | tee "$logs/gemm-variants.txt"
grep -q WRONG "$logs/gemm-variants.txt" && status=1
OUT="$logs" timeout 200 scripts/ncu-flash.sh ".variants/bf16_h64_s4096_n4096_d128_e128_chipsm_90a .variants/bf16_h64_s4096_n4096_d64_e64_chipsm_90a" > "$logs/ncu-summary.txt" 2>&1 || status=1
grep -E "Shared|gmma|Duration|Compute \(SM\)|Memory Throughput|L1/TEX Hit|Eligible|Issued Warp|stalled_(barrier|long_scoreboard|short_scoreboard|mio_throttle|math_pipe|wait|lg_throttle|membar)" "$logs/ncu-summary.txt" | head -70
timeout 200 python3 -m pytest -q -rs python/tests/test_gpu.py -k "gemm" 2>&1 | tee "$logs/pytest-gemm.txt" | tail -n 4
[ "${PIPESTATUS[0]}" = 0 ] || status=1
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
