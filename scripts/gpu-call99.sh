#!/usr/bin/env bash
# Session 2026-12-07 (24): carry .prebuilt22 (scripts/gpu-call96.sh), .mmatiles23 (scripts/mma-tile-variants.sh)
# and .whl.
#  0. On an H200 only: issue 13's bf16 row table (motif.bench of softmax_bf16, layernorm_bf16, rmsnorm_bf16,
#     every peer in the same run).
#  1. Any card: compute-sanitizer memcheck and racecheck on the tensor-core default schedule's new block
#     tiles (scripts/gpu-call98.sh).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt22"
status=0
gpu_row_table_if_h200 220
bash scripts/gpu-call98.sh || status=1
echo "call rc $status"
exit $status
