#!/usr/bin/env bash
# Session 2026-12-05 (12), fifth device call: grouped stores for every map (not only a recomputing one).
# Carry .grpvar12 and .whl. Prepared with the compiler of the commit that adds this script (its
# KernelEmitter groups the unmasked global stores of every straight-line map 16 bytes at a time when
# group-recompute-stores is on -- the option was renamed group-stores after this call; =false is the old
# emission for maps that recompute nothing):
#   for each of gemm_bias_gelu M=16384 K=256 N=4096 and softmax (f32) M=8192 N=4096, the fused program
#   (default cap) with --lower-options=group-recompute-stores=false (plain) and =true (grouped).
# gemm_bias_gelu: GELU's erf has a branch, so each element's store sat in its own basic block and LLVM's
# load-store vectorizer, which works within one, left 64 STG.E a thread; grouped: 16 STG.E.128.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
for d in .grpvar12/*/; do
  d=${d%/}
  echo "== $d" | tee -a "$logs/grouped-stores.txt"
  timeout 90 python3 scripts/hint-variants.py "$d/plain" "$d/grouped" --rounds 3 2>&1 | tail -n 6 \
    | tee -a "$logs/grouped-stores.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
echo "call rc $status"
exit $status
