#!/usr/bin/env bash
# Session 2026-12-06 (16), second device call (any card). Carry .mbvar15, .prebuilt16 and .whl.
# .prebuilt16: the compiler with cluster-mbarrier on by default (the working tree of this call):
#   rm -rf .prebuilt16 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt16 \
#     --families softmax_bf16 && find .prebuilt16 -name '*.sass' -delete
# gpu-call67.sh (H100) found the cluster-mbarrier kernels bit for bit equal to the default and faster
# (1024x131072 184.7 us against 187.2; the four clusters.mlir kernels 4-14%), memcheck clean, and
# racecheck reporting "2 hazards displayed (0 errors, 2 warnings)" on the 1024x131072 kernel.
#  0. racecheck's full report (every hazard, its PCs and threads) on the cluster-mbarrier kernels and,
#     for comparison, on the default (cluster-barrier) kernels.
#  1. The GPU tests of the clusters and of the bf16 softmax with cluster-mbarrier the default (every
#     form against float64, bitwise against the twin, memcheck, racecheck).
#  2. motif.bench of softmax_bf16 (the 1024x131072 cluster kernel through mbarriers).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt16"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
race() {  # race DIR LABEL: racecheck's whole report of one launch
  echo "== $2 ($1)" >> "$logs/racecheck-report.txt"
  timeout 90 compute-sanitizer --tool racecheck --racecheck-report all --print-limit 12 \
    python3 scripts/hint-variants.py "$1" --rounds 0 2>&1 | head -n 120 >> "$logs/racecheck-report.txt"
}
race .mbvar15/clusters/softmax_c4/mbarrier "softmax_c4 cluster-mbarrier"
race .mbvar15/clusters/softmax_c4/default "softmax_c4 default"
race .mbvar15/clusters/column_sums_c2/mbarrier "column_sums_c2 cluster-mbarrier"
race .mbvar15/mbarrier "softmax_bf16 1024x131072 cluster-mbarrier"
race .mbvar15/default "softmax_bf16 1024x131072 default"
grep -E "^== |SUMMARY" "$logs/racecheck-report.txt"
timeout 200 python3 -m pytest -q python/tests/test_gpu.py \
  -k "test_clusters or ((numerics_of_example or sanitizers_on_shared) and softmax_bf16)" 2>&1 \
  | tail -n 12 | tee "$logs/pytest-clusters-mbarrier.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 150 python3 -m motif.bench --families softmax_bf16 \
  --json "$logs/bench-softmax-bf16.json" 2>"$logs/bench-softmax-bf16-progress.txt" | tee "$logs/bench-softmax-bf16.txt" \
  | grep -v unfused | cut -c1-230
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
