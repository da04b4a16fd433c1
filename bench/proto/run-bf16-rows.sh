#!/usr/bin/env bash
# On the GPU: builds and runs the bf16 long-row prototype (bf16_long_rows.cu); log in $OUT if set.
set -u
cd "$(dirname "$0")"
out=${OUT:-/tmp}
nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -o /tmp/bf16rows bf16_long_rows.cu > "$out/bf16rows-ptxas.txt" 2>&1 || { cat "$out/bf16rows-ptxas.txt"; exit 1; }
/tmp/bf16rows 2>&1 | tee "$out/bf16rows.txt"
