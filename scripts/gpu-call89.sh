#!/usr/bin/env bash
# Session 2026-12-06 (19): the open question of rows a block at 64 threads (docs/residency.md, "Row blocks":
# two random bf16 programs of rows of 768 and 512 ran 2 - 3% slower at 4 rows a block). bf16 softmax
# 16384 x N (N = 512, 768; examples/softmax_bf16.mlir with threads(64)) fused under tolerance: r1 =
# row-blocks=false (one row a block, 30 / 32 registers), r4 = this compiler (4 rows a block, 56 / 72),
# r2 = r4's fused program with `block x seq(2)` (2 rows a block, 32 / 40), compiled unfused-as-written.
# Each against r1 bit for bit, 3 rounds of 40. Carry .rowvar19 and .whl.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
for n in ${NS:-512 768}; do
  timeout 80 python3 scripts/hint-variants.py .rowvar19/sm${n}_r1 .rowvar19/sm${n}_r2 .rowvar19/sm${n}_r4 --rounds 3 2>&1 \
    | tee -a "$logs/rows-a-block-r.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
echo "call rc $status"
exit $status
