#!/usr/bin/env bash
# Session 2026-12-06 (21), any card. Carry .prebuilt20, .rowvar19 and .whl.
#  0. On an H200 only: issue 13's bf16 row table (gpu-call87.sh over .prebuilt20).
#  1. Any card: Nsight Compute on session 19's rows-a-block variants of bf16 softmax 16384 x 512 / 1024
#     under tolerance on 64 threads (.rowvar19/sm*_r{1,4}): why 4 rows a block lost 11-17% there.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in
*H200*) "$root/scripts/gpu-call87.sh" .prebuilt20 || status=1 ;;
esac
"$root/scripts/ncu-rows.sh" .rowvar19/sm1024_r1 .rowvar19/sm1024_r4 .rowvar19/sm512_r1 .rowvar19/sm512_r4 \
  || status=1
exit $status
