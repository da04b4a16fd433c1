#!/usr/bin/env bash
# Session 2026-12-07 (25), any card: the final compiler's default schedules (k steps up to 256 at small
# tiles; wgmma on sm_90a) over scripts/mma-partial-variants.sh's shapes against float64, cuBLAS and Triton,
# and memcheck + racecheck of the GEMV-like ones (k steps of 256 and 128). Carry .wgmma25 and .whl.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nt() { for d in "$@"; do case "$d" in *_nt_*) echo "nt:$d" ;; *) echo "$d" ;; esac; done; }
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 python3 scripts/gemm-variants.py --check-only \
    $(nt .wgmma25/1x4096x4096_nn_t* .wgmma25/77x768x768_nt_t* .wgmma25/100x256x128_nt_t*) 2>&1 | tail -n 5 \
    | tee -a "$logs/sanitizers-kstep.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
timeout 200 python3 scripts/gemm-variants.py $(nt $(ls -d .wgmma25/*_* | sort -V)) 2>&1 | tee "$logs/gemm-defaults-final.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
