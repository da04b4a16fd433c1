#!/usr/bin/env bash
# Session 2026-12-05 (9), after rule 6 took register values of kernels with one block an SM. Carry .recvar
# (scripts/make-recompute-variants.sh), .prebuilt9 (as in gpu-call40.sh), .fuzz9 (motif-fuzz gen
# --seed=20261222 --count=120 --compile, tarred as programs.tar.xz) and .whl. Logs under $OUT/logs.
#  1. hint-variants.py per long-row shape: base (recompute=false) against rule 6, bit for bit, then timed;
#     the bf16 defaults with Triton.
#  2. GPU tests of the row families with these kernels: every form against float64, and racecheck and
#     memcheck on every shared-memory kernel.
#  3. motif.fuzz_gpu on 120 fresh random programs (the lowering's tail release changed for all).
#  4. motif.bench softmax_bf16, layernorm_bf16, rmsnorm_bf16, softmax: one run with the peers.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt9"
status=0
TRITON_SHAPES="softmax_bf16-2048x65536 softmax_bf16-1024x131072 softmax_bf16-4096x32768" source scripts/time-recompute-variants.sh
  echo "== $name: base (recompute=false) against$variants" | tee -a "$logs/recompute-variants.txt"
  timeout 90 python3 scripts/hint-variants.py "$d/base" $variants --rounds 3 2>&1 | tee -a "$logs/recompute-variants.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  case "$name" in softmax_bf16-2048x65536|softmax_bf16-1024x131072|softmax_bf16-4096x32768)
    echo "== $name: the default with Triton" | tee -a "$logs/recompute-variants.txt"
    timeout 60 python3 scripts/hint-variants.py "$d/recompute" --triton-softmax --rounds 3 2>&1 \
      | tee -a "$logs/recompute-variants.txt";;
  esac
done
timeout 200 python3 -m pytest -q python/tests/test_gpu.py \
  -k "(numerics_of_example or sanitizers_on_shared) and (softmax or norm)" 2>&1 | tail -n 15 | tee "$logs/pytest-rows.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz9/programs.tar.xz
timeout 150 python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --memcheck 10 --log "$logs/fuzz-gpu.log" 2>&1 \
  | tail -n 12 | tee "$logs/fuzz-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 200 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16,softmax \
  --json "$logs/bench.json" 2>"$logs/bench-progress.txt" | tee "$logs/bench.txt" | grep -v unfused | cut -c1-190
echo "call rc $status"
exit $status
