#!/usr/bin/env bash
# Session 2026-12-07 (27), the last ~250 s of device time: on an H200 issue 13's softmax_bf16 row only; on
# another card C = A^T B (gpu-call115.sh's .at27) against float64 and cuBLAS's TN form, and memcheck of the
# smallest. Carry .prebuilt26, .at27 and .whl.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt26"
status=0
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
case "$name" in
*H200*)
  # softmax_bf16 alone (the one row of the table still short of 0.9 of the copy ceiling).
  timeout 150 python3 -m motif.bench --families softmax_bf16 --json "$logs/bench-softmax-bf16.json" \
    2>"$logs/bench-softmax-bf16-progress.txt" | tee "$logs/bench-softmax-bf16.txt" | grep -v unfused | cut -c1-170
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
*)
  timeout 120 python3 scripts/gemm-variants.py $(ls -d .at27/out/* | sort -V) 2>&1 | tee "$logs/gemm-at.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  timeout 50 compute-sanitizer --tool memcheck --error-exitcode 3 python3 scripts/gemm-variants.py --check-only \
    .at27/out/at_384x160x320 2>&1 | tail -n 4 | tee -a "$logs/gemm-at-sanitizers.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
esac
echo "call rc $status"
exit $status
