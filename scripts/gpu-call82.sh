#!/usr/bin/env bash
# Session 2026-12-06 (18). Carry .prebuilt17b, .prebuilt18, .rowvar17b, .rowvar18 and .whl.
# .rowvar18/<family>_<BxMxN>_<math|fused>_<old|new>: batched softmaxes over [block, block, thread]
# (python/tests/test_rows_a_block_random.py::_batched of the examples), compiled by motif-compile of
# ee9a928 with --fuse-options=equivalence-cap=mathematical (math) or the bitwise cap (fused); old = the
# same with row-blocks=false (math_old from the source with the threads the row rule chose), new = rows a
# block on a grid of two dims (8x2048x1024 bf16 and 16x2048x256 f32: the inner dim; 16x1023x1024 bf16:
# the outer one). .rowvar18/layernorm_3d_16x1024x1024_<bit|tol>_<old|new>: the ONNX LayerNorm of
# test/Conversion/LinalgToMotif/Inputs/onnx/layernorm_3d.mlir with its batch 4 -> 16 (sed 's/<4x1024x/<16x1024x/g'),
# imported, fused under the bitwise cap (bit) or tolerance (tol), old = row-blocks=false (tol_old from
# the imported form with threads(64)), new = this session's compiler (its per-row maps go with the rows:
# 4 rows a block; tol also threads(64)). .rowvar18/rowprog<k>_<old|new>: four random row programs of
# python/tests/row_programs.py (numpy seed 20261206; 16384 rows, or 8x2048, that fuse into one kernel and
# take rows a block; under tolerance and the bitwise cap in turn), new = fused by this compiler, old = the
# same on the threads it chose with row-blocks=false. .prebuilt18 = scripts/onnx-gpu-check.py --prebuild .prebuilt18.
#  0. On an H200 only: scripts/gpu-call79.sh (copy forms, issue 13's bf16 row table, rows a block).
#  1. Any card: each new form against its old one, bit for bit, 3 rounds of 40 (hint-variants);
#     racecheck and memcheck on three of them.
#  2. Any card: scripts/onnx-gpu-check.py (every imported program, unfused, fused and with the row rules
#     at small sizes, against float64).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in *H200*) bash scripts/gpu-call79.sh || status=1 ;; esac
for x in softmax_bf16_8x2048x1024_math softmax_bf16_8x2048x1024_fused softmax_bf16_16x1023x1024_math \
  softmax_bf16_16x1023x1024_fused softmax_16x2048x256_math softmax_16x2048x256_fused \
  layernorm_3d_16x1024x1024_bit layernorm_3d_16x1024x1024_tol rowprog0 rowprog1 rowprog2 rowprog3; do
  timeout 60 python3 scripts/hint-variants.py .rowvar18/${x}_old .rowvar18/${x}_new --rounds 3 2>&1 \
    | tail -n 4 | tee -a "$logs/rows-a-block-batched.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
for x in softmax_bf16_16x1023x1024_math softmax_16x2048x256_fused layernorm_3d_16x1024x1024_tol; do
  gpu_sanitize .rowvar18/${x}_new sanitizers-batched.txt
done
MOTIF_PREBUILT="$root/.prebuilt18" timeout 200 python3 scripts/onnx-gpu-check.py 2>&1 | tee "$logs/onnx-gpu-check.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
