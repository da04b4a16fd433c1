#!/usr/bin/env bash
# Session 2026-12-06 (19), the last of the device time: on an H200 only, issue 13's bf16 row table
# (motif.bench, .prebuilt19: this compiler's code for those 2-D programs; another folder as $1).
# On any other card: nothing.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in *H200*) ;; *) echo "not an H200 ($name): nothing run"; exit 0 ;; esac
MOTIF_PREBUILT="$root/${1:-.prebuilt19}" timeout 220 python3 -m motif.bench \
  --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 --json "$logs/bench-rows-bf16.json" \
  2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
  | grep -v unfused | grep -E "copy|motif math|motif fused|norm|body" | cut -c1-170
exit "${PIPESTATUS[0]}"
