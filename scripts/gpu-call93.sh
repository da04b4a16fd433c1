#!/usr/bin/env bash
# Session 2026-12-06 (21), any card. Carry .prebuilt20, .rowvar19, .rowvar21 and .whl.
#  0. On an H200 only: issue 13's bf16 row table (gpu-call87.sh over .prebuilt20).
#  1. Any card: block shapes for softmax_bf16 8192x4096 (.rowvar21/sm4096_t<threads>_r<rows a block>):
#     the mathematical form as the compiler fuses it (t256_r1, byte for byte the bench's kernel), its
#     threads and rows a block changed by hand in the fused IR (threads(T), `block x seq(R)`), each
#     compiled with this commit's motif-compile; tolerance class against t256_r1 (another tree), with
#     tutorial 02's Triton softmax beside them. Fewer blocks: less block launch in the bracket?
#  2. Any card: Nsight Compute on session 19's rows-a-block variants of bf16 softmax 16384 x 512 / 1024
#     under tolerance on 64 threads (.rowvar19/sm*_r{1,4}): why 4 rows a block lost 11-17% there.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in
*H200*) "$root/scripts/gpu-call87.sh" .prebuilt20 || status=1 ;;
esac
v=.rowvar21/sm4096
timeout 150 python3 scripts/hint-variants.py ${v}_t256_r1 ${v}_t512_r1 ${v}_t512_r2 ${v}_t1024_r2 ${v}_t1024_r4 \
  ${v}_t256_r2 ${v}_t128_r1 --rtol 1e-2 --rounds 3 --triton-softmax 2>&1 | tee "$logs/sm4096-block-shapes.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
"$root/scripts/ncu-rows.sh" .rowvar19/sm1024_r1 .rowvar19/sm1024_r4 .rowvar19/sm512_r1 .rowvar19/sm512_r4 \
  || status=1
exit $status
