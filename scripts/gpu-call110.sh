#!/usr/bin/env bash
# Session 2026-12-07 (26), any card. Carry .prebuilt26 (as scripts/gpu-call105.sh's .prebuilt25, under
# this name: the extra sources, clusters, flash edge shapes and the bf16 row families), .wgmma26
# (scripts/mma-partial-variants.sh .wgmma26) and .whl.
#  0. On an H200 only: issue 13's bf16 row table (motif.bench, every peer in the same run).
#  1. wgmma with B [k, j] read transposed (MN-major, new this session): memcheck of two partial ones
#     (1000x1000x1024 and 3000x1000x1024, nn, sm_90a) and racecheck of one.
#  2. Every default-schedule GEMM of mma-partial-variants.sh (mma.sync on sm_90; wgmma on sm_90a, B [j, k]
#     and B [k, j]) against float64, cuBLAS and Triton: memcheck of the GEMV-like ones (k steps of 256).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
MOTIF_PREBUILT="$root/.prebuilt26" gpu_row_table_if_h200 200
nt() { for d in "$@"; do case "$d" in *_nt_*) echo "nt:$d" ;; *) echo "$d" ;; esac; done; }
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 python3 scripts/gemm-variants.py --check-only \
  $(nt .wgmma26/1000x1000x1024_nn_sm90a_* .wgmma26/3000x1000x1024_nn_sm90a_* .wgmma26/1x4096x4096_nn_t*) \
  2>&1 | tail -n 5 | tee "$logs/sanitizers-wgmma-nn.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 60 compute-sanitizer --tool racecheck --error-exitcode 3 python3 scripts/gemm-variants.py --check-only \
  $(nt .wgmma26/1000x1000x1024_nn_sm90a_*) 2>&1 | tail -n 5 | tee -a "$logs/sanitizers-wgmma-nn.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 240 python3 scripts/gemm-variants.py $(nt $(ls -d .wgmma26/*_* | sort -V)) 2>&1 | tee "$logs/gemm-defaults.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
