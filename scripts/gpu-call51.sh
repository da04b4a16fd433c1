#!/usr/bin/env bash
# Session 2026-12-05 (12), fourth device call, in the hope of an H200 (the first three ran on an H100).
# Carry .prebuilt12, .clvar12, .whl (made as in gpu-call48/49.sh; lib/ unchanged since).
#  1. motif.bench: issue 13's bf16 rows, every shape, after the memset lead.
#  2. bf16 1024x131072: this session's cluster kernel against session 11's, bit for bit, then timed.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt12"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
timeout 200 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
  --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
  | grep -v unfused | cut -c1-230
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
d=.clvar12/softmax_bf16-1024x131072
timeout 60 python3 scripts/hint-variants.py $d/default $d/old-default $d/cta256 --rounds 2 2>&1 | tail -n 8 \
  | tee "$logs/cluster-1024x131072.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
