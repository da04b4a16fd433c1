#!/usr/bin/env bash
# Session 2026-12-07 (23): carry .prebuilt22 (see scripts/gpu-call96.sh), .mmatiles23, .fuzz23 and .whl.
#   .mmatiles23: scripts/mma-tile-variants.sh .mmatiles23 (this commit's tools)
#   .fuzz23:     (ee7f215, the GEMM stream) build/bin/motif-fuzz gen --seed=20261223 --count=200 --cap=mathematical --compile --jobs=2 \
#                  -o /tmp/fuzz23/programs && tar -C /tmp/fuzz23 -cJf .fuzz23/programs.tar.xz programs
#  0. On an H200 only: issue 13's bf16 row table (motif.bench of softmax_bf16, layernorm_bf16,
#     rmsnorm_bf16, every peer in the same run).
#  1. Any card: the tensor-core default schedule's block tiles (mma-min-grid 0 / 132 / 264 / 528 / 1056)
#     over 14 GEMM shapes against float64 and cuBLAS (scripts/gemm-variants.py).
#  2. Any card, in the time left of CALL_SECONDS (default 560): motif.fuzz_gpu over .fuzz23 (200 programs under the mathematical cap).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt22"
status=0
start=$SECONDS
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in
*H200*)
  timeout 220 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
    --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
    | grep -v unfused | grep -E "copy|motif math|motif fused|norm|body" | cut -c1-170
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
*) echo "not an H200 ($name): the bf16 row table is not run" ;;
esac
budget=${CALL_SECONDS:-560}
tiles=$((budget - (SECONDS - start) - 20)); [ "$tiles" -gt 200 ] && tiles=200
timeout "$tiles" python3 scripts/gemm-variants.py $(ls -d .mmatiles23/*_* | sort -V) 2>&1 \
  | tee "$logs/mma-tiles.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
grep -q WRONG "$logs/mma-tiles.txt" && status=1
left=$((budget - (SECONDS - start)))
if [ "$left" -gt 60 ]; then gpu_fuzz .fuzz23/programs.tar.xz "$left"; fi
echo "call rc $status"
exit $status
