#!/usr/bin/env bash
# Session 2026-12-04 (5), device call 26: convert-motif-to-gpu's grid-group (blocks in groups of rows,
# Triton's GROUP_M order) on the 8192^3 GEMMs: gemm_bf16_w8 at groups 1 / 4 / 8 / 16, gemm_f16_w8 and
# linear_bf16 (wgmma) at 1 / 8 (/ 16), against cuBLAS, twice in one run (.gemmvar from
# scripts/make-gemm-variants.py). Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
for run in 1 2; do
  timeout 140 python3 scripts/gemm-variants.py ${GEMM_VARIANTS:-.gemmvar/*/} 2>&1 | tee "$logs/gemm-grid-group-$run.txt" | tail -n 12
  grep -q WRONG "$logs/gemm-grid-group-$run.txt" && status=1
done
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
