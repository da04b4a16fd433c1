#!/usr/bin/env bash
# Session 2026-12-05 (12), first device call: the cluster kernels after 79e2134 (rank and block from
# %cluster_ctaid.x / %clusterid.x: every row access 128-bit; the exit barrier split).
# Carry .clvar12, .recvar12, .whl. Prepared with the compiler of the commit that adds this script:
#   rm -rf .clvar12 && python3 scripts/make-cluster-variants.py .clvar12 \
#     && cp -r .prebuilt11/58fe10d1d0656626dc24d80d .clvar12/softmax_bf16-1024x131072/old-default
#     (old-default: session 11's default kernel of 1024x131072, 96 registers, 16-bit runs)
#   rm -rf .recvar12 && scripts/make-recompute-variants.sh .recvar12
#  1. hint-variants.py per long-row shape: the fusion's default against the grown block as one CTA
#     and the cluster CTA sizes (a variant of another reduction tree timed when within 1e-2 of it).
#  2. rule 6 with grouped stores against base and plain recompute (decides group-recompute-stores).
#  3. Nsight Compute on the 1024x131072 kernel, new and old, and the 2048x65536 default.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
for d in .clvar12/*/; do
  d=${d%/}
  vs=$(for v in old-default grown one-cta cta512 cta256 cta128; do [ -d "$d/$v" ] && echo "$d/$v"; done)
  echo "== $d" | tee -a "$logs/cluster-variants.txt"
  timeout 75 python3 scripts/hint-variants.py "$d/default" $vs --rounds 2 --rtol 1e-2 2>&1 | tail -n 16 \
    | tee -a "$logs/cluster-variants.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
for n in softmax_bf16-4096x32768 softmax_bf16-2048x65536 softmax_bf16-1024x131072; do
  d=.recvar12/$n
  echo "== $d" | tee -a "$logs/recompute-grouped.txt"
  timeout 60 python3 scripts/hint-variants.py "$d/base" "$d/recompute" "$d/recompute-grouped" --rounds 2 2>&1 \
    | tail -n 8 | tee -a "$logs/recompute-grouped.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
scripts/ncu-rows.sh .clvar12/softmax_bf16-1024x131072/default .clvar12/softmax_bf16-1024x131072/old-default \
  .clvar12/softmax_bf16-2048x65536/default || status=1
echo "call rc $status"
exit $status
