#!/usr/bin/env bash
# Session 2026-12-05 (12), third device call. Carry .clvar12, .ptxvar12, .whl (made as in gpu-call49.sh).
# gpu-call49's step 0 ended in CUDA_ERROR_LAUNCH_FAILED before its table: which relaxed-arrive variant
# faults? Each alone against the default (bit for bit, then timed), then compute-sanitizer memcheck on
# one launch of each.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
d=.clvar12/softmax_bf16-1024x131072 p=.ptxvar12/softmax_bf16-1024x131072
for v in $d/cta256 $p/default_exitrelaxed $p/cta256_exitrelaxed $p/default_allrelaxed; do
  echo "== $v" | tee -a "$logs/cluster-membar.txt"
  timeout 60 python3 scripts/hint-variants.py $d/default $v --rounds 2 2>&1 | grep -v "^  File\|^Traceback\|^Exception ignored\|cupy_backends" \
    | tail -n 8 | tee -a "$logs/cluster-membar.txt"
done
for v in $p/default_exitrelaxed $p/default_allrelaxed; do
  echo "== memcheck $v" | tee -a "$logs/cluster-membar-memcheck.txt"
  timeout 90 compute-sanitizer --tool memcheck --print-limit 4 python3 scripts/hint-variants.py $v --rounds 0 2>&1 \
    | grep -v "^  File\|^Traceback\|cupy_backends" | head -n 30 | tee -a "$logs/cluster-membar-memcheck.txt"
done
echo "call rc $status"
exit $status
