#!/usr/bin/env bash
# Session 2026-12-05 (8), device call 37: row clusters on by default where they pay
# (fuse-materialization row-clusters=auto). Carry .prebuilt (a fresh python -m motif.prebuild with
# this compiler, then scripts/long-rows-check.py to add its programs), .fuzz (motif-fuzz gen
# --seed=20261220 --count=120 --compile) and .whl. Logs tarred into $OUT.
#  1. scripts/long-rows-check.py: the row families at long rows against float64, every form; bf16
#     rows of 131072 and 100000 run as clusters of 8 CTAs in the mathematical form.
#  2. motif.bench softmax_bf16: its five shapes, 1024x131072 (the cluster) among them.
#  3. the motif-fuzz GPU run (120 programs, 20 memcheck), with fuzz_gpu's f32-reach rule.
#  4. the whole pytest suite (GPU tests for real).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 100 python3 scripts/long-rows-check.py 2>&1 | grep -v -i warn > "$logs/long-rows-check.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
tail -n 12 "$logs/long-rows-check.txt"
timeout 170 python3 -m motif.bench --families softmax_bf16 --json "$logs/bench-softmax-bf16.json" \
  2>"$logs/bench-progress.txt" > "$logs/bench-softmax-bf16.txt" || status=1
grep -v unfused "$logs/bench-softmax-bf16.txt" | cut -c1-175
rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz/programs.tar.xz
timeout 100 python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --memcheck 20 --log "$logs/fuzz-gpu.log" \
  > "$logs/fuzz-gpu.txt" 2>&1 || status=1
tail -n 10 "$logs/fuzz-gpu.txt"
timeout 280 python3 -m pytest -q -rs python/tests > "$logs/pytest.txt" 2>&1 || status=1
tail -n 4 "$logs/pytest.txt"
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
