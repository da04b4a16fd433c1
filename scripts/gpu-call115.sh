#!/usr/bin/env bash
# Session 2026-12-07 (27), any card, short (the session's last device time). On an H200 first issue 13's
# bf16 row table. Then C = A^T B (A stored [k, i], bf16 into f32, the default schedule for sm_90a:
# mma.sync with A read by ldmatrix .trans) at 4 shapes against float64 and cuBLAS's TN form, and
# compute-sanitizer memcheck + racecheck of the smallest. Carry .prebuilt26, .at27 and .whl; .at27 is
#   for each shape: sed the sizes of test/Conversion/MotifToGPU/Inputs/mma-a-k-major-default.mlir into
#   .at27/src/at_MxKxN.mlir; motif-compile it --chip=sm_90a --fuse-materialization
#   --fuse-options=equivalence-cap=tolerance --no-sass -o .at27/out/at_MxKxN
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt26"
status=0
gpu_row_table_if_h200 200
timeout 150 python3 scripts/gemm-variants.py $(ls -d .at27/out/* | sort -V) 2>&1 | tee "$logs/gemm-at.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for tool in memcheck racecheck; do
  timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 python3 scripts/gemm-variants.py --check-only \
    .at27/out/at_384x160x320 2>&1 | tail -n 4 | tee -a "$logs/gemm-at-sanitizers.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
echo "call rc $status"
exit $status
