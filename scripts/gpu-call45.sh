#!/usr/bin/env bash
# Session 2026-12-05 (11), second device call. Carry .prebuilt10, .fuzz10, .recvar, .whl.
# Prepared with the compiler of 0baa25c (lib/ and include/ as at 0473900) by session 10 (its
# gpu-call43.sh, never run, folded into gpu-call44/45):
#   rm -rf .prebuilt10 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt10 \
#     --families softmax_bf16,softmax,layernorm_bf16,rmsnorm_bf16 && find .prebuilt10 -name '*.sass' -delete
#   scripts/make-recompute-variants.sh                      # .recvar
#   rm -rf .fuzz10 && build/bin/motif-fuzz gen --seed=20261206 --count=150 --compile --jobs=2 -o .fuzz10/programs \
#     && PYTHONPATH=python python3 -m motif.emulator .fuzz10/programs \
#     && tar -C .fuzz10 -cJf .fuzz10/programs.tar.xz programs && rm -rf .fuzz10/programs
#   (the emulator first: every form's kernels on the CPU, bit for bit, so the GPU run judges the GPU)
# .smvar11b (made for a softmax-variants.py step the device time left no room for; not carried):
#   python3 scripts/make-softmax-variants.py .smvar11b softmax_bf16:8192:4096:softmax_bf16:{128,256} \
#     softmax_bf16:8192:4096:softmax_bf16@warp:128 softmax_bf16:16384:1024:softmax_bf16:{32,64} \
#     softmax_bf16:16384:1024:softmax_bf16@warp:{64,128}
#  1. motif.fuzz_gpu on 150 programs of seed 20261206, about a third bf16/f16 (the emulator passed all).
#  2. GPU tests of the row families (every form against float64; racecheck and memcheck).
#  3. bench/proto/bf16_short_rows.cu: one row a block against a persistent grid that prefetches the next row.
#  4. hint-variants.py: rule 6 against recompute=false (bit for bit, then timed).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt10"
status=0
(cd bench/proto && nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/bf16short bf16_short_rows.cu) \
  && timeout 50 /tmp/bf16short 2>&1 | tee "$logs/proto-bf16-short-rows.txt"
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz10/programs.tar.xz
timeout 150 python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --memcheck 8 --log "$logs/fuzz-gpu.log" 2>&1 \
  | tail -n 12 | tee "$logs/fuzz-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 120 python3 -m pytest -q python/tests/test_gpu.py \
  -k "(numerics_of_example or sanitizers_on_shared) and (softmax or norm)" 2>&1 | tail -n 8 | tee "$logs/pytest-rows.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for d in .recvar/softmax_bf16-4096x32768 .recvar/softmax_bf16-2048x65536; do
  echo "== $d" | tee -a "$logs/recompute-variants.txt"
  timeout 40 python3 scripts/hint-variants.py "$d/base" "$d/recompute" --rounds 2 2>&1 | tail -n 5 \
    | tee -a "$logs/recompute-variants.txt"
done
echo "call rc $status"
exit $status
