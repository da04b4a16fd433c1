#!/usr/bin/env bash
# Session 2026-12-04 (5), device call 20: P.V on wgmma with P in registers (motif_nvvm.wgmma_rs,
# online-p-registers): the flash variants at D = 64 and 128 (threads, stages, rows, online-mbarrier,
# online-pingpong, online-overlap) against SDPA and the Triton flash kernel in one run, twice, to see
# the run-to-run spread. Needs .variants (scripts/make-flash-variants.py). Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
for run in 1 2; do
  timeout 250 python3 scripts/flash-variants.py .variants/bf16*/ 2>&1 | tee "$logs/flash-variants-$run.txt"
  grep -q WRONG "$logs/flash-variants-$run.txt" && status=1
done
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
