#!/usr/bin/env bash
# Builds the libFuzzer targets in fuzz/ with clang + ASan + UBSan and runs
# each for SECONDS (default 60), one after the other, on one core.
#   scripts/fuzz.sh [SECONDS]
# Environment:
#   FUZZ_BUILD_DIR   build directory (default build-fuzz)
#   FUZZ_TARGETS     which targets (default "motif-opt-fuzzer motif-sass-fuzzer")
#   FUZZ_ARGS        extra libFuzzer flags (e.g. "-max_len=2048")
#   MOTIF_JOBS       build jobs (default 2)
#   MOTIF_FUZZ_NVVM=0  the opt target skips the PTX pipeline
# Corpora grow across runs in $FUZZ_BUILD_DIR/corpus/<target>/, seeded from
# examples/*.mlir and test/**/*.mlir (split at `// -----`), and for SASS from
# test/Sass/**/*.sass, the ptxas -v fixtures and each fixture listing joined
# with its report (a line `==ptxas==` between them). A crash, sanitizer report,
# leak, timeout or out-of-memory is kept under $FUZZ_BUILD_DIR/crashes/ and
# makes the script exit 1; rerun one with `$FUZZ_BUILD_DIR/bin/TARGET FILE`.
# See docs/testing.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
build="${FUZZ_BUILD_DIR:-$root/build-fuzz}"
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac
jobs="${MOTIF_JOBS:-2}"
targets="${FUZZ_TARGETS:-motif-opt-fuzzer motif-sass-fuzzer}"
llvm_prefix=/usr/lib/llvm-22

log() { printf '[fuzz] %s\n' "$*" >&2; }

command -v clang++ >/dev/null || { log "error: clang++ not found (apt-get install clang)"; exit 1; }
san_flags="-fsanitize=address,undefined,fuzzer-no-link -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
opt_flags="-O1 -g1"   # no -DNDEBUG: assertions are checked too

start=$(date +%s)
log "configuring $build"
cmake -G Ninja -S "$root" -B "$build" \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOTIF_FUZZ=ON \
  -DCMAKE_CXX_FLAGS="$san_flags" -DCMAKE_C_FLAGS="$san_flags" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$opt_flags" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$opt_flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DMLIR_DIR="$llvm_prefix/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="$llvm_prefix/bin/lit" >/dev/null
log "building $targets (${jobs} jobs)"
# shellcheck disable=SC2086
ninja -C "$build" -j"$jobs" $targets >&2
log "build took $(( $(date +%s) - start )) s"

# Seeds: one file per `// -----` piece, so every piece of a split-input test
# is a valid (or precisely invalid) program of its own.
seed_mlir() {
  local out="$1"; rm -rf "$out"; mkdir -p "$out"
  python3 - "$root" "$out" <<'PY'
import glob, hashlib, os, sys
root, out = sys.argv[1], sys.argv[2]
files = sorted(glob.glob(os.path.join(root, "examples", "*.mlir")) +
               glob.glob(os.path.join(root, "test", "**", "*.mlir"), recursive=True))
for path in files:
    text = open(path, encoding="utf-8", errors="replace").read()
    for piece in text.split("// -----"):
        data = piece.encode()
        if piece.strip():
            open(os.path.join(out, hashlib.sha1(data).hexdigest()), "wb").write(data)
PY
}
seed_sass() {
  local out="$1"; rm -rf "$out"; mkdir -p "$out"
  find "$root/test/Sass" \( -name '*.sass' -o -name '*.ptxas.txt' \) -type f \
    -exec cp -t "$out" {} +
  # A listing with its ptxas -v report, joined at the fuzzer's marker line.
  local sass
  for sass in "$root"/test/Sass/fixtures/*.sass; do
    local report="${sass%.sass}.ptxas.txt"
    report="${report/.cuobjdump.ptxas.txt/.ptxas.txt}"
    [ -f "$report" ] && { cat "$sass"; printf '\n==ptxas==\n'; cat "$report"; } \
      >"$out/$(basename "$sass").with-report"
  done
}

mkdir -p "$build/crashes" "$build/logs"
export ASAN_OPTIONS="allow_user_poisoning=0:detect_leaks=1:abort_on_error=1"
export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1"
export ASAN_SYMBOLIZER_PATH="$llvm_prefix/bin/llvm-symbolizer"

status=0
summary=()
for target in $targets; do
  seeds="$build/seeds/$target"
  corpus="$build/corpus/$target"
  dict="$root/fuzz/${target%-fuzzer}.dict"
  case "$target" in
    motif-sass-fuzzer) seed_sass "$seeds" ;;
    *) seed_mlir "$seeds" ;;
  esac
  mkdir -p "$corpus"
  flog="$build/logs/$target.log"
  dict_arg=()
  [ -f "$dict" ] && dict_arg=("-dict=$dict")
  log "running $target for ${seconds} s (log: $flog)"
  before=$(find "$build/crashes" -type f | wc -l)
  set +e
  # -timeout: an input taking 30 s is a hang; -rss_limit_mb/-malloc_limit_mb:
  # an input that needs gigabytes should be a located error instead.
  # shellcheck disable=SC2086
  nice -n 19 "$build/bin/$target" "${dict_arg[@]}" \
    -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -malloc_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$build/crashes/$target-" ${FUZZ_ARGS:-} \
    "$corpus" "$seeds" >"$flog" 2>&1
  rc=$?
  set -e
  after=$(find "$build/crashes" -type f | wc -l)
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$flog" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$flog" | tail -1)
  inited=$(grep -E '#[0-9]+[[:space:]]+INITED' "$flog" | sed -n 's/.*cov: \([0-9]*\) ft: \([0-9]*\).*/\1 edges, \2 features/p' | tail -1)
  final=$(grep -E '#[0-9]+[[:space:]]+(DONE|pulse|NEW|REDUCE|INITED)' "$flog" | tail -1 |
          sed -n 's/.*cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\).*/\1 edges, \2 features, corpus \3/p')
  edges=$(sed -n 's/^INFO: Loaded 1 modules *(\([0-9]*\) inline 8-bit counters.*/\1/p' "$flog" | head -1)
  line="$target: ${execs:-?} execs (${rate:-?}/s); of ${edges:-?} instrumented edges: at start ${inited:-?}, at end ${final:-?}"
  if [ $rc -ne 0 ] || [ "$after" -gt "$before" ]; then
    status=1
    line="$line; FAILED (exit $rc), new artifacts:"
    for f in $(find "$build/crashes" -type f -newer "$seeds" | sort); do line="$line $f"; done
    grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|Assertion' "$flog" >&2 || true
  fi
  summary+=("$line")
done
printf 'fuzz: %s\n' "${summary[@]}"
exit $status
