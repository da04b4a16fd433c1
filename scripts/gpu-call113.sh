#!/usr/bin/env bash
# Session 2026-12-07 (26), any card: the bf16 ONNX MatMul imported through torch-mlir
# (test/Conversion/LinalgToMotif/Inputs/onnx/matmul_bf16.mlir, and the same at 4096^3), fused for sm_90a
# (wgmma, B [k, j] read transposed), against float64, cuBLAS and Triton; memcheck of the first. Carry .onnx26
# (build/bin/motif-compile IN --chip=sm_90a --fuse-materialization --fuse-options=equivalence-cap=tolerance
# --no-sass -o .onnx26/NAME) and .whl.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 python3 scripts/gemm-variants.py --check-only \
  .onnx26/matmul_bf16_onnx_sm90a 2>&1 | tail -n 3 | tee "$logs/sanitizers-onnx.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 120 python3 scripts/gemm-variants.py .onnx26/* 2>&1 | tee "$logs/gemm-onnx.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
