#!/usr/bin/env bash
# Session 2026-12-04 (6), device call 35: row blocks now grow long rows (threads up to 512): the
# numerics of the row families at long rows (scripts/long-rows-check.py, float64, edge inputs), then
# softmax_bf16 at its four bench shapes (2048x65536 among them) in one motif.bench run. Logs under $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
timeout 70 python3 scripts/long-rows-check.py 2>&1 | grep -v -i warn | tee "$logs/long-rows-check.txt" | tail -n 30
status=${PIPESTATUS[0]}
timeout 70 python3 -m motif.bench --families softmax_bf16 --json "$logs/bench-softmax-bf16.json" \
  2>"$logs/bench-softmax-bf16-progress.txt" | tee "$logs/bench-softmax-bf16.txt" | grep -v unfused | cut -c1-150
echo "call rc $status"
exit $status
