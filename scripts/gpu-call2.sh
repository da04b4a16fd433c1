#!/usr/bin/env bash
# Session 2026-12-04, device call 2: the new families and forms (linear, linear_bf16 on wgmma; the
# half flash form with its scores on wgmma: mathematical-sm_90a), then the bf16 benchmark in one run.
# Everything compiled here first (python3 -m motif.prebuild .prebuilt); logs tarred into $OUT.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-/tmp/motif-gpu}"; logs="$out/logs"; mkdir -p "$logs"
export MOTIF_PREBUILT="$root/.prebuilt" PYTHONPATH="$root/python:${PYTHONPATH:-}" PYTHONUNBUFFERED=1
cd "$root"
if ! python3 -c 'import ml_dtypes' 2>/dev/null; then
  python3 -m pip install -q --no-deps --no-index --find-links .whl ml_dtypes 2>&1 | tail -n 2
fi
status=0
echo "== numerics (new families and forms)"
timeout 240 python3 -m motif.numerics --families linear,linear_bf16,mha_bf16,mha_f16,attention_bf16 \
  > "$logs/numerics.txt" 2>&1 || status=1
tail -n 40 "$logs/numerics.txt"
echo "== pytest (flash edges on sm_90 and sm_90a, wgmma sanitizers, the new families)"
timeout 420 python3 -m pytest -q -rs python/tests/test_gpu.py \
  -k "edges_half or wgmma_sanitizers or linear or mha_bf16 or mha_f16 or attention_bf16" \
  > "$logs/pytest.txt" 2>&1 || status=1
tail -n 15 "$logs/pytest.txt"
echo "== bench (one run)"
timeout 600 python3 -m motif.bench --families ${BENCH_FAMILIES:-linear_bf16,gemm_bf16,mha_bf16} ${BENCH_ARGS:---max-shapes 2} \
  --json "$out/bench.json" 2>"$logs/bench-progress.txt" | tee "$out/bench.txt" || status=1
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
