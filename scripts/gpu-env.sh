# Sourced by the per-call GPU scripts (scripts/gpu-call*.sh) on the device machine: the repository root
# as the working folder, $out (the device tool's $OUT, else /tmp/motif-gpu) and $logs under it, the
# Python path, the prebuilt outputs (.prebuilt), and ml_dtypes from the carried wheels (.whl) if missing.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${OUT:-/tmp/motif-gpu}"; logs="$out/logs"; mkdir -p "$logs"
export PYTHONPATH="$root/python:${PYTHONPATH:-}" PYTHONUNBUFFERED=1 MOTIF_PREBUILT="$root/.prebuilt"
python3 -c 'import ml_dtypes' 2>/dev/null || python3 -m pip install -q --no-deps --no-index --find-links .whl ml_dtypes

# motif.fuzz_gpu on a compiled program set (motif-fuzz gen --compile, as programs.tar.xz):
# gpu_fuzz TARBALL SECONDS. Sets status=1 on a failure; the tail goes to $logs/fuzz-gpu.txt. The run stops
# itself 30 s before SECONDS (--seconds), so its tally is printed; `timeout` is the backstop.
gpu_fuzz() {
  rm -rf /tmp/motif-fuzz && mkdir -p /tmp/motif-fuzz && tar -C /tmp/motif-fuzz -xJf "$1"
  timeout "$2" python3 -m motif.fuzz_gpu /tmp/motif-fuzz/programs --seconds $(($2 - 30)) --memcheck 8 \
    --log "$logs/fuzz-gpu.log" 2>&1 | tail -n 16 | tee "$logs/fuzz-gpu.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}

# The row families' GPU tests (every form against float64; racecheck and memcheck): gpu_row_tests SECONDS.
# Sets status=1 on a failure; the tail goes to $logs/pytest-rows.txt.
gpu_row_tests() {
  timeout "$1" python3 -m pytest -q python/tests/test_gpu.py \
    -k "(numerics_of_example or sanitizers_on_shared) and (softmax or norm)" 2>&1 | tail -n 8 \
    | tee "$logs/pytest-rows.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}

# compute-sanitizer memcheck and racecheck of one compiled kernel folder (one checked launch through
# scripts/hint-variants.py --rounds 0): gpu_sanitize DIR LOGNAME. Sets status=1 on a report.
gpu_sanitize() {
  for tool in memcheck racecheck; do
    timeout 60 compute-sanitizer --tool $tool --error-exitcode 3 python3 scripts/hint-variants.py "$1" \
      --rounds 0 2>&1 | tail -n 3 | tee -a "$logs/$2"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  done
}

# On an H200 only, issue 13's bf16 row table (motif.bench of softmax_bf16, layernorm_bf16, rmsnorm_bf16,
# every peer in the same run, MOTIF_PREBUILT's kernels): gpu_row_table_if_h200 SECONDS. Writes the card's
# name to $logs/device.txt; sets on_h200=1 when it ran, status=1 on a failure.
gpu_row_table_if_h200() {
  local name
  name=$(nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt")
  on_h200=0
  case "$name" in
  *H200*)
    on_h200=1
    timeout "$1" python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
      --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
      | grep -v unfused | grep -E "copy|motif math|motif fused|norm|body" | cut -c1-170
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
  *) echo "not an H200 ($name): the bf16 row table is not run" ;;
  esac
}
