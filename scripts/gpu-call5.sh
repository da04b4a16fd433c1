#!/usr/bin/env bash
# Session 2026-12-04, device call 5: mma.sync GEMM schedules of examples/gemm_bf16_w8.mlir at 8192^3
# (k steps of 32/64/128, 2-4 stages; compiled here into .variants/w8-*), against cuBLAS in one run.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
OUT="${OUT:-/tmp/motif-gpu}" scripts/gpu-gemm-session.sh "$(ls -d .variants/w8-* | tr '\n' ' ') nt:.variants/lin-s3 nt:.variants/lin-n128w16" ""
