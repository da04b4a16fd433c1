#!/usr/bin/env bash
# Session 2026-12-04 (4), device call 17: the flash form's row max and row sum as balanced trees
# (.variants/tree-*: 5 dependent steps for a row's 32 values instead of 31) against the same kernels
# with the chains (.variants/bf16_*, f16_*, compiled before the change), sm_90a and sm_90, with SDPA and
# the Triton flash kernel in the same run. Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 250 python3 scripts/flash-variants.py .variants/*_h64_*/ 2>&1 | tee "$logs/flash-variants.txt"
grep -q WRONG "$logs/flash-variants.txt" && status=1
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
