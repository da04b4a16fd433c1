#!/usr/bin/env bash
# Session 2026-12-06 (16), eighth device call: only on an H200 (on any other card it stops at once).
# Carry .mbvar16 and .whl (gpu-call74.sh's header). .mbvar16/mbarrier_allrelaxed is byte for byte what
# the compiler emits since the relaxed start (checked with diff against motif-compile's PTX).
#  0. bf16 softmax 1024x131072: cluster barriers (base), cluster-mbarrier with the release start (gpu-call73.sh:
#     138.9 us against 143.3 on the H200), with the relaxed start (the compiler now), bit for bit, 3 rounds.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in *H200*) ;; *) echo "not an H200 ($name): nothing run"; exit 0 ;; esac
timeout 100 python3 scripts/hint-variants.py .mbvar16/barrier .mbvar16/mbarrier .mbvar16/mbarrier_allrelaxed --rounds 3 \
  2>&1 | tail -n 7 | tee "$logs/cluster-mbarrier-relaxed-start.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
