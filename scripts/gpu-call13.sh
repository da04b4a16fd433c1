#!/usr/bin/env bash
# Session 2026-12-04 (4), device call 13: the flash form with P.V one key tile behind the scores
# (online-overlap), two warpgroups (threads(256)) and their ping-pong (online-pingpong), on sm_90a and
# sm_90, against SDPA and the Triton flash kernel in one run (.variants/bf16*); then the small edge shapes
# (.variants/small: partial key tiles, 1 key, D != E, f16) checked against float64 and under
# compute-sanitizer (memcheck, racecheck, synccheck). Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 300 python3 scripts/flash-variants.py .variants/bf16*/ 2>&1 | tee "$logs/flash-variants.txt"
grep -q WRONG "$logs/flash-variants.txt" && status=1
FLASH_CHECK_ONLY=1 timeout 60 python3 scripts/flash-variants.py .variants/small/*/ 2>&1 | tee "$logs/small.txt"
grep -q WRONG "$logs/small.txt" && status=1
for tool in memcheck racecheck synccheck; do
  FLASH_CHECK_ONLY=1 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 \
    python3 scripts/flash-variants.py .variants/small/*/ > "$logs/sanitizer-$tool.txt" 2>&1
  rc=$?; echo "$tool rc $rc: $(grep -c WRONG "$logs/sanitizer-$tool.txt") wrong; $(tail -n 1 "$logs/sanitizer-$tool.txt")"
  [ $rc = 0 ] || status=1
done
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
