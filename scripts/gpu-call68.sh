#!/usr/bin/env bash
# Session 2026-12-06 (15): gpu-call67.sh cut to what ~2 minutes hold (carry .mbvar15 and .whl, made as
# gpu-call67.sh's header says).
#  0. bf16 softmax 1024x131072: the default kernel against cluster-mbarrier as compiled and with the
#     notick / minctas8+notick edits, bit for bit, then timed (2 rounds of 40).
#  1. clusters.mlir's four kernels with cluster-mbarrier against the default, bit for bit (no timing).
#  2. memcheck of the 1024x131072 cluster-mbarrier kernel.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
timeout 70 python3 scripts/hint-variants.py .mbvar15/default .mbvar15/mbarrier .mbvar15/mbarrier_notick \
  .mbvar15/mbarrier_minctas8_notick --rounds 2 2>&1 | tail -n 9 | tee "$logs/cluster-mbarrier.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for fn in softmax_c4 softmax_bf16_c4 softmax_tails_c4 column_sums_c2; do
  timeout 20 python3 scripts/hint-variants.py .mbvar15/clusters/$fn/default .mbvar15/clusters/$fn/mbarrier \
    --rounds 0 2>&1 | tail -n 2 | tee -a "$logs/cluster-mbarrier-kernels.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
timeout 40 compute-sanitizer --tool memcheck --error-exitcode 3 python3 scripts/hint-variants.py .mbvar15/mbarrier \
  --rounds 0 2>&1 | tail -n 2 | tee "$logs/cluster-mbarrier-memcheck.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
