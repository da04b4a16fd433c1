#!/usr/bin/env bash
# Session 2026-12-04, device call 6: mma.sync GEMM schedules (.variants/w8-*, lin-*) against cuBLAS, and
# the flash form on sm_90a with P.V on wgmma (pv=on) against the default, with SDPA, in one run each.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${OUT:-/tmp/motif-gpu}"; mkdir -p "$out"
export PYTHONPATH="$root/python:${PYTHONPATH:-}"
python3 -c 'import ml_dtypes' 2>/dev/null || python3 -m pip install -q --no-deps --no-index --find-links .whl ml_dtypes
timeout 200 python3 scripts/flash-variants.py $(ls -d .variants/bf16_*/) 2>&1 | tee "$out/flash-variants-pv.txt"
timeout 250 python3 scripts/gemm-variants.py $(ls -d .variants/w8-*) nt:.variants/lin-s3 nt:.variants/lin-n128w16 2>&1 | tee "$out/gemm-variants-mma.txt"
