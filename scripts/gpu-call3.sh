#!/usr/bin/env bash
# Session 2026-12-04, device call 3: the flash form's schedule variants on sm_90a (scores on wgmma:
# stages 2/3/4, 64-row blocks; scripts/make-flash-variants.py), then the whole GPU suite
# (scripts/gpu-session.sh numerics tests fuzz). Logs tarred into $OUT.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-/tmp/motif-gpu}"; logs="$out/logs"; mkdir -p "$logs"
cd "$root"
status=0
OUT="$logs" timeout 120 scripts/gpu-flash-session.sh variants > "$logs/flash-session.txt" 2>&1 || status=1
cat "$logs/flash-variants.txt"
OUT="$logs" timeout 420 scripts/gpu-session.sh numerics tests fuzz > "$logs/session.txt" 2>&1 || status=1
echo "suite rc $status"
tail -n 3 "$logs/pytest.txt"; tail -n 9 "$logs/fuzz-gpu.txt"; grep -c "WRONG\|FAIL" "$logs/numerics.txt"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
