#!/usr/bin/env bash
# Session 2026-12-04 (4), device call 12: the flash form in two warpgroups (threads(256), 128 rows, 8 warps)
# against one warpgroup (threads(128)), SDPA and the Triton flash kernel in one run (.variants/*, made by
# scripts/make-flash-variants.py ... threads=256). Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 400 python3 scripts/flash-variants.py .variants/*/ 2>&1 | tee "$logs/flash-variants.txt"
grep -q WRONG "$logs/flash-variants.txt" && status=1
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
