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
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz13/programs.tar.xz
timeout 200 python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --memcheck 8 --log "$logs/fuzz-gpu.log" 2>&1 \
  | tail -n 12 | tee "$logs/fuzz-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
