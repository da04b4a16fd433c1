#!/usr/bin/env bash
# Session 2026-12-04 (6), device call 32: does a prefetch.global.L2::evict_last before each global
# load (upstream nvvm.prefetch; no policy register) give what loads under an evict_last cache policy
# gave in call 31? Four memory-bound kernels, hint-variants.py as in call 31.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
for n in softmax_bf16_8192x4096 rmsnorm_bf16_16384x4096 layernorm_16384x4096 softmax_bf16_16384x1024; do
  echo "== $n"
  extra=""; case $n in softmax_bf16_*) extra=--triton-softmax;; esac
  timeout 150 python3 scripts/hint-variants.py .hints/$n .hints/v/${n}_{ldlast,pflast} $extra --rounds 3 2>&1 \
    | grep -v -i warn | tee "$logs/hints-pf-$n.txt" | tail -n 6
done
echo "call rc 0"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
