#!/usr/bin/env bash
# Session 2026-12-06 (20), any card: the imported ONNX programs (scripts/onnx-gpu-check.py, not run
# since motif-device-math) and motif.fuzz_gpu over 200 fresh programs (motif-fuzz gen --seed=20261220,
# a quarter with a runtime row count), both compiled by this commit's tools. Carry .prebuilt20o,
# .fuzz20/programs.tar.xz and .whl:
#   MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 scripts/onnx-gpu-check.py --prebuild .prebuilt20o
#   build/bin/motif-fuzz gen --seed=20261220 --count=200 --compile --jobs=1 -o .fuzz20/programs \
#     && tar -C .fuzz20 -cJf .fuzz20/programs.tar.xz programs
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
MOTIF_PREBUILT="$root/.prebuilt20o" timeout 150 python3 scripts/onnx-gpu-check.py 2>&1 | tee "$logs/onnx-gpu-check.txt" \
  | tail -n 30
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz20/programs.tar.xz
timeout 330 python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --seconds 270 --memcheck 4 --sanitize-clusters 40 \
  --log "$logs/fuzz-gpu.log" 2>&1 | tail -n 16 | tee "$logs/fuzz-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
