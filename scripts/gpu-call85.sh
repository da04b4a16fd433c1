#!/usr/bin/env bash
# Session 2026-12-06 (19): issue 13's bf16 row table on an H200, and motif.fuzz_gpu on any card.
# Carry .prebuilt19, .prebuilt19o, .fuzz19/programs.tar.xz and .whl (cp311, cp312). Made on the CPU machine
# with this commit's tools:
#   rm -rf .prebuilt19 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt19 \
#     --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 && find .prebuilt19 -name '*.sass' -delete
#   build/bin/motif-fuzz gen --seed=20261219 --count=200 --compile --jobs=2 -o .fuzz19/programs \
#     && PYTHONPATH=python python3 -m motif.emulator .fuzz19/programs \
#     && tar -C .fuzz19 -cJf .fuzz19/programs.tar.xz programs    # 595 of 600 forms bit for bit, 5 past 30 s
#   MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 scripts/onnx-gpu-check.py --prebuild .prebuilt19o
#  0. On an H200 only: bench/proto/copy_forms.cu (every way to move softmax_bf16 8192x4096's bytes, and the
#     empty kernel's fixed cost), then motif.bench of softmax_bf16, layernorm_bf16, rmsnorm_bf16 with every
#     peer in the same run (the 'body' column: the bracket taken out).
#  1. Any card: scripts/onnx-gpu-check.py (the imported programs; the runtime-row softmax and RMSNorm also
#     fused under tolerance: the smaller block with a row count).
#  2. Any card: motif.fuzz_gpu over .fuzz19 (every form against float64 and the unfused form; cluster forms
#     under racecheck and memcheck): this generator's programs, 50 of 200 with a runtime row count.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in
*H200*)
  nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/copyforms bench/proto/copy_forms.cu && timeout 100 /tmp/copyforms 2>&1 \
    | tee "$logs/copy-forms.txt" | grep -E "copy ceiling|^row |^memcpy|^empty|^row2|^bulk-8x3"
  MOTIF_PREBUILT="$root/.prebuilt19" timeout 240 python3 -m motif.bench \
    --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 --json "$logs/bench-rows-bf16.json" \
    2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
    | grep -v unfused | grep -E "copy|motif math|motif fused|norm|body" | cut -c1-170
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
*) echo "not an H200 ($name): the bf16 row table is not run" ;;
esac
MOTIF_PREBUILT="$root/.prebuilt19o" timeout 120 python3 scripts/onnx-gpu-check.py 2>&1 | tee "$logs/onnx-gpu-check.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz19/programs.tar.xz
case "$name" in *H200*) secs=60 ;; *) secs=240 ;; esac
timeout $((secs + 60)) python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --seconds $secs --memcheck 4 --sanitize-clusters 40 \
  --log "$logs/fuzz-gpu.log" 2>&1 | tail -n 16 | tee "$logs/fuzz-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
