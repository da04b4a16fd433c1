#!/usr/bin/env bash
# Session 2026-12-04 (4), device calls 18 and 19: the flash form with mbarrier-tracked stages (online-mbarrier;
# call 19: each step copies at its start, *_late: at its end) against the block barrier per tile, with
# and without ping-pong, timed against SDPA and Triton
# (.variants/bf16*); then edge shapes (.variants/small: partial tiles, 1 key, D != E, f16, many
# stage reuses) checked against float64 and under
# compute-sanitizer (memcheck, racecheck, synccheck). Logs tarred into $OUT.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${OUT:-/tmp/motif-gpu}"; logs="$out/logs"; mkdir -p "$logs"
export PYTHONPATH="$root/python:${PYTHONPATH:-}" PYTHONUNBUFFERED=1 MOTIF_PREBUILT="$root/.prebuilt"
python3 -c 'import ml_dtypes' 2>/dev/null || python3 -m pip install -q --no-deps --no-index --find-links .whl ml_dtypes
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
