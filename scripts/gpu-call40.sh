#!/usr/bin/env bash
# Session 2026-12-05 (9): rule 6 (recompute) on the H200. Carry .recvar (scripts/make-recompute-variants.sh),
# .prebuilt9 (python3 -m motif.prebuild .prebuilt9 --families softmax_bf16,softmax,layernorm_bf16,rmsnorm_bf16,
# then MOTIF_PREBUILT=.prebuilt9 scripts/long-rows-check.py) and .whl. Logs under $OUT/logs.
#  1. hint-variants.py per long-row shape: the mathematical form without rule 6 (base) against it with
#     rule 6 (and CTA sizes of clusters): bit for bit first (rule 6 is bitwise), then timed; then the
#     default with Triton's softmax.
#  2. compute-sanitizer memcheck and racecheck on the rule-6 kernels of the small shapes.
#  3. scripts/long-rows-check.py: the row families at long rows against float64, every form.
#  4. motif.bench softmax_bf16, layernorm_bf16, rmsnorm_bf16 (one run, peers, copy ceiling).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt9"
status=0
TRITON_SHAPES="softmax_bf16-2048x65536 softmax_bf16-1024x131072" source scripts/time-recompute-variants.sh
  echo "== $name: base (recompute=false) against$variants" | tee -a "$logs/recompute-variants.txt"
  timeout 90 python3 scripts/hint-variants.py "$d/base" $variants --rounds 3 2>&1 | tee -a "$logs/recompute-variants.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  case "$name" in softmax_bf16-2048x65536|softmax_bf16-1024x131072)
    echo "== $name: the default with Triton" | tee -a "$logs/recompute-variants.txt"
    timeout 60 python3 scripts/hint-variants.py "$d/recompute" --triton-softmax --rounds 3 2>&1 \
      | tee -a "$logs/recompute-variants.txt";;
  esac
done
for m in .recvar/softmax_bf16-24x100000/recompute*/*.json .recvar/softmax_bf16-64x65536/recompute/*.json; do
  for tool in memcheck racecheck; do
    out=$(timeout 120 compute-sanitizer --tool $tool --error-exitcode 3 python3 python/tests/sanitize_driver.py "$m" 2>&1)
    rc=$?; echo "$tool $m: rc $rc $(echo "$out" | grep -E 'SUMMARY' | tail -n 1)" | tee -a "$logs/recompute-sanitizer.txt"
    [ $rc -eq 0 ] || status=1
  done
done
timeout 120 python3 scripts/long-rows-check.py 2>&1 | grep -v -i warn | tee "$logs/long-rows-check.txt" | tail -n 30
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 200 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 --json "$logs/bench.json" \
  2>"$logs/bench-progress.txt" | tee "$logs/bench.txt" | grep -v unfused | cut -c1-190
echo "call rc $status"
exit $status
