#!/usr/bin/env bash
# Session 2026-12-05 (9): the bf16 long-row prototype (bench/proto/run-bf16-rows.sh), motif's bf16
# 2048x65536 kernel of today with Triton, then scripts/gpu-call38.sh (f32 rows of 131072: rule 4 vs
# clusters). Carry .cluvar2 and .whl.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
OUT="$logs" bench/proto/run-bf16-rows.sh
echo "== motif bf16 2048x65536 today"
timeout 60 python3 scripts/hint-variants.py .cluvar2/softmax_bf16-2048x65536/default --triton-softmax --rounds 3 2>&1 | tail -n 5 | tee "$logs/bf16-65536-today.txt"
bash scripts/gpu-call38.sh
