#!/usr/bin/env bash
# Session 2026-12-06 (16), third device call (any card). Carry .mbvar16, .prebuilt16 and .whl, made
# with the compiler of this call's commit (cluster-mbarrier on by default; thread 0's arrive.expect_tx
# after the start barrier, not beside the init):
#   rm -rf .prebuilt16 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt16 \
#     --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 && find .prebuilt16 -name '*.sass' -delete
#   .mbvar16/{mbarrier,barrier}: .clvar13/softmax_bf16-1024x131072/softmax_bf16.mlir through motif-compile
#     --function softmax_bf16 --fuse-materialization --fuse-options=equivalence-cap=mathematical
#     --lower-options=cluster-mbarrier=true / false; .mbvar16/clusters/<fn>/{mbarrier,barrier}: the four
#     functions of test/Pipeline/Inputs/clusters.mlir the same way; then every *.sass deleted.
# gpu-call69.sh found racecheck warnings on the first form (thread 0 initialized and armed each
# mbarrier before the start barrier; ptxas issues the init on the uniform datapath, attributed to lane
# 31, so the arrive of lane 0 right after it was a "warp level programming" RAW hazard). Now:
#  0. racecheck and memcheck of the cluster-mbarrier kernels (the 1024x131072 one, clusters.mlir's
#     four): 0 hazards expected.
#  1. the 1024x131072 kernel with cluster barriers (base) against cluster-mbarrier, bit for bit and
#     timed (3 rounds of 40); clusters.mlir's four kernels bit for bit and timed (1 round).
#  2. the GPU tests of the clusters and of the bf16 row families with this compiler.
#  3. motif.bench of the bf16 rows (softmax, LayerNorm, RMSNorm).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt16"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
v=.mbvar16
for d in $v/mbarrier $v/clusters/softmax_c4/mbarrier $v/clusters/softmax_bf16_c4/mbarrier \
    $v/clusters/softmax_tails_c4/mbarrier $v/clusters/column_sums_c2/mbarrier; do
  for tool in racecheck memcheck; do
    echo "== $tool $d" >> "$logs/sanitizers-mbarrier.txt"
    timeout 90 compute-sanitizer --tool $tool --error-exitcode 3 --print-limit 4 python3 scripts/hint-variants.py \
      "$d" --rounds 0 > "$logs/san.tmp" 2>&1
    rc=$?
    head -n 30 "$logs/san.tmp" | grep -v "Host Frame" >> "$logs/sanitizers-mbarrier.txt"
    tail -n 2 "$logs/san.tmp" >> "$logs/sanitizers-mbarrier.txt"
    echo "rc $rc" >> "$logs/sanitizers-mbarrier.txt"
    [ $rc -eq 0 ] || status=1
  done
done
grep -E "^== |SUMMARY|^rc" "$logs/sanitizers-mbarrier.txt"
timeout 100 python3 scripts/hint-variants.py $v/barrier $v/mbarrier --rounds 3 2>&1 | tail -n 6 \
  | tee "$logs/cluster-mbarrier-1024x131072.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for fn in softmax_c4 softmax_bf16_c4 softmax_tails_c4 column_sums_c2; do
  timeout 30 python3 scripts/hint-variants.py $v/clusters/$fn/barrier $v/clusters/$fn/mbarrier \
    --rounds 1 2>&1 | tail -n 4 | tee -a "$logs/cluster-mbarrier-kernels.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
timeout 200 python3 -m pytest -q python/tests/test_gpu.py \
  -k "test_clusters or ((numerics_of_example or sanitizers_on_shared) and bf16 and (softmax or norm))" 2>&1 \
  | tail -n 8 | tee "$logs/pytest-rows-bf16-clusters.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 200 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
  --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
  | grep -v unfused | cut -c1-230
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
