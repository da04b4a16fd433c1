#!/usr/bin/env bash
# Session 2026-12-04 (6), device call 31: L2 policies on the global accesses of every memory-bound
# bench kernel (softmax_bf16 at three shapes, layernorm/rmsnorm bf16, softmax/layernorm/residual_relu
# f32; PTX edited by make-ptx-variants.py: loads evict_last / evict_first / evict_normal, stores
# evict_last), each against the kernel as compiled on eight inputs in turn after the lead
# (scripts/hint-variants.py, outputs bitwise equal to the compiled kernel's). Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
for b in .hints/softmax_bf16_* .hints/layernorm_bf16_* .hints/rmsnorm_bf16_* .hints/softmax_8192x4096 \
         .hints/layernorm_16384x4096 .hints/residual_relu_16384x4096; do
  n=$(basename $b)
  extra=""; case $n in softmax_bf16_*) extra=--triton-softmax;; esac
  echo "== $n"
  timeout 150 python3 scripts/hint-variants.py $b .hints/v/${n}_{ldlast,ldfirst,ldnormal,stlast} $extra --rounds 3 2>&1 \
    | grep -v -i warn | tee "$logs/hints-$n.txt" | tail -n 8
done
echo "call rc 0"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
