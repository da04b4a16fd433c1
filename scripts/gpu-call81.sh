#!/usr/bin/env bash
# Session 2026-12-06 (17), last device call (any card): motif.fuzz_gpu over .fuzz17b, the first program
# set of this session's generator (a third of the programs fused with a small row-block-min-grid, so
# fused forms take rows a block) and compiler; every cluster form under racecheck and memcheck.
# Carry .fuzz17b and .whl. Made with:
#   build/bin/motif-fuzz gen --seed=20261218 --count=200 --compile --jobs=2 -o .fuzz17b/programs \
#     && PYTHONPATH=python python3 -m motif.emulator .fuzz17b/programs   # 600 of 600 forms bit for bit
#     && tar -C .fuzz17b -cJf .fuzz17b/programs.tar.xz programs
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz17b/programs.tar.xz
timeout 200 python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --memcheck 4 --sanitize-clusters 60 \
  --log "$logs/fuzz-gpu.log" 2>&1 | tail -n 16 | tee "$logs/fuzz-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
