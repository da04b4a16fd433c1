#!/usr/bin/env bash
# Session 2026-12-06 (17): compute-sanitizer racecheck and memcheck on rows-a-block kernels (any card).
# Carry .rowvar17b and .whl (gpu-call78.sh's header): the bf16 16384x1024 mathematical (64 threads, 4 rows
# a block) and fused (256 threads, 4 rows a block: two scratch sets used in turn by the rows) kernels and
# the f32 32768x256 fused one, one checked launch each (scripts/hint-variants.py --rounds 0).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
for d in softmax_bf16_16384x1024_math_new softmax_bf16_16384x1024_fused_new softmax_32768x256_fused_new; do
  gpu_sanitize .rowvar17b/$d sanitizers-rows-a-block.txt
done
echo "call rc $status"
exit $status
