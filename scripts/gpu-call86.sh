#!/usr/bin/env bash
# Session 2026-12-06 (19), after motif-device-math: motif.fuzz_gpu over the same 200 programs as
# gpu-call85.sh (motif-fuzz gen --seed=20261219), compiled by this commit's tools, on any card; on an
# H200 first issue 13's bf16 row table. Carry .prebuilt19, .fuzz19b/programs.tar.xz and .whl:
#   build/bin/motif-fuzz gen --seed=20261219 --count=200 --compile --jobs=1 -o .fuzz19b/programs \
#     && tar -C .fuzz19b -cJf .fuzz19b/programs.tar.xz programs
# (.prebuilt19 as gpu-call85.sh says: its programs' PTX is unchanged by motif-device-math.)
#  0. On an H200 only: bench/proto/copy_forms.cu, then motif.bench of softmax_bf16, layernorm_bf16,
#     rmsnorm_bf16 with every peer in the same run.
#  1. Any card: motif.fuzz_gpu over .fuzz19b; p184 (the bitwise-mismatch of gpu-call85.sh) first.
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
rm -rf /tmp/motif-fuzz /tmp/motif-p184 && mkdir -p /tmp/motif-fuzz /tmp/motif-p184/programs \
  && tar -C /tmp/motif-fuzz -xJf .fuzz19b/programs.tar.xz && cp -r /tmp/motif-fuzz/programs/p184 /tmp/motif-p184/programs/p0
timeout 60 python3 -m motif.fuzz_gpu /tmp/motif-p184/programs --memcheck 1 --log "$logs/fuzz-gpu-p184.log" 2>&1 \
  | tail -n 12 | tee "$logs/fuzz-gpu-p184.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
case "$name" in *H200*) secs=60 ;; *) secs=200 ;; esac
timeout $((secs + 60)) python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --seconds $secs --memcheck 4 --sanitize-clusters 40 \
  --log "$logs/fuzz-gpu.log" 2>&1 | tail -n 16 | tee "$logs/fuzz-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
