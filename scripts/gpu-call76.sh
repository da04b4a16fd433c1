#!/usr/bin/env bash
# Session 2026-12-06 (17), first device call: only on an H200 (the issue's card; on any other it stops at once; four H100
# runs of step 0 are docs/results/copy-forms-h100-session17*.txt). Carry .prebuilt17 and .whl. .prebuilt17 is `python3 -m motif.prebuild .prebuilt17 --families
# softmax_bf16,layernorm_bf16,rmsnorm_bf16` by the compiler of this commit (relaxed cluster start, the
# default since session 16), *.sass deleted.
#  0. bench/proto/copy_forms.cu: every way we know to move softmax_bf16 8192x4096's bytes (and
#     16384x1024's), timed as motif.bench times: can any kernel that reads and writes them reach 0.9 of
#     the copy ceiling on this card?
#  1. Rows a block: softmax_bf16 8192x4096 and 16384x1024 compiled with the rows over `block x seq(R)`
#     (R rows a block, every thread R rows; .rowvar17/<shape>_r<R>_t<threads>, the example with that
#     schedule and threads(T), motif-compile --fuse-materialization, cap mathematical), timed against
#     the compiler's form (r1) by scripts/hint-variants.py, 3 rounds of 40; same threads: bit for bit.
#  2. motif.bench of the bf16 rows with the compiler of this commit.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt17"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in *H200*) ;; *) echo "not an H200 ($name): nothing run"; exit 0 ;; esac
nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -o /tmp/copyforms bench/proto/copy_forms.cu > "$logs/copy-forms-ptxas.txt" 2>&1 \
  && timeout 150 /tmp/copyforms 2>&1 | tee "$logs/copy-forms.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
v=.rowvar17
timeout 120 python3 scripts/hint-variants.py $v/v8192x4096_r1_t256 $v/v8192x4096_r2_t256 $v/v8192x4096_r4_t256 \
  $v/v8192x4096_r1_t128 $v/v8192x4096_r2_t128 $v/v8192x4096_r4_t128 --rtol 0.02 --rounds 3 2>&1 | tail -n 10 \
  | tee "$logs/rows-a-block-8192x4096.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 120 python3 scripts/hint-variants.py $v/v16384x1024_r1_t64 $v/v16384x1024_r2_t64 $v/v16384x1024_r4_t64 \
  $v/v16384x1024_r2_t128 $v/v16384x1024_r4_t128 --rtol 0.02 --rounds 3 2>&1 | tail -n 9 \
  | tee "$logs/rows-a-block-16384x1024.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 300 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
  --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
  | grep -v unfused | grep -E "copy|motif math|motif fused|norm" | cut -c1-200
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
