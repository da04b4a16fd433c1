#!/usr/bin/env bash
# Session 2026-12-07 (25), any card: the tensor-core default schedule's k step (32) against larger ones at
# shapes whose default tile is small (16x16 .. 64x64; GEMV-like 1 and 16 rows), each variant checked
# against float64 first, cuBLAS and Triton in the same run. Carry .kstep25 (scripts/make-kstep-variants.sh
# .kstep25) and .whl.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 300 python3 scripts/gemm-variants.py $(ls -d .kstep25/*_k* | sort -V) 2>&1 | tee "$logs/kstep-variants.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
