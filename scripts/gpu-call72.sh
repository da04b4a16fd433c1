#!/usr/bin/env bash
# Session 2026-12-06 (16), fifth device call (any card). Carry .fuzz16, .prebuilt16 and .whl (made as
# gpu-call71.sh's and gpu-call70.sh's headers say).
#  0. Every one of the 46 cluster forms of .fuzz16 (20 of them through st.async + mbarriers) under
#     racecheck and memcheck, with motif.fuzz_gpu's numerics of all 600 forms again (fresh inputs).
#  1. motif.bench of the bf16 rows again (on whichever card comes: an H200 measures the issue's figure).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt16"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz16/programs.tar.xz
timeout 330 python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --memcheck 0 --sanitize-clusters 46 \
  --log "$logs/fuzz-gpu-clusters.log" 2>&1 | tail -n 16 | tee "$logs/fuzz-gpu-clusters.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 200 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
  --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
  | grep -v unfused | grep -E "copy|motif math|motif fused|norm" | cut -c1-200
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
