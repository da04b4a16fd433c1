#!/usr/bin/env bash
# Session 2026-12-05 (12), last device call: motif.bench softmax_bf16 with rule 6's register case on
# (d235528). Carry .prebuilt13 and .whl. Prepared with the compiler of c72706c:
#   rm -rf .prebuilt13 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt13 \
#     --families softmax_bf16 && find .prebuilt13 -name '*.sass' -delete
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt13"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
timeout 200 python3 -m motif.bench --families softmax_bf16 --json "$logs/bench-softmax-bf16.json" \
  2>"$logs/bench-softmax-bf16-progress.txt" | tee "$logs/bench-softmax-bf16.txt" | grep -v unfused | cut -c1-230
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
