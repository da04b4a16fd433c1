#!/usr/bin/env bash
# Session 2026-12-04 (7), written for the next device call (the device was not lent in session 7):
# thread-block clusters. Carry .prebuilt (python -m motif.prebuild .prebuilt, then
# scripts/long-rows-check.py to add the long-row programs), .cluvar
# (scripts/make-cluster-variants.py .cluvar) and .whl. Logs under $OUT/logs.
#  1. python/tests/test_gpu.py::test_clusters: every cluster kernel of test/Pipeline/Inputs/clusters.mlir
#     against its twin (cluster halved), bit for bit, against float64, memcheck.
#  2. scripts/long-rows-check.py: the row families at long rows (64x65536, 48x40000, ...) against float64,
#     every form, mathematical-clusters among them.
#  3. scripts/hint-variants.py per shape of make-cluster-variants.py: the default (grown, <= 512 threads,
#     one CTA) with Triton's softmax; then the block of 1024 as one CTA against CTAs of 512 / 256 / 128
#     (bitwise equal first, then timed).
#  4. motif.bench softmax_bf16 (its four shapes, 2048x65536 among them; mathematical-clusters a row).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 150 python3 -m pytest -q -x python/tests/test_gpu.py -k "test_clusters" 2>&1 | tail -n 30 \
  | tee "$logs/pytest-clusters.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 90 python3 scripts/long-rows-check.py 2>&1 | grep -v -i warn | tee "$logs/long-rows-check.txt" | tail -n 40
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for d in .cluvar/*/; do
  name=$(basename "$d")
  echo "== $name: the default (grown) and Triton" | tee -a "$logs/cluster-variants.txt"
  timeout 60 python3 scripts/hint-variants.py "$d/grown" --triton-softmax --rounds 3 2>&1 \
    | tee -a "$logs/cluster-variants.txt"
  base="$d/one-cta"; [ -d "$base" ] || base="$d/cta512"
  variants=""; for v in cta512 cta256 cta128; do [ "$d/$v" != "$base" ] && variants="$variants $d/$v"; done
  echo "== $name: one schedule (the grown block), as $(basename "$base") and $variants" | tee -a "$logs/cluster-variants.txt"
  timeout 60 python3 scripts/hint-variants.py "$base" $variants --rounds 3 2>&1 | tee -a "$logs/cluster-variants.txt"
done
timeout 150 python3 -m motif.bench --families softmax_bf16 --json "$logs/bench-softmax-bf16.json" \
  2>"$logs/bench-softmax-bf16-progress.txt" | tee "$logs/bench-softmax-bf16.txt" | grep -v unfused | cut -c1-160
echo "call rc $status"
exit $status
