#!/usr/bin/env bash
# Session 2026-12-07 (24), any card: carry .prebuilt24 (this session's compiler: `rm -rf .prebuilt24 &&
# MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt24 && find .prebuilt24
# -name '*.sass' -delete`), .partial24 (scripts/mma-partial-variants.sh .partial24), .fuzz24 and .whl.
#   .fuzz24: build/bin/motif-fuzz gen --seed=20261224 --count=200 --cap=mathematical --compile --jobs=2 \
#              -o /tmp/fuzz24/programs && mkdir -p .fuzz24 && tar -C /tmp/fuzz24 -cJf .fuzz24/programs.tar.xz programs
#  0. On an H200 only: issue 13's bf16 row table (motif.bench, every peer in the same run).
#  1. python3 -m motif.numerics over every family with this session's compiler (unfused vs fused vs float64).
#  2. memcheck on the examples' tuned tiles at partial shapes; the partial-tile GEMMs against float64,
#     cuBLAS and Triton's masked tile matmul.
#  3. In the time left of CALL_SECONDS (default 560): motif.fuzz_gpu over .fuzz24 (the GEMM stream now
#     draws shapes with partial last tiles).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt24"
status=0
start=$SECONDS
gpu_row_table_if_h200 220
secs=$(( on_h200 ? 150 : 200 ))
timeout "$secs" python3 -m motif.numerics 2>&1 | tee "$logs/numerics.txt" | tail -n 30
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
nt() { for d in "$@"; do case "$d" in *_nt_*) echo "nt:$d" ;; *) echo "$d" ;; esac; done; }
# The examples' tuned tiles at partial shapes (mma.sync 128x128; wgmma 128x256 on sm_90a) under memcheck.
timeout 90 compute-sanitizer --tool memcheck --error-exitcode 3 python3 scripts/gemm-variants.py --check-only \
  $(nt .partial24/1000x1000x1024_nt_linear_bf16_wgmma .partial24/4095x4096x4096_nn_gemm_bf16) 2>&1 | tail -n 4 \
  | tee "$logs/sanitizers-examples.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 150 python3 scripts/gemm-variants.py $(nt $(ls -d .partial24/*_* | sort -V)) 2>&1 \
  | tee "$logs/mma-partial.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
left=$(( ${CALL_SECONDS:-560} - (SECONDS - start) ))
if [ "$left" -gt 60 ]; then gpu_fuzz .fuzz24/programs.tar.xz "$left"; fi
echo "call rc $status"
exit $status
