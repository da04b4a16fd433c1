#!/usr/bin/env bash
# Session 2026-12-06 (20), any card: the whole GPU pytest suite (not run whole since session 16) with
# this commit's compiler (rows a block bounded by 16 elements a thread). On an H200 first issue 13's
# bf16 row table. Carry .prebuilt20 and .whl:
#   rm -rf .prebuilt20 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt20 \
#     && find .prebuilt20 -name '*.sass' -delete
#  0. On an H200 only: motif.bench of softmax_bf16, layernorm_bf16, rmsnorm_bf16, every peer in one run.
#  1. Any card: python3 -m pytest python/tests (the GPU tests run for real; those needing
#     motif-compile skip: the GPU machine has no LLVM).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt20"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in
*H200*)
  timeout 200 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
    --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
    | grep -v unfused | grep -E "copy|motif math|motif fused|norm|body" | cut -c1-170
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  secs=330 ;;
*) echo "not an H200 ($name): the bf16 row table is not run"; secs=540 ;;
esac
timeout "$secs" python3 -m pytest -q -rs python/tests -p no:cacheprovider 2>&1 | tee "$logs/pytest-gpu.txt" | tail -n 25
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
