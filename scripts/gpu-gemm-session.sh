#!/usr/bin/env bash
# One device call for GEMM schedules (the GPU machine has no LLVM: compile here first, e.g.
#   build/bin/motif-compile X.mlir --chip=sm_90a -o .variants/NAME ; carry .variants and .whl).
# Usage there: scripts/gpu-gemm-session.sh "[nt:]DIR ..." "[nt:]DIR ..."
#   $1: directories timed against cuBLAS (scripts/gemm-variants.py, fresh inputs, float64 reference)
#   $2: small directories also run under compute-sanitizer memcheck and racecheck
# Logs go to $OUT (or /tmp/motif-gpu).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-/tmp/motif-gpu}"; mkdir -p "$out"
export PYTHONPATH="$root/python:${PYTHONPATH:-}" PYTHONUNBUFFERED=1
cd "$root"
if ! python3 -c 'import ml_dtypes' 2>/dev/null && ls .whl/ml_dtypes-*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-deps --no-index --find-links .whl ml_dtypes 2>&1 | tail -n 2
fi
status=0
nvidia-smi -L | tee "$out/gpu.txt"
echo "== gemm variants"
# shellcheck disable=SC2086
python3 scripts/gemm-variants.py ${1:-} 2>&1 | tee "$out/gemm-variants.txt"; [ "${PIPESTATUS[0]}" = 0 ] || status=1
grep -q WRONG "$out/gemm-variants.txt" && status=1
for d in ${2:-}; do
  for tool in memcheck racecheck; do
    echo "== compute-sanitizer --tool $tool $d"
    compute-sanitizer --tool "$tool" --print-limit 20 python3 scripts/gemm-variants.py "$d" \
      2>&1 | tail -n 8 | tee -a "$out/sanitizer.txt"
  done
done
exit $status
