#!/usr/bin/env bash
# Session 2026-12-05 (13), last device call. Carry .prebuilt13f, .clvar13, .whl (as gpu-call59/60.sh; the
# default lowering of the final commit is byte-identical to .prebuilt13f's: the bf16 1024x131072 cluster
# kernel's PTX compared with cmp). The bf16 row families' GPU tests (every form against float64,
# racecheck and memcheck), then the sanitizers on cluster-push's kernel through gpu_sanitize.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt13f"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
timeout 300 python3 -m pytest -q python/tests/test_gpu.py \
  -k "(numerics_of_example or sanitizers_on_shared) and bf16 and (softmax or norm)" 2>&1 | tail -n 8 \
  | tee "$logs/pytest-rows-bf16.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
gpu_sanitize .clvar13/softmax_bf16-1024x131072/pushrc cluster-push-sanitizer.txt
echo "call rc $status"
exit $status
