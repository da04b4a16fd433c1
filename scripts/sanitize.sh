#!/usr/bin/env bash
# Builds motif with AddressSanitizer + UndefinedBehaviorSanitizer (gcc) into
# its own build directory and runs the whole lit suite against those tools.
#   scripts/sanitize.sh             # configure (if needed), build, lit
# Environment:
#   ASAN_BUILD_DIR   build directory (default build-asan)
#   MOTIF_JOBS       build jobs (default 2)
#   LIT_ARGS         extra lit arguments (e.g. "--filter Sass")
#   SANITIZE_FUZZ_PROGRAMS, SANITIZE_FUZZ_MUTANTS, SANITIZE_FUZZ_SECONDS
#                    motif-fuzz budget (150 programs; 2000 mutants or 480 s)
# Any sanitizer report is a failure: reports are written to
# $ASAN_BUILD_DIR/sanitizer-logs/ (so a report under `not tool ...` cannot
# pass unseen), printed at the end, and make the script exit 1.
# Leaks are checked (detect_leaks=1); scripts/lsan.supp suppresses only
# allocations made by LLVM/MLIR globals that live until exit.
# See docs/testing.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ASAN_BUILD_DIR:-$root/build-asan}"
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
jobs="${MOTIF_JOBS:-2}"
llvm_prefix=/usr/lib/llvm-22

log() { printf '[sanitize] %s\n' "$*" >&2; }

san_flags="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
# gcc warns maybe-uninitialized inside ASan's own annotations (llvm/Support/JSON.h).
warn_flags="-Wno-maybe-uninitialized"
# -O1 keeps the instrumented tools fast enough; -g1 gives symbolized stacks.
# No -DNDEBUG: assertions in motif and in LLVM's inline headers (cast<>,
# ArrayRef/SmallVector bounds) are checked too.
opt_flags="-O1 -g1"

start=$(date +%s)
# Re-running cmake with the same cache values is cheap and keeps the flags
# right if the cache was made by hand.
log "configuring $build"
cmake -G Ninja -S "$root" -B "$build" \
  -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="$san_flags $warn_flags" -DCMAKE_C_FLAGS="$san_flags" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$opt_flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$opt_flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DMLIR_DIR="$llvm_prefix/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="$llvm_prefix/bin/lit" >/dev/null
log "building (${jobs} jobs)"
ninja -C "$build" -j"$jobs" >&2
build_s=$(( $(date +%s) - start ))
log "build took ${build_s} s"

logs="$build/sanitizer-logs"
rm -rf "$logs"
mkdir -p "$logs"
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=1:abort_on_error=1:log_path=$logs/asan"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
# abort_on_error=1 here too: UBSan would otherwise exit 1, which `not tool`
# takes for an expected error.
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$logs/ubsan"
export ASAN_SYMBOLIZER_PATH="$llvm_prefix/bin/llvm-symbolizer"
export UBSAN_SYMBOLIZER_PATH="$ASAN_SYMBOLIZER_PATH"

log "lit: $build/test"
lit_out="$build/lit-sanitize.log"
lit_start=$(date +%s)
set +e
# -a keeps every test's output in $lit_out, so a report printed by a command
# whose failure a test tolerated is still found; the console shows lit -sv's
# usual output (the passing tests' blocks are filtered out).
# shellcheck disable=SC2086
"$llvm_prefix/bin/lit" -sv -a ${LIT_ARGS:-} "$build/test" >"$lit_out" 2>&1
lit_rc=$?
set -e
lit_s=$(( $(date +%s) - lit_start ))
awk '/^(PASS|UNSUPPORTED|XFAIL): /{print; skip=1; next}
     skip && /^\*{20}$/ {skip=0; next}
     !skip' "$lit_out"

count() { # lit's summary line "  Passed  : 12 (95.00%)"
  local n
  n=$(sed -n "s/^ *$1 *: *\([0-9]*\).*/\1/p" "$lit_out" | tail -1)
  echo "${n:-0}"
}
passed=$(count Passed)
failed=$(( $(count Failed) + $(count Unresolved) + $(count 'Timed Out') + $(count 'Unexpectedly Passed') ))
unsupported=$(count Unsupported)
xfail=$(count 'Expectedly Failed')
ran=$(( passed + failed + xfail ))

# A short generator and mutation run under the sanitizers: the instrumented
# motif-fuzz forks workers that inherit the options above, so a report in a
# worker aborts it and motif-fuzz counts a crash.
fuzz_out="$build/fuzz-sanitize.log"
fuzz_start=$(date +%s)
# The mutants are bounded by time too (a mutant of the attention tests takes ~10 s here).
mutant_s="${SANITIZE_FUZZ_SECONDS:-480}"
log "motif-fuzz under the sanitizers: run --count=${SANITIZE_FUZZ_PROGRAMS:-150}, mutate --count=${SANITIZE_FUZZ_MUTANTS:-2000} --seconds=$mutant_s"
set +e
{
  # A check runs 5-10x slower under the sanitizers: the hang alarm is 300 s here, not 60 (a mutant of
  # the tiled examples took over 60 s under ASan; the same mutant passes the plain budget in CI).
  "$build/bin/motif-fuzz" run --seed=1 --count="${SANITIZE_FUZZ_PROGRAMS:-150}" --jobs="$jobs" --timeout=300
  run_rc=$?
  (cd "$root" && "$build/bin/motif-fuzz" mutate --seed=1 --count="${SANITIZE_FUZZ_MUTANTS:-2000}" \
     --seconds="$mutant_s" --jobs="$jobs" --timeout=300 examples/*.mlir $(find test -name '*.mlir' | sort))
  mutate_rc=$?
  echo "fuzz-rc: $run_rc $mutate_rc"
} >"$fuzz_out" 2>&1
set -e
fuzz_s=$(( $(date +%s) - fuzz_start ))
grep -E '^motif-fuzz (run|mutate):|bugs:|BUG' "$fuzz_out" | head -n 40
fuzz_failed=0
grep -q '^fuzz-rc: 0 0$' "$fuzz_out" || fuzz_failed=1

reports=()
while IFS= read -r -d '' f; do reports+=("$f"); done < <(find "$logs" -type f -print0 | sort -z)
for f in "${reports[@]}"; do
  echo "== sanitizer report: $f"
  head -n 80 "$f"
done
# gcc's UBSan runtime (apart from ASan's) ignores log_path: its reports, and
# any other report text in a test's output, are found in the lit log.
report_pattern='runtime error:|ERROR: (AddressSanitizer|LeakSanitizer)'
in_log=0
for f in "$lit_out" "$fuzz_out"; do
  n=$(grep -cE "$report_pattern" "$f" || true)
  if [ "$n" -ne 0 ]; then
    echo "== sanitizer reports in $f:"
    grep -nE "$report_pattern" "$f" | head -n 40
  fi
  in_log=$(( in_log + n ))
done
n_reports=$(( ${#reports[@]} + in_log ))

status=0
if [ "$lit_rc" -ne 0 ] || [ "$failed" -ne 0 ] || [ "$n_reports" -ne 0 ] || [ "$fuzz_failed" -ne 0 ]; then status=1; fi
echo "sanitize: $([ $status = 0 ] && echo PASS || echo FAIL): $ran tests run, $passed passed," \
     "$failed failed ($unsupported unsupported), motif-fuzz $([ $fuzz_failed = 0 ] && echo clean || echo "FAILED (see $fuzz_out)")," \
     "$n_reports sanitizer reports; build ${build_s} s, lit ${lit_s} s, motif-fuzz ${fuzz_s} s"
exit $status
