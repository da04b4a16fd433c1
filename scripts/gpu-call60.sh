#!/usr/bin/env bash
# Session 2026-12-05 (13). Carry .clvar13, .whl (as gpu-call59.sh, then pushrc: the same motif-compile with
# cluster-push's start arrive a release, the compiler of the commit that adds this script).
# bf16 1024x131072: the cluster kernel, pull (default) against cluster-push with a relaxed start arrive
# (pushc) and with a release one (pushrc), bit for bit, then timed; memcheck and racecheck of pushrc.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
d=.clvar13/softmax_bf16-1024x131072
timeout 90 python3 scripts/hint-variants.py $d/default $d/pushrc $d/pushc $d/default_pushrel --rounds 5 2>&1 | tail -n 8 \
  | tee "$logs/cluster-push-release.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
gpu_sanitize $d/pushrc cluster-push-release-sanitizer.txt
echo "call rc $status"
exit $status
