#!/usr/bin/env bash
# Session 2026-12-06 (17): on an H200, scripts/gpu-call76.sh first (its header); on any card then
# motif.fuzz_gpu over .fuzz17, with every cluster form under racecheck and memcheck.
# Carry .fuzz17 (programs.tar.xz only matters), .prebuilt17, .rowvar17 and .whl. .fuzz17 was made with the
# compiler of this commit (the relaxed cluster start is the default):
#   build/bin/motif-fuzz gen --seed=20261217 --count=200 --compile --jobs=2 -o .fuzz17/programs \
#     && PYTHONPATH=python python3 -m motif.emulator .fuzz17/programs   # 600 of 600 forms pass
#     && tar -C .fuzz17 -cJf .fuzz17/programs.tar.xz programs
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader)
case "$name" in *H200*) bash scripts/gpu-call76.sh || status=1 ;; esac
nvidia-smi --query-gpu=name --format=csv,noheader > "$logs/device-fuzz.txt"
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz17/programs.tar.xz
timeout 300 python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --memcheck 4 --sanitize-clusters 60 \
  --log "$logs/fuzz-gpu.log" 2>&1 | tail -n 16 | tee "$logs/fuzz-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
