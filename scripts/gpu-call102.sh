#!/usr/bin/env bash
# Session 2026-12-07 (24), any card: what the tensor-core default schedule's 128x128 tile loses to
# examples/gemm_bf16.mlir (the same mapping): 2 stages and half the accumulators in a shared tail
# (register budget 64) against 3 stages in registers. Carry .partial24, .stagevar24 and .whl:
#   .stagevar24/*_default_regs: the default at register-budget=128 (stages 2, every accumulator in registers)
#   .stagevar24/*_gemm_bf16_s2 / _s4: examples/gemm_bf16.mlir with stages(2) / stages(4)
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
timeout 200 python3 scripts/gemm-variants.py .partial24/4095x4096x4096_nn_t128x128_g1024 \
  .stagevar24/4095x4096x4096_default_regs .partial24/4095x4096x4096_nn_gemm_bf16 \
  .stagevar24/4095x4096x4096_gemm_bf16_s2 .stagevar24/4095x4096x4096_gemm_bf16_s4 \
  .partial24/8191x8192x8192_nn_gemm_bf16 .stagevar24/8191x8192x8192_gemm_bf16_s2 \
  .stagevar24/8191x8192x8192_gemm_bf16_s4 2>&1 | tee "$logs/stage-variants.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
