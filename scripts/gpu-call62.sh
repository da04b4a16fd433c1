#!/usr/bin/env bash
# Session 2026-12-05 (14), first device call: bench/proto/bf16_short_rows.cu with session 14's variants
# (O: one block-wide reduction of the online state (m, l), one barrier; B: no block-wide step, a wrong
# kernel that bounds what the two barriers of motif's schedule cost), twice, on whichever card comes.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -o /tmp/bf16short bench/proto/bf16_short_rows.cu \
  > "$logs/proto-bf16-short-ptxas.txt" 2>&1 || { tail "$logs/proto-bf16-short-ptxas.txt"; exit 1; }
for run in 1 2; do
  timeout 200 /tmp/bf16short 2>&1 | tee "$logs/proto-bf16-short-rows-run$run.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
echo "call rc $status"
exit $status
