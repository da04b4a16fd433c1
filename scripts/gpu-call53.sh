#!/usr/bin/env bash
# Session 2026-12-05 (12), sixth device call: motif-fuzz on the GPU with group-stores for every map.
# Carry .fuzz13 and .whl. Prepared with the compiler of 4f0fa4d:
#   rm -rf .fuzz13 && build/bin/motif-fuzz gen --seed=20261213 --count=120 --compile --jobs=2 -o .fuzz13/programs \
#     && tar -C .fuzz13 -cJf .fuzz13/programs.tar.xz programs && rm -rf .fuzz13/programs
#   (the same 120 programs, uncompiled, passed the CPU emulator first: 357 forms bit for bit, 3 past its
#   time limit, 0 differing or faulting)
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
gpu_fuzz .fuzz13/programs.tar.xz 200
echo "call rc $status"
exit $status
