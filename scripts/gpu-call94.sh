#!/usr/bin/env bash
# Session 2026-12-06 (21), any card: batched exchanges (one barrier for a thread's rows; docs/lowering.md,
# "Batched exchanges"). Carry .prebuilt21 (made with this commit's compiler, the row families only:
#   MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt21 \
#     --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 && find .prebuilt21 -name '*.sass' -delete),
# .rowvar19 (session 19's compiler: a barrier a row), .rowvar21 (this commit's) and .whl.
#  0. On an H200 only: issue 13's bf16 row table (gpu-call87.sh over .prebuilt21, or the folder in $1).
#  1. bf16 softmax 16384 x 1024 and x 512 under tolerance on 64 threads, 1 / 2 / 4 rows a block, a barrier
#     a row (.rowvar19/sm*_r*) against one barrier a reduction (.rowvar21/sm*_t64_r*): bit for bit.
#  2. softmax_bf16 8192x4096 (mathematical) block shapes (.rowvar21/sm4096_t<threads>_r<rows>; _old: a barrier
#     a row), tolerance class against t256_r1 (the compiler's own), tutorial 02's Triton beside them.
#  3. Nsight Compute on 16384 x 1024: one row, 4 rows with a barrier a row, 4 rows batched.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in
*H200*) "$root/scripts/gpu-call87.sh" "${1:-.prebuilt21}" || status=1 ;;
esac
o=.rowvar19 n=.rowvar21
timeout 100 python3 scripts/hint-variants.py $o/sm1024_r1 $o/sm1024_r2 $o/sm1024_r4 $n/sm1024_t64_r2 $n/sm1024_t64_r4 \
  --rounds 3 2>&1 | tee "$logs/batched-exchange-sm1024.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 100 python3 scripts/hint-variants.py $o/sm512_r1 $o/sm512_r2 $o/sm512_r4 $n/sm512_t64_r2 $n/sm512_t64_r4 \
  --rounds 3 2>&1 | tee "$logs/batched-exchange-sm512.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
v=$n/sm4096
timeout 170 python3 scripts/hint-variants.py ${v}_t256_r1 ${v}_t512_r1 ${v}_t512_r2 ${v}_t512_r2_old ${v}_t1024_r2 \
  ${v}_t1024_r4 ${v}_t1024_r4_old ${v}_t256_r2 ${v}_t128_r1 --rtol 1e-2 --rounds 3 --triton-softmax 2>&1 \
  | tee "$logs/sm4096-block-shapes.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
"$root/scripts/ncu-rows.sh" $o/sm1024_r1 $o/sm1024_r4 $n/sm1024_t64_r4 || status=1
echo "call rc $status"
exit $status
