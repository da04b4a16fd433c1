#!/usr/bin/env bash
# Session 2026-12-06 (17): rows a block (RowBlocks.cpp; the compiler of this commit) on the GPU, any card.
# Carry .rowvar17b, .prebuilt17b and .whl. Made on the CPU machine with this commit's motif-compile:
#   .rowvar17b/<family>_<MxN>_<form>_<old|new>: softmax_bf16 16384x1024, softmax 16384x1024 and 32768x256
#   (examples specialised; function softmax[_bf16]); math = --fuse-options=equivalence-cap=mathematical,
#   fused = the bitwise cap; old = the same with row-blocks=false (math_old from the source with
#   threads(64), what the row-blocks rule chose before: one row a block), new = this compiler (4 rows a
#   block). .prebuilt17b = python3 -m motif.prebuild .prebuilt17b --families
#   softmax,softmax_bf16,layernorm_bf16,rmsnorm_bf16 (*.sass deleted).
#  0. each new form against its old one: bit for bit (hint-variants reports WRONG otherwise), 3 rounds of 40.
#  1. motif.bench of softmax_bf16 and softmax at their first two shapes (16384x1024 and 8192x4096;
#     32768x256 and 16384x1024), every result against float64 first; the 'body' column.
#  2. On an H200 only: bench/proto/copy_forms.cu, then motif.bench of the bf16 rows (issue 13's table).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt17b"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
v=.rowvar17b
for s in softmax_bf16_16384x1024 softmax_16384x1024 softmax_32768x256; do
  for f in math fused; do
    timeout 60 python3 scripts/hint-variants.py $v/${s}_${f}_old $v/${s}_${f}_new --rounds 3 2>&1 | tail -n 4 \
      | tee -a "$logs/rows-a-block.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  done
done
timeout 200 python3 -m motif.bench --families softmax_bf16,softmax --max-shapes 2 --json "$logs/bench-short-rows.json" \
  2>"$logs/bench-short-rows-progress.txt" | tee "$logs/bench-short-rows.txt" | grep -v unfused | cut -c1-160
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
case "$name" in
*H200*)
  nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/copyforms bench/proto/copy_forms.cu && timeout 100 /tmp/copyforms 2>&1 \
    | tee "$logs/copy-forms.txt" | grep -E "copy ceiling|^row |^memcpy|^empty"
  timeout 260 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
    --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
    | grep -v unfused | grep -E "copy|motif math|motif fused|norm|body" | cut -c1-160
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
esac
echo "call rc $status"
exit $status
