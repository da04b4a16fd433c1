#!/usr/bin/env bash
# Session 2026-12-04 (3), device call 9: issue 13's families in one motif.bench run (peers: torch
# eager, torch.compile, Triton, SDPA, cuBLAS through torch) after the mma.sync mainloop (fragments
# one slice ahead), the XOR-swizzled operand tiles and P V on wgmma at E >= 128 by default; after
# python3 -m motif.prebuild .prebuilt. Outputs: $OUT/bench.txt, bench.json, bench.png, progress.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-/tmp/motif-gpu}"; mkdir -p "$out"
export MOTIF_PREBUILT="$root/.prebuilt" PYTHONPATH="$root/python:${PYTHONPATH:-}" PYTHONUNBUFFERED=1
cd "$root"
python3 -c 'import ml_dtypes' 2>/dev/null || python3 -m pip install -q --no-deps --no-index --find-links .whl ml_dtypes
timeout 570 python3 -m motif.bench \
  --families ${BENCH_FAMILIES:-softmax_bf16,layernorm_bf16,rmsnorm_bf16,gemm_bf16,gemm_f16,linear_bf16,mha_bf16,mha_f16} \
  --json "$out/bench.json" --png "$out/bench.png" 2>"$out/bench-progress.txt" | tee "$out/bench.txt"
