#!/usr/bin/env bash
# Session 2026-12-06 (17): issue 13's bf16 row table with this session's compiler (rows a block), only on
# an H200 (on any other card it stops at once). Carry .prebuilt17b, .rowvar17b and .whl (gpu-call78.sh's header).
#  0. bench/proto/copy_forms.cu (every way to move these bytes; the empty kernels' fixed cost).
#  1. motif.bench of the bf16 rows (softmax_bf16 every shape, layernorm_bf16, rmsnorm_bf16).
#  2. rows a block against one row a block (bf16 16384x1024, f32 32768x256), bit for bit, 3 rounds.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt17b"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in *H200*) ;; *) echo "not an H200 ($name): nothing run"; exit 0 ;; esac
nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/copyforms bench/proto/copy_forms.cu && timeout 100 /tmp/copyforms 2>&1 \
  | tee "$logs/copy-forms.txt" | grep -E "copy ceiling|^row |^memcpy|^empty|^row2|^bulk-8x3"
timeout 300 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
  --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
  | grep -v unfused | grep -E "copy|motif math|motif fused|norm|body" | cut -c1-170
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for x in softmax_bf16_16384x1024_math softmax_bf16_16384x1024_fused softmax_32768x256_math softmax_32768x256_fused; do
  timeout 60 python3 scripts/hint-variants.py .rowvar17b/${x}_old .rowvar17b/${x}_new --rounds 3 2>&1 | tail -n 4 \
    | tee -a "$logs/rows-a-block.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
echo "call rc $status"
exit $status
