#!/usr/bin/env bash
# Session 2026-12-05 (12), the final compiler (group-stores for every map, rule 6's register case on) on the
# GPU. Carry .prebuilt14, .fuzz14, .whl. Prepared with the compiler of this commit:
#   rm -rf .prebuilt14 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt14 \
#     --families softmax_bf16,softmax,layernorm,rmsnorm,layernorm_bf16,rmsnorm_bf16 && find .prebuilt14 -name '*.sass' -delete
#   rm -rf .fuzz14 && build/bin/motif-fuzz gen --seed=20261214 --count=100 --compile --jobs=2 -o .fuzz14/programs \
#     && tar -C .fuzz14 -cJf .fuzz14/programs.tar.xz programs && rm -rf .fuzz14/programs
#  1. GPU tests: clusters and precise math; the row families f32 and bf16 (float64, racecheck, memcheck).
#  2. motif.fuzz_gpu on 100 programs of seed 20261214.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt14"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
timeout 100 python3 -m pytest -q python/tests/test_gpu.py -k "test_clusters or precise_math_bitwise" 2>&1 \
  | tail -n 6 | tee "$logs/pytest-clusters.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
gpu_row_tests 150
gpu_fuzz .fuzz14/programs.tar.xz 150
echo "call rc $status"
exit $status
