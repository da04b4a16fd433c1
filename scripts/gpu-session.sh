#!/usr/bin/env bash
# One device session (the GPU machine has no LLVM): everything was compiled here first with
#   python3 -m motif.prebuild .prebuilt
# and .prebuilt travels with the tree; for the fuzz step also
#   build/bin/motif-fuzz gen --seed=S --count=N --compile -o .fuzz/programs && tar -C .fuzz -cJf .fuzz/programs.tar.xz programs
# Usage there: scripts/gpu-session.sh [numerics|tests|bench|nvcc|fuzz|all]...
# Logs go to $OUT (or /tmp/motif-gpu). BENCH_ARGS passes options to motif.bench (e.g. --families attention).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-/tmp/motif-gpu}"; mkdir -p "$out"
export MOTIF_PREBUILT="$root/.prebuilt" PYTHONPATH="$root/python:${PYTHONPATH:-}" PYTHONUNBUFFERED=1
cd "$root"
steps=("$@"); [ ${#steps[@]} -eq 0 ] && steps=(all)
has() { for s in "${steps[@]}"; do [ "$s" = "$1" ] || [ "$s" = all ] && return 0; done; return 1; }
status=0
{ nvidia-smi -L; python3 -c 'import torch; print("torch", torch.__version__, torch.cuda.get_device_name())'; } 2>&1 | tee "$out/gpu.txt"
# bf16 numpy arrays need ml_dtypes; the GPU machine reaches no index: install a wheel carried in .whl/
# (pip download ml_dtypes --no-deps --only-binary=:all: --python-version 3XX -d .whl) when it lacks it.
if ! python3 -c 'import ml_dtypes' 2>/dev/null && ls .whl/ml_dtypes-*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-deps --no-index --find-links .whl ml_dtypes 2>&1 | tail -n 2 | tee -a "$out/gpu.txt"
fi
python3 -c 'import ml_dtypes; print("ml_dtypes", ml_dtypes.__version__)' 2>&1 | tee -a "$out/gpu.txt"
if has numerics; then
  echo "== numerics"; python3 -m motif.numerics 2>&1 | tee "$out/numerics.txt"; [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
if has tests; then
  echo "== pytest (GPU tests run for real here)"
  python3 -m pytest -q -rs python/tests 2>&1 | tee "$out/pytest.txt"; [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
if has nvcc && [ -d examples/nvcc ]; then
  echo "== examples/nvcc"; bash examples/nvcc/run-on-gpu.sh 2>&1 | tee "$out/nvcc.txt"; [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
if has fuzz && [ -f .fuzz/programs.tar.xz ]; then
  echo "== motif-fuzz GPU differential run"
  rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf .fuzz/programs.tar.xz
  python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --memcheck "${FUZZ_MEMCHECK:-10}" \
    --seconds "${FUZZ_SECONDS:-0}" --log "$out/fuzz-gpu.log" 2>&1 | tee "$out/fuzz-gpu.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
if has bench; then
  echo "== bench"
  python3 -m motif.bench ${BENCH_ARGS:-} --json "$out/bench.json" --png "$out/bench.png" 2>"$out/bench-progress.txt" | tee "$out/bench.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
exit $status
