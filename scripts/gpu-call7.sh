#!/usr/bin/env bash
# Session 2026-12-04 (3), device call 7: the mma.sync GEMM with fragments one slice ahead
# (mma-fragment-pipeline) against the previous mainloop and cuBLAS (.variants/g-*, made by
# scripts/make-gemm-variants.py), ncu stall reasons of the new w8 loop, the hand-written
# mma.sync prototype (bench/proto/run-gemm.sh), the flash form with P.V on wgmma by default at
# D = 128 (.variants/bf16_*, scripts/make-flash-variants.py), and the GPU tests of both
# (pytest -k: flash edges half / wgmma sanitizers / tensor-core GEMMs). Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 150 python3 scripts/gemm-variants.py $(ls -d .variants/g-*/) 2>&1 | tee "$logs/gemm-variants.txt"
grep -q WRONG "$logs/gemm-variants.txt" && status=1
timeout 120 python3 scripts/flash-variants.py $(ls -d .variants/bf16_*/) 2>&1 | tee "$logs/flash-variants.txt"
timeout 60 bench/proto/run-gemm.sh > "$logs/proto-gemm.txt" 2>&1; tail -n 40 "$logs/proto-gemm.txt"
OUT="$logs" timeout 120 scripts/ncu-gemm.sh ".variants/g-w8 .variants/g-w8-off" > "$logs/ncu-summary.txt" 2>&1
grep -E "stalled|Eligible|Issued Warp|Duration" "$logs/ncu-summary.txt" | head -80
timeout 330 python3 -m pytest -q -rs python/tests/test_gpu.py -k "flash_form_edges_half or flash_wgmma_sanitizers or gemm or tensor" \
  2>&1 | tee "$logs/pytest.txt" | tail -n 15; [ "${PIPESTATUS[0]}" = 0 ] || status=1
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
