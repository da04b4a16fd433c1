#!/usr/bin/env bash
# One device call for the flash form's schedule variants (the GPU machine has no LLVM: compile here first):
#   python3 scripts/make-flash-variants.py .variants SPEC...      (docs/results/README.md names the specs)
#   python3 -m motif.prebuild .prebuilt --families ...; find .prebuilt -name '*.sass' -delete
# then on the device: scripts/gpu-flash-session.sh [variants] [tests] [bench]
# variants: scripts/flash-variants.py over every folder in .variants (SDPA and torch eager in the same
# run); tests: the flash-form GPU tests (pytest -k flash, with racecheck/memcheck); bench: motif.bench
# with $BENCH_ARGS. Logs go to $OUT (or /tmp/motif-gpu).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-/tmp/motif-gpu}"; mkdir -p "$out"
export MOTIF_PREBUILT="$root/.prebuilt" PYTHONPATH="$root/python:${PYTHONPATH:-}" PYTHONUNBUFFERED=1
cd "$root"
steps=("$@"); [ ${#steps[@]} -eq 0 ] && steps=(variants tests bench)
has() { for s in "${steps[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
status=0
nvidia-smi -L | tee "$out/gpu.txt"
if ! python3 -c 'import ml_dtypes' 2>/dev/null && ls .whl/ml_dtypes-*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-deps --no-index --find-links .whl ml_dtypes 2>&1 | tail -n 2
fi
if has variants && [ -d .variants ]; then
  echo "== flash variants"
  dirs=(); for d in .variants/*/; do [ -f "$(ls "$d"*.json 2>/dev/null | head -1)" ] && dirs+=("${d%/}"); done
  python3 scripts/flash-variants.py "${dirs[@]}" 2>&1 | tee "$out/flash-variants.txt"; [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
if has tests; then
  echo "== pytest -k flash"
  python3 -m pytest -q -rs python/tests -k "flash ${PYTEST_K:+or $PYTEST_K}" 2>&1 | tee "$out/pytest-flash.txt"; [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
if has bench; then
  echo "== bench"
  python3 -m motif.bench ${BENCH_ARGS:-} --json "$out/bench.json" 2>"$out/bench-progress.txt" | tee "$out/bench.txt"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi
exit $status
