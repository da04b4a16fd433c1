#!/usr/bin/env bash
# Session 2026-12-04 (5), device call 22: the random flash specs of scripts/flash-random.py
# (.variants/random: shapes, dtypes, chips, schedules, every online-* lowering option) against
# float64, and those with P in registers under memcheck, racecheck and synccheck. Logs tarred
# into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
FLASH_CHECK_ONLY=1 timeout 90 python3 scripts/flash-variants.py .variants/random/*/ 2>&1 | tee "$logs/random.txt" | tail -n 3
grep -q WRONG "$logs/random.txt" && status=1
echo "random: $(grep -c 'rel err' "$logs/random.txt") checked, $(grep -c WRONG "$logs/random.txt") wrong"
rs=$(grep -l '}, {%r' .variants/random/*/*.ptx | xargs -n1 dirname | sort -u)
for tool in memcheck racecheck synccheck; do
  FLASH_CHECK_ONLY=1 timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 \
    python3 scripts/flash-variants.py $rs > "$logs/random-$tool.txt" 2>&1
  rc=$?; echo "$tool rc $rc: $(grep -c 'rel err' "$logs/random-$tool.txt") checked, $(grep -c WRONG "$logs/random-$tool.txt") wrong; $(tail -n 1 "$logs/random-$tool.txt")"
  [ $rc = 0 ] || status=1
done
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
