#!/usr/bin/env bash
# Session 2026-12-05 (13), third device call. Carry .clvar13, .whl (as gpu-call56.sh, then
#   d=.clvar13/softmax_bf16-1024x131072 && python3 scripts/make-ptx-variants.py $d/default $d noexit exchrelaxed+noexit)
# bf16 1024x131072: what the exit barrier costs (noexit: removed) and what every barrier's MEMBAR but
# none of the exchanges costs together (exchrelaxed+noexit). Bounds, not kernels: each runs in its own
# process, last, in case a CTA that leaves early faults.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
d=.clvar13/softmax_bf16-1024x131072
for v in default_noexit default_exchrelaxed_noexit; do
  timeout 60 python3 scripts/hint-variants.py $d/default $d/$v --rounds 3 --time-wrong 2>&1 | tail -n 6 \
    | tee -a "$logs/cluster-barrier-bounds.txt"
done
echo "call rc $status"
exit $status
