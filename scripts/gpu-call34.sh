#!/usr/bin/env bash
# Session 2026-12-04 (6), device call 34: the GPU suite with the L2 load policy on (every kernel PTX rewritten) (scripts/gpu-session.sh
# tests fuzz: every pytest GPU test for real -- the numerics of every family and form, the flash
# edge shapes in three builds, the sanitizers -- and 120 random programs from motif-fuzz gen,
# seed 20261206, run against the schedule model with memcheck on some). Logs tarred into $OUT.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-/tmp/motif-gpu}"; logs="$out/logs"; mkdir -p "$logs"
cd "$root"
status=0
OUT="$logs" FUZZ_MEMCHECK=20 timeout 560 scripts/gpu-session.sh tests fuzz > "$logs/session.txt" 2>&1 || status=1
echo "suite rc $status"
tail -n 3 "$logs/pytest.txt"; tail -n 9 "$logs/fuzz-gpu.txt"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
