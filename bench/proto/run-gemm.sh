#!/usr/bin/env bash
# On the GPU: builds and runs the mma.sync GEMM prototype (mma_gemm.cu) against cuBLAS.
# Usage: bench/proto/run-gemm.sh [M N K]   (default 8192 8192 8192)
set -u
cd "$(dirname "$0")"
nvcc -O3 -std=c++17 -arch=sm_90 -lineinfo -o /tmp/mma_gemm mma_gemm.cu -lcublas || exit 1
/tmp/mma_gemm "$@" 2>&1
