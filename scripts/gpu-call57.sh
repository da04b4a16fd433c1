#!/usr/bin/env bash
# Session 2026-12-05 (13), second device call. Carry .clvar13, .whl (as in gpu-call56.sh).
# bf16 1024x131072: the cluster kernel against its exchange barriers relaxed, timed although its output
# differs (hint-variants --time-wrong): what the exchanges' MEMBAR.ALL.GPU cost at most.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
d=.clvar13/softmax_bf16-1024x131072
timeout 90 python3 scripts/hint-variants.py $d/default $d/default_exchrelaxed $d/cta256 --rounds 3 --time-wrong \
  2>&1 | tail -n 10 | tee "$logs/cluster-exchrelaxed.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
