#!/usr/bin/env bash
# Session 2026-12-06 (20): on an H200 only, issue 13's bf16 row table
# (motif.bench, .prebuilt20 as scripts/gpu-call90.sh makes it). On any other card: nothing.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in *H200*) ;; *) echo "not an H200 ($name): nothing run"; exit 0 ;; esac
MOTIF_PREBUILT="$root/.prebuilt20" timeout 220 python3 -m motif.bench \
  --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 --json "$logs/bench-rows-bf16.json" \
  2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
  | grep -v unfused | grep -E "copy|motif math|motif fused|norm|body" | cut -c1-170
exit "${PIPESTATUS[0]}"
