#!/usr/bin/env bash
# Session 2026-12-07 (24): on an H200 only, issue 13's bf16 row table (motif.bench of softmax_bf16,
# layernorm_bf16, rmsnorm_bf16, every peer in the same run) with this session's compiler; on any other
# card nothing (it says which). Carry .prebuilt24 (scripts/gpu-call101.sh says how) and .whl.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt24"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in
*H200*)
  timeout 400 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
    --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
    | grep -v unfused | grep -E "copy|motif math|motif fused|norm|body" | cut -c1-170
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
*) echo "not an H200 ($name): the bf16 row table is not run" ;;
esac
echo "call rc $status"
exit $status
