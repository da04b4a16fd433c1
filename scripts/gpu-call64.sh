#!/usr/bin/env bash
# Session 2026-12-06 (15), second device call. Carry .prebuilt15, .fuzz15, .whl. Prepared with the
# compiler of the commit that adds this script (cluster-push the default, motif.ftz on softmax's exp and
# on rule 4's recomputed exp: the flash kernels changed since session 13's run):
#   rm -rf .prebuilt15 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt15 \
#     --families softmax_bf16,layernorm_bf16,rmsnorm_bf16,gemm_bf16,gemm_f16,linear_bf16,mha_bf16,mha_f16 \
#     && find .prebuilt15 -name '*.sass' -delete
#   rm -rf .fuzz15 && build/bin/motif-fuzz gen --seed=20261215 --count=300 --compile --jobs=2 -o .fuzz15/programs \
#     && PYTHONPATH=python python3 -m motif.emulator .fuzz15/programs \
#     && tar -C .fuzz15 -cJf .fuzz15/programs.tar.xz programs && rm -rf .fuzz15/programs
#  1. The flash form's GPU tests with ex2.ftz in its exp (every edge shape, f32/bf16/f16, sm_90 and
#     sm_90a builds, against float64; racecheck and memcheck where the tests run them) and the mha
#     examples' numerics.
#  2. Issue 13's families in one motif.bench run (as gpu-call59.sh) with today's compiler.
#  3. motif.fuzz_gpu on the 300 programs of seed 20261215 (the CPU emulator passed every form first),
#     as far as the time left goes.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt15"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
timeout 110 python3 -m pytest -q python/tests/test_gpu.py \
  -k "flash or (numerics_of_example and (mha or attention))" 2>&1 | tail -n 8 | tee "$logs/pytest-flash-ftz.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 390 python3 -m motif.bench \
  --families softmax_bf16,layernorm_bf16,rmsnorm_bf16,gemm_bf16,gemm_f16,linear_bf16,mha_bf16,mha_f16 \
  --json "$logs/bench.json" 2>"$logs/bench-progress.txt" | tee "$logs/bench.txt" | grep -v unfused | cut -c1-200
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
gpu_fuzz .fuzz15/programs.tar.xz 80
echo "call rc $status"
exit $status
