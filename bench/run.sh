#!/bin/sh
# Full benchmark (every family, every ANCHORS shape, copy ceiling) on the GPU machine:
# table on stdout and in OUT/bench.txt, JSON and PNG beside it. Usage: bench/run.sh [OUT]
set -e
cd "$(dirname "$0")/.."
out=${1:-bench/out}
mkdir -p "$out"
PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1 \
  python3 -m motif.bench --json "$out/bench.json" --png "$out/bench.png" | tee "$out/bench.txt"
