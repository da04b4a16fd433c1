#!/usr/bin/env bash
# Session 2026-12-05 (14), first device call. Carry .prebuilt14 and .whl; .prebuilt14 was made with the
# compiler of the commit that adds this script (cluster-push on by default):
#   rm -rf .prebuilt14 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt14 \
#     --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 && find .prebuilt14 -name '*.sass' -delete
#  1. bench/proto/bf16_short_rows.cu with session 14's variants (X, F: the exp without ftz, as motif; one FFMA; O: one block-wide reduction of the
#     online state (m, l), one barrier, exp computed again for the output; K: the same keeping the exps;
#     B: no block-wide step, a wrong kernel that bounds what the two barriers of motif's schedule cost),
#     twice.
#  2. The GPU tests of the bf16 row families and of the cluster kernels with cluster-push the default
#     (every form against float64, bitwise against the twin, memcheck, racecheck).
#  3. motif.bench of the bf16 rows (the 1024x131072 cluster kernel pushed now).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt14"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -o /tmp/bf16short bench/proto/bf16_short_rows.cu \
  > "$logs/proto-bf16-short-ptxas.txt" 2>&1 || { tail "$logs/proto-bf16-short-ptxas.txt"; exit 1; }
for run in 1 2; do
  timeout 200 /tmp/bf16short 2>&1 | tee "$logs/proto-bf16-short-rows-run$run.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
timeout 300 python3 -m pytest -q python/tests/test_gpu.py \
  -k "test_clusters or ((numerics_of_example or sanitizers_on_shared) and bf16 and (softmax or norm))" 2>&1 \
  | tail -n 8 | tee "$logs/pytest-rows-bf16-clusters.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 240 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
  --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
  | grep -v unfused | cut -c1-230
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
