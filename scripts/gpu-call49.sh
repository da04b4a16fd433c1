#!/usr/bin/env bash
# Session 2026-12-05 (12), second device call. Carry .prebuilt12, .fuzz12, .clvar12, .ptxvar12, .whl.
# Prepared with the compiler of the commit that adds this script:
#   rm -rf .prebuilt12 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt12 \
#     --families softmax_bf16,softmax,layernorm,rmsnorm,layernorm_bf16,rmsnorm_bf16 && find .prebuilt12 -name '*.sass' -delete
#   rm -rf .fuzz12 && build/bin/motif-fuzz gen --seed=20261212 --count=150 --compile --jobs=2 -o .fuzz12/programs \
#     && PYTHONPATH=python python3 -m motif.emulator .fuzz12/programs \
#     && tar -C .fuzz12 -cJf .fuzz12/programs.tar.xz programs && rm -rf .fuzz12/programs
#   .clvar12 as in gpu-call48.sh; .ptxvar12 (the cluster arrives without their MEMBAR.ALL.GPU):
#   python3 scripts/make-ptx-variants.py .clvar12/softmax_bf16-1024x131072/default \
#     .ptxvar12/softmax_bf16-1024x131072 exitrelaxed allrelaxed
#   python3 scripts/make-ptx-variants.py .clvar12/softmax_bf16-1024x131072/cta256 \
#     .ptxvar12/softmax_bf16-1024x131072 exitrelaxed
#  0. What the cluster arrives' releases cost: the 1024x131072 kernel against its exit arrive relaxed
#     and every arrive relaxed (each bit for bit first), with session 11's kernel as a baseline.
#  1. motif.bench: issue 13's rows (softmax, LayerNorm, RMSNorm in bf16), every shape, after the memset lead.
#  2. GPU tests: the cluster kernels (bitwise against the twin without the cluster, float64, memcheck),
#     the row families f32 and bf16 (float64; racecheck, memcheck), precise math bit for bit.
#  3. motif.fuzz_gpu on 150 programs of seed 20261212 (the emulator passed every form first).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt12"
status=0
d=.clvar12/softmax_bf16-1024x131072 p=.ptxvar12/softmax_bf16-1024x131072
timeout 60 python3 scripts/hint-variants.py $d/default $p/default_exitrelaxed $p/default_allrelaxed $d/cta256 \
  $p/cta256_exitrelaxed $d/old-default --rounds 2 2>&1 | tail -n 14 | tee "$logs/cluster-membar.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 200 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
  --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
  | grep -v unfused | cut -c1-230
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 100 python3 -m pytest -q python/tests/test_gpu.py -k "test_clusters or precise_math_bitwise" 2>&1 \
  | tail -n 6 | tee "$logs/pytest-clusters.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
gpu_row_tests 120
gpu_fuzz .fuzz12/programs.tar.xz 150
echo "call rc $status"
exit $status
