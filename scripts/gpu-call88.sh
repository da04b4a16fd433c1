#!/usr/bin/env bash
# Session 2026-12-06 (19): the row rules with a runtime row count, timed (any card). Carry .rowvar19 and .whl,
# made with this commit's motif-compile:
#   rmsnorm_rows_<bit|tol>: test/Conversion/LinalgToMotif/Inputs/onnx-rows/rmsnorm.mlir (tensor<?x512xf32>),
#     --fuse-materialization under the bitwise cap (threads(256): what the tolerance cap gave before this
#     session too) and under --fuse-options=equivalence-cap=tolerance (threads(64): its per-row maps over the
#     row count now go with the rows); run at 32768 rows, class tolerance between them (--rtol 1e-5).
#   runtime_inner_<old|new>: @runtime_rows_inner_dim of test/Dialect/Motif/fuse-materialization-rows-a-block.mlir
#     (tensor<?x8192x256xf32>), fused under the bitwise cap with row-blocks=false (old) and by default (new:
#     4 rows a block on the static dim); run at a batch of 4 (32768 rows), bit for bit.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
timeout 90 python3 scripts/hint-variants.py .rowvar19/rmsnorm_rows_bit .rowvar19/rmsnorm_rows_tol --rtol 1e-5 \
  --rows 32768 --rounds 3 2>&1 | tee "$logs/runtime-rows-timing.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 90 python3 scripts/hint-variants.py .rowvar19/runtime_inner_old .rowvar19/runtime_inner_new \
  --rows 4 --rounds 3 2>&1 | tee -a "$logs/runtime-rows-timing.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
