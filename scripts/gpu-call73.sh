#!/usr/bin/env bash
# Session 2026-12-06 (16), sixth device call: only on an H200 (the issue's card; on any other it stops at
# once). Carry .mbvar16, .prebuilt16 and .whl (gpu-call70.sh's header).
#  0. bf16 softmax 1024x131072 with cluster barriers against cluster-mbarrier (the default), bit for bit,
#     3 rounds of 40.
#  1. motif.bench of the bf16 rows.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt16"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in *H200*) ;; *) echo "not an H200 ($name): nothing run"; exit 0 ;; esac
timeout 100 python3 scripts/hint-variants.py .mbvar16/barrier .mbvar16/mbarrier --rounds 3 2>&1 | tail -n 6 \
  | tee "$logs/cluster-mbarrier-1024x131072.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 200 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
  --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
  | grep -v unfused | grep -E "copy|motif math|motif fused|norm" | cut -c1-200
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
