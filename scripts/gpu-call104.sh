#!/usr/bin/env bash
# Session 2026-12-07 (24): on an H200 only, issue 13's bf16 row table (motif.bench of softmax_bf16,
# layernorm_bf16, rmsnorm_bf16, every peer in the same run) with this session's compiler; on any other
# card nothing (it says which). Carry .prebuilt24 (scripts/gpu-call101.sh says how) and .whl.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt24"
status=0
gpu_row_table_if_h200 400
echo "call rc $status"
exit $status
