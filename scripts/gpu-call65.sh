#!/usr/bin/env bash
# Session 2026-12-06 (15): gpu-call64.sh without its bench (any card; the flash and GEMM kernels' PTX is
# byte for byte session 13's, the bf16 rows were benched by gpu-call62.sh). Carry .prebuilt15, .fuzz15,
# .whl, made as gpu-call64.sh's header says.
#  1. The flash form's GPU tests and the mha examples' numerics (as gpu-call64.sh).
#  2. motif.fuzz_gpu on the 300 programs of seed 20261215 (the CPU emulator passed all 900 forms first).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt15"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
timeout 150 python3 -m pytest -q python/tests/test_gpu.py \
  -k "flash or (numerics_of_example and (mha or attention))" 2>&1 | tail -n 8 | tee "$logs/pytest-flash-ftz.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
gpu_fuzz .fuzz15/programs.tar.xz 240
echo "call rc $status"
exit $status
