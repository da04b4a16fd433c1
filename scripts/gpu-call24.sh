#!/usr/bin/env bash
# Session 2026-12-04 (5), device call 24: softmax_bf16 8192x4096, motif's default kernel (t256,
# mathematical) against the same PTX with other cache operators on its two loads and two stores
# (hand-edited copies in .smvar, reassembled by ptxas: ld.global without .nc, ld.global.cs,
# ld.global.nc.L1::no_allocate, st.global.cs, both .cs), against Triton and a same-bytes copy, three
# times in one run. Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
for run in 1 2 3; do
  timeout 100 python3 scripts/softmax-variants.py .smvar/*t256_{mathematical,plainld,ldcs,ldnoalloc,stcs,ldcs_stcs}/ 2>&1 \
    | grep -v -i warn | tee "$logs/softmax-cache-ops-$run.txt" | tail -n 8
done
echo "call rc 0"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
