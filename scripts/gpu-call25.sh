#!/usr/bin/env bash
# Session 2026-12-04 (5), device call 25: softmax_bf16 8192x4096, motif's default kernel against
# Triton timed the same three ways (after the lead, bare, 20 back to back), with the loads without
# .nc and with the row sum's reciprocal as rcp.approx.ftz (no slow-path call), twice in one run.
# Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
for run in 1 2; do
  timeout 100 python3 scripts/softmax-variants.py .smvar/*t256_{mathematical,plainld,rcpapprox}/ 2>&1 \
    | grep -v -i warn | tee "$logs/softmax-triton-batched-$run.txt" | tail -n 8
done
echo "call rc 0"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
