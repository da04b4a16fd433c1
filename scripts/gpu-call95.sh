#!/usr/bin/env bash
# Session 2026-12-07 (22), any card: the GPU checks of session 21's batched exchanges (one barrier for a
# thread's rows; docs/lowering.md, "Batched exchanges"), which had not run on a GPU. Carry .rowvar21,
# .fuzz22/programs.tar.xz and .whl. Made on the CPU machine with this commit's tools:
#   build/bin/motif-fuzz gen --seed=20261222 --count=200 --cap=tolerance --compile --jobs=1 -o .fuzz22/programs \
#     && tar -C .fuzz22 -cJf .fuzz22/programs.tar.xz programs
# (under the tolerance cap rows a block re-block about one program in six: 45 of its 600 forms exchange a
# thread's rows behind one barrier, counted on the lowered IR).
#  1. compute-sanitizer memcheck and racecheck on the batched bf16 softmax kernels (.rowvar21: 16384 x 1024
#     and x 512 on 64 threads, 2 and 4 rows a block; 8192 x 4096 on 1024 threads, 4 rows a block).
#  2. motif.fuzz_gpu over .fuzz22: every form against float64 and the unfused form, the first 8 under
#     memcheck, cluster forms under racecheck and memcheck.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
for d in sm1024_t64_r4 sm512_t64_r4 sm1024_t64_r2 sm4096_t1024_r4; do
  gpu_sanitize .rowvar21/$d sanitizers-batched-exchange.txt
done
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz22/programs.tar.xz
timeout 330 python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --seconds 240 --memcheck 8 --sanitize-clusters 30 \
  --log "$logs/fuzz-gpu.log" 2>&1 | tail -n 16 | tee "$logs/fuzz-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
