#!/usr/bin/env bash
# Session 2026-12-06 (18): scripts/gpu-call82.sh cut to what the device time left allows (about 700 s,
# failed starts costing 90 - 180 s each). Carry .prebuilt17b, .prebuilt18, .rowvar18 and .whl (the
# folders as gpu-call82.sh's header says).
#  0. On an H200 only: motif.bench of the bf16 rows (issue 13's table) with this compiler's prebuilt
#     outputs (.prebuilt17b: rows a block; the batched and per-row-map changes leave these 2-D programs'
#     code as it was).
#  1. Any card: each new form against its old one, bit for bit, 2 rounds of 40 (hint-variants); racecheck
#     and memcheck on the imported LayerNorm with per-row maps at 4 rows a block.
#  2. Any card: scripts/onnx-gpu-check.py.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in
*H200*)
  MOTIF_PREBUILT="$root/.prebuilt17b" timeout 200 python3 -m motif.bench \
    --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 --json "$logs/bench-rows-bf16.json" \
    2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
    | grep -v unfused | grep -E "copy|motif math|motif fused|norm|body" | cut -c1-170
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
esac
for x in layernorm_3d_16x1024x1024_tol layernorm_3d_16x1024x1024_bit softmax_bf16_16x1023x1024_math \
  softmax_bf16_8x2048x1024_fused softmax_16x2048x256_fused rowprog0 rowprog1 rowprog2 rowprog3; do
  timeout 40 python3 scripts/hint-variants.py .rowvar18/${x}_old .rowvar18/${x}_new --rounds 2 2>&1 \
    | tail -n 4 | tee -a "$logs/rows-a-block-batched.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
gpu_sanitize .rowvar18/layernorm_3d_16x1024x1024_tol_new sanitizers-batched.txt
MOTIF_PREBUILT="$root/.prebuilt18" timeout 150 python3 scripts/onnx-gpu-check.py 2>&1 | tee "$logs/onnx-gpu-check.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
