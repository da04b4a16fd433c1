#!/usr/bin/env bash
# Session 2026-12-06 (15), third device call (any card). Carry .mbvar15 and .whl. Prepared with the
# compiler of 9883465 or later (convert-motif-to-gpu's cluster-mbarrier, off by default; the first
# lowering, b25f478, armed only CTA 0's mbarriers: a kernel that hangs -- rebuild .mbvar15 if older):
#   rm -rf .mbvar15 && d=.clvar13/softmax_bf16-1024x131072 (gpu-call56.sh) &&
#   build/bin/motif-compile $d/softmax_bf16.mlir -o .mbvar15/default --function softmax_bf16 \
#     --fuse-materialization --fuse-options=equivalence-cap=mathematical && the same with
#     --lower-options=cluster-mbarrier=true -o .mbvar15/mbarrier &&
#   python3 scripts/make-ptx-variants.py .mbvar15/mbarrier .mbvar15 minctas8 notick minctas8+notick &&
#   for fn in softmax_c4 softmax_bf16_c4 softmax_tails_c4 column_sums_c2: motif-compile
#     test/Pipeline/Inputs/clusters.mlir --function $fn -o .mbvar15/clusters/$fn/default, and
#     .../mbarrier with --lower-options=cluster-mbarrier=true; then rm .mbvar15/**/*.sass
#  0. bf16 softmax 1024x131072 (clusters of 8 x 128): the default kernel (cluster barriers, 62
#     registers) against cluster-mbarrier (st.async + mbarrier: 64 registers) and the
#     same with .minnctapersm 8 (64 registers), each also without the wait loop's NANOSLEEP (notick),
#     bit for bit, then timed (3 rounds of 40).
#  1. clusters.mlir's four kernels (cluster(4) f32 / bf16 / shared tails, cluster(2) column sums with
#     a partial a lane) with cluster-mbarrier against the default, bit for bit.
#  2. memcheck and racecheck of the 1024x131072 cluster-mbarrier kernel; memcheck of the four.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
timeout 100 python3 scripts/hint-variants.py .mbvar15/default .mbvar15/mbarrier .mbvar15/mbarrier_minctas8 \
  .mbvar15/mbarrier_notick .mbvar15/mbarrier_minctas8_notick \
  --rounds 3 2>&1 | tail -n 10 | tee "$logs/cluster-mbarrier.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for fn in softmax_c4 softmax_bf16_c4 softmax_tails_c4 column_sums_c2; do
  timeout 30 python3 scripts/hint-variants.py .mbvar15/clusters/$fn/default .mbvar15/clusters/$fn/mbarrier \
    --rounds 1 2>&1 | tail -n 4 | tee -a "$logs/cluster-mbarrier-kernels.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 python3 scripts/hint-variants.py \
    .mbvar15/clusters/$fn/mbarrier --rounds 0 2>&1 | tail -n 2 | tee -a "$logs/cluster-mbarrier-sanitizer.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
gpu_sanitize .mbvar15/mbarrier cluster-mbarrier-sanitizer.txt
echo "call rc $status"
exit $status
