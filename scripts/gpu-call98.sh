#!/usr/bin/env bash
# Session 2026-12-07 (23), any card: compute-sanitizer memcheck and racecheck on the tensor-core default
# schedule's new block tiles (16x8, 16x16, 32x16, 32x32, 64x32, 64x64, 128x16 and 64x32 at 1600^3), each
# also checked against float64 by scripts/gemm-variants.py. Carry .mmatiles23 (scripts/mma-tile-variants.sh)
# and .whl.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
dirs=".mmatiles23/512x512x512_t16x8_g1056 .mmatiles23/512x512x512_t16x16_g528 .mmatiles23/512x512x512_t32x16_g264
  .mmatiles23/512x512x512_t32x32_g132 .mmatiles23/768x768x768_t64x32_g264 .mmatiles23/768x768x768_t64x64_g132
  .mmatiles23/4096x16x4096_t128x16_g0 .mmatiles23/1600x1600x1600_t64x32_g1056"
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 3 python3 scripts/gemm-variants.py --check-only \
    $dirs 2>&1 | tail -n 12 | tee -a "$logs/sanitizers-mma-tiles.txt"
  rc=${PIPESTATUS[0]}
  echo "$tool rc $rc" | tee -a "$logs/sanitizers-mma-tiles.txt"
  [ "$rc" -eq 0 ] || status=1
done
echo "call rc $status"
exit $status
