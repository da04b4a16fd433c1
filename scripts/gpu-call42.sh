#!/usr/bin/env bash
# Session 2026-12-05 (9): a first call of these steps (every .recvar shape first, then the tests, the fuzz
# run and the bench) lost its machine ("stopped answering", nothing came back); here
# the measurements first, each step under its own timeout. Carry .recvar, .prebuilt9, .fuzz9 and .whl.
#  1. hint-variants.py: rule 6 against recompute=false, bit for bit then timed (bf16 4096x32768, now a
#     register value of a one-block-an-SM kernel, and 2048x65536), the bf16 defaults with Triton.
#  2. motif.bench softmax_bf16, layernorm_bf16, rmsnorm_bf16: one run with the peers and the copy ceiling.
#  3. GPU tests of the row families (every form against float64; racecheck and memcheck).
#  4. motif.fuzz_gpu on 120 fresh random programs.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt9"
status=0
for d in .recvar/softmax_bf16-4096x32768 .recvar/softmax_bf16-2048x65536; do
  echo "== $d" | tee -a "$logs/recompute-variants.txt"
  timeout 60 python3 scripts/hint-variants.py "$d/base" "$d/recompute" --rounds 3 2>&1 | tail -n 5 \
    | tee -a "$logs/recompute-variants.txt"
  timeout 60 python3 scripts/hint-variants.py "$d/recompute" --triton-softmax --rounds 3 2>&1 | tail -n 4 \
    | tee -a "$logs/recompute-variants.txt"
done
timeout 200 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 --json "$logs/bench.json" \
  2>"$logs/bench-progress.txt" | tee "$logs/bench.txt" | grep -v unfused | cut -c1-200
timeout 150 python3 -m pytest -q python/tests/test_gpu.py \
  -k "(numerics_of_example or sanitizers_on_shared) and (softmax or norm)" 2>&1 | tail -n 8 | tee "$logs/pytest-rows.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz9/programs.tar.xz
timeout 100 python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --memcheck 5 --log "$logs/fuzz-gpu.log" 2>&1 \
  | tail -n 12 | tee "$logs/fuzz-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
