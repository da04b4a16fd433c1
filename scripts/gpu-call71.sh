#!/usr/bin/env bash
# Session 2026-12-06 (16), fourth device call (any card). Carry .fuzz16 and .whl. Prepared with the
# compiler of e1e9b14 or later (cluster-mbarrier the default):
#   rm -rf .fuzz16 && build/bin/motif-fuzz gen --seed=20261216 --count=200 --compile --jobs=2 -o .fuzz16/programs \
#     && PYTHONPATH=python python3 -m motif.emulator .fuzz16/programs \
#     && tar -C .fuzz16 -cJf .fuzz16/programs.tar.xz programs && rm -rf .fuzz16/programs
# (the CPU emulator: 600 forms bit for bit; 46 forms run in clusters, 20 of them through st.async +
# mbarriers.)
#  0. motif.fuzz_gpu over the 200 programs: every form against the spec's float64 evaluation, bitwise
#     where declared; the first 12 cluster forms also under racecheck and memcheck (--sanitize-clusters),
#     the first 4 programs under memcheck.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz16/programs.tar.xz
timeout 420 python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --memcheck 4 --sanitize-clusters 12 \
  --log "$logs/fuzz-gpu.log" 2>&1 | tail -n 16 | tee "$logs/fuzz-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
