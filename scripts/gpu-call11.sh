#!/usr/bin/env bash
# Session 2026-12-04 (3), device call 11: the 2-D warp grid (examples/gemm_bf16_2d.mlir: warp(4) on
# i, warp(2) on j, 64x64 warp tiles) against gemm_bf16_w8's 32x128 strips and cuBLAS in one run
# (.variants/g-2d*, g-w8), then the GPU tests of the GEMM families (numerics of every variant,
# racecheck/memcheck). Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 120 python3 scripts/gemm-variants.py .variants/g-w8 .variants/g-2d .variants/g-2d-s4 .variants/g-2d-k32s4 2>&1 | tee "$logs/gemm-variants.txt"
grep -q WRONG "$logs/gemm-variants.txt" && status=1
timeout 300 python3 -m pytest -q -rs python/tests/test_gpu.py -k "gemm" 2>&1 | tee "$logs/pytest.txt" | tail -n 5
[ "${PIPESTATUS[0]}" = 0 ] || status=1
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
