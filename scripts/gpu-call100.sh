#!/usr/bin/env bash
# Session 2026-12-07 (24), any card: carry .partial24 (scripts/mma-partial-variants.sh .partial24),
# .mmatiles23 (scripts/mma-tile-variants.sh .mmatiles23), .prebuilt22 and .whl.
#  0. On an H200 only: issue 13's bf16 row table (motif.bench of softmax_bf16, layernorm_bf16,
#     rmsnorm_bf16, every peer in the same run).
#  1. compute-sanitizer memcheck and racecheck (scripts/gemm-variants.py --check-only: no cuBLAS, whose
#     own sm_90 kernels racecheck reports) on session 23's new block tiles and on GEMMs with partial
#     last tiles (M, N not multiples of the tile), each also checked against float64.
#  2. The partial-tile GEMMs against float64 and cuBLAS, and the fma schedule they ran on before.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt22"
status=0
start=$SECONDS
gpu_row_table_if_h200 220
nt() { for d in "$@"; do case "$d" in *_nt_*) echo "nt:$d" ;; *) echo "$d" ;; esac; done; }
checked="$(ls -d .mmatiles23/512x512x512_t16x8_g1056 .mmatiles23/512x512x512_t32x32_g132 \
  .mmatiles23/768x768x768_t64x64_g132 .mmatiles23/4096x16x4096_t128x16_g0 .mmatiles23/1600x1600x1600_t64x32_g1056)
  $(nt $(ls -d .partial24/1x4096x4096_* .partial24/77x768x768_* .partial24/100x256x128_* \
  .partial24/1000x1024x1024_nn_t* .partial24/3000x1000x1024_*))"
for tool in memcheck racecheck; do
  timeout 170 compute-sanitizer --tool $tool --error-exitcode 3 python3 scripts/gemm-variants.py --check-only \
    $checked 2>&1 | tail -n 16 | tee -a "$logs/sanitizers-mma.txt"
  rc=${PIPESTATUS[0]}
  echo "$tool rc $rc" | tee -a "$logs/sanitizers-mma.txt"
  [ "$rc" -eq 0 ] || status=1
done
left=$(( ${CALL_SECONDS:-560} - (SECONDS - start) - 10 ))
timeout "$left" python3 scripts/gemm-variants.py $(nt $(ls -d .partial24/*_* | sort -V)) 2>&1 \
  | tee "$logs/mma-partial.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
