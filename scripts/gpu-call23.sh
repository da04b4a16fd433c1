#!/usr/bin/env bash
# Session 2026-12-04 (5), device call 23: softmax_bf16 8192x4096 (issue 13's one family below its
# best peer in the bench: 0.94-0.97x Triton) -- the schedule variants (.smvar: threads 128 / 256 /
# 512, mathematical and fused) against torch, Triton and a same-bytes copy, three times in one run
# for the spread; and Triton's softmax and flash kernels dumped (scripts/triton-dump.py --softmax).
# Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
for run in 1 2 3; do
  timeout 100 python3 scripts/softmax-variants.py .smvar/*/ 2>&1 | grep -v Warning | tee "$logs/softmax-variants-$run.txt" | tail -n 8
done
mkdir -p /tmp/tc && TRITON_CACHE_DIR=/tmp/tc timeout 120 python3 scripts/triton-dump.py /tmp/tdump --softmax > "$logs/triton-dump.txt" 2>&1
tar -C /tmp -czf "$logs/triton-cache.tgz" tc
echo "call rc 0"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
