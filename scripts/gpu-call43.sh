#!/usr/bin/env bash
# Session 2026-12-05 (10) wrote this for the next lent device (none was lent in session 10). It is
# gpu-call42.sh (rule 6 timing, the bf16 row bench, the row families' GPU tests) plus what session 10
# changed: motif-precise-math (sqrt.rn.f32, one-rounding 16-bit fma) and motif-fuzz's 16-bit programs.
# Prepare here first (the compiler must be the one of the commit under test):
#   rm -rf .prebuilt10 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt10 \
#     --families softmax_bf16,softmax,layernorm_bf16,rmsnorm_bf16 && find .prebuilt10 -name '*.sass' -delete
#   scripts/make-recompute-variants.sh                      # .recvar
#   rm -rf .fuzz10 && build/bin/motif-fuzz gen --seed=20261206 --count=150 --compile --jobs=2 -o .fuzz10/programs \
#     && PYTHONPATH=python python3 -m motif.emulator .fuzz10/programs \
#     && tar -C .fuzz10 -cJf .fuzz10/programs.tar.xz programs && rm -rf .fuzz10/programs
#   (the emulator first: every form's kernels on the CPU, bit for bit, so the GPU run judges the GPU)
# Session 10 prepared .prebuilt10 (27 MB, long-rows-check passed), .fuzz10 (150 programs; the emulator passed
# all 450 forms) and .recvar with the compiler of 0473900: if lib/ or include/ changed since, prepare them again.
# Carry .recvar, .prebuilt10, .fuzz10 and .whl (about 34 MB). Each step has its own timeout.
#  1. test_precise_math_bitwise: bf16/f16 sqrt and fma, f32 sqrt, bit for bit against one rounding.
#  2. motif.fuzz_gpu on 150 programs, about a third of them bf16/f16 (their inputs, bounds and bits).
#  3. hint-variants.py: rule 6 against recompute=false (bit for bit, then timed).
#  4. motif.bench softmax_bf16, layernorm_bf16, rmsnorm_bf16 with the peers and the copy ceiling.
#  5. GPU tests of the row families (every form against float64; racecheck and memcheck).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt10"
status=0
timeout 60 python3 -m pytest -q python/tests/test_gpu.py -k precise_math 2>&1 | tail -n 6 | tee "$logs/pytest-precise-math.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz10/programs.tar.xz
timeout 150 python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --memcheck 8 --log "$logs/fuzz-gpu.log" 2>&1 \
  | tail -n 12 | tee "$logs/fuzz-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for d in .recvar/softmax_bf16-4096x32768 .recvar/softmax_bf16-2048x65536; do
  echo "== $d" | tee -a "$logs/recompute-variants.txt"
  timeout 60 python3 scripts/hint-variants.py "$d/base" "$d/recompute" --rounds 3 2>&1 | tail -n 5 \
    | tee -a "$logs/recompute-variants.txt"
done
timeout 200 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 --json "$logs/bench.json" \
  2>"$logs/bench-progress.txt" | tee "$logs/bench.txt" | grep -v unfused | cut -c1-200
timeout 150 python3 -m pytest -q python/tests/test_gpu.py \
  -k "(numerics_of_example or sanitizers_on_shared) and (softmax or norm)" 2>&1 | tail -n 8 | tee "$logs/pytest-rows.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
