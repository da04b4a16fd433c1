#!/usr/bin/env bash
# Session 2026-12-06 (18). Carry .prebuilt17b, .rowvar17b, .rowvar18 and .whl.
# .rowvar18/<family>_<BxMxN>_<math|fused>_<old|new>: batched softmaxes over [block, block, thread]
# (python/tests/test_rows_a_block_random.py::_batched of the examples), compiled by motif-compile of
# ee9a928 with --fuse-options=equivalence-cap=mathematical (math) or the bitwise cap (fused); old = the
# same with row-blocks=false (math_old from the source with the threads the row rule chose), new = rows a
# block on a grid of two dims (8x2048x1024 bf16 and 16x2048x256 f32: the inner dim; 16x1023x1024 bf16:
# the outer one).
#  0. On an H200 only: scripts/gpu-call79.sh (copy forms, issue 13's bf16 row table, rows a block).
#  1. Any card: each batched new form against its old one, bit for bit, 3 rounds of 40 (hint-variants);
#     racecheck and memcheck on two of them.
#  2. Any card: the pytest GPU suite (python -m pytest -m gpu python/tests).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in *H200*) bash scripts/gpu-call79.sh || status=1 ;; esac
export MOTIF_PREBUILT="$root/.prebuilt17b"
for x in softmax_bf16_8x2048x1024 softmax_bf16_16x1023x1024 softmax_16x2048x256; do
  for f in math fused; do
    timeout 60 python3 scripts/hint-variants.py .rowvar18/${x}_${f}_old .rowvar18/${x}_${f}_new --rounds 3 2>&1 \
      | tail -n 4 | tee -a "$logs/rows-a-block-batched.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  done
done
gpu_sanitize .rowvar18/softmax_bf16_16x1023x1024_math_new sanitizers-batched.txt
gpu_sanitize .rowvar18/softmax_16x2048x256_fused_new sanitizers-batched.txt
timeout 330 python3 -m pytest -q -m gpu python/tests 2>&1 | tail -n 15 | tee "$logs/pytest-gpu.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
