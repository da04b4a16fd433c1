#!/usr/bin/env bash
# Installs what is needed, builds, and runs every test: the lit suite
# (dialect, passes, lowering, PTX/SASS signatures, motif-sass), the Python
# package's pytest suite, then the lit suite again against an ASan+UBSan
# build (scripts/sanitize.sh, its own build dir). GPU tests skip themselves
# without a GPU; then 2,000 generated programs and 20,000 mutants through
# motif-fuzz. MOTIF_SANITIZE=0 / MOTIF_FUZZ_RUN=0 skip the last two steps
# (quick local runs; CI always runs both). See docs/testing.md.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"

status=0
echo "== lit: $build/test"
/usr/lib/llvm-22/bin/lit -sv "$build/test" || status=1

if [ -d "$root/python/tests" ]; then
  echo "== pytest: python/tests"
  set +e
  MOTIF_BUILD_DIR="$build" python3 -m pytest -q "$root/python/tests"
  rc=$?
  set -e
  # 5 = no tests collected; anything else non-zero is a failure.
  if [ $rc -ne 0 ] && [ $rc -ne 5 ]; then status=1; fi
fi

# The plain suite above comes first: it is the fast answer. The steps below
# re-check the same inputs with more machinery.
if [ "${MOTIF_SANITIZE:-1}" != 0 ]; then
  echo "== sanitizers: scripts/sanitize.sh (ASan + UBSan + LSan, lit)"
  "$root/scripts/sanitize.sh" || status=1
else
  echo "== sanitizers: skipped (MOTIF_SANITIZE=0)"
fi

# Generated programs and mutants (docs/fuzzing.md): a fixed budget, seeded,
# so a failure reproduces with the same command. Each failure is minimized
# and written to $build/fuzz-failures as a test case. MOTIF_FUZZ_RUN=0 skips.
if [ "${MOTIF_FUZZ_RUN:-1}" != 0 ]; then
  fuzz="$build/bin/motif-fuzz"
  failures="$build/fuzz-failures"
  rm -rf "$failures"
  echo "== generated programs: motif-fuzz run --seed=1 --count=2000 --jobs=2"
  "$fuzz" run --seed=1 --count=2000 --jobs=2 --failures="$failures" || status=1
  # The same generator under the tolerance cap: the rewrites of that class (row blocks, re-blocking
  # merges) judged against the float64 meaning.
  echo "== generated programs: motif-fuzz run --cap=tolerance --seed=2 --count=500 --jobs=2"
  "$fuzz" run --cap=tolerance --seed=2 --count=500 --jobs=2 --failures="$failures" || status=1
  # The lowered kernels of generated programs run on the CPU (python/motif/emulator.py), every form
  # bit for bit against the schedule model, with the emulator's race check.
  echo "== lowered kernels on the emulator: motif-fuzz gen --seed=3 --count=100; python -m motif.emulator"
  rm -rf "$build/emulator-programs"
  "$fuzz" gen --seed=3 --count=100 --jobs=2 -o "$build/emulator-programs" > /dev/null || status=1
  MOTIF_BUILD_DIR="$build" PYTHONPATH="$root/python" python3 -m motif.emulator "$build/emulator-programs" \
    --log "$build/emulator.log" || status=1
  # The same programs with the cluster exchanges behind cluster barriers (cluster-mbarrier=false; the
  # default pushes through st.async + mbarriers, whose bytes and phases the emulator models:
  # docs/testing.md), so both forms of the exchange run.
  echo "== the same with --lower-options=cluster-mbarrier=false"
  MOTIF_BUILD_DIR="$build" PYTHONPATH="$root/python" python3 -m motif.emulator "$build/emulator-programs" \
    --lower-options=cluster-mbarrier=false --log "$build/emulator-barrier.log" || status=1
  # Programs fused under the tolerance cap: rows a block re-block about one in six, and a thread's rows
  # exchange behind one barrier (docs/lowering.md, "Batched exchanges"; 15 of seed 4's 180 forms).
  echo "== lowered kernels on the emulator: motif-fuzz gen --cap=tolerance --seed=4 --count=60"
  rm -rf "$build/emulator-programs-tol"
  "$fuzz" gen --cap=tolerance --seed=4 --count=60 --jobs=2 -o "$build/emulator-programs-tol" > /dev/null || status=1
  MOTIF_BUILD_DIR="$build" PYTHONPATH="$root/python" python3 -m motif.emulator "$build/emulator-programs-tol" \
    --log "$build/emulator-tol.log" || status=1
  # A mutant of the big tiled and attention tests costs seconds (its schedule-model evaluation), one of
  # a row program milliseconds: the count is bounded by time too (MOTIF_MUTANT_SECONDS, default 900),
  # so CI stays under its limit as the corpus grows; the summary says where a bounded run stopped.
  mapfile -t corpus < <(cd "$root" && ls examples/*.mlir && find test -name '*.mlir' | sort)
  mutant_s="${MOTIF_MUTANT_SECONDS:-900}"
  echo "== mutants: motif-fuzz mutate --seed=1 --count=20000 --seconds=$mutant_s --jobs=2 (${#corpus[@]} files: examples/, test/)"
  (cd "$root" && "$fuzz" mutate --seed=1 --count=20000 --seconds="$mutant_s" --jobs=2 \
     --failures="$failures" "${corpus[@]}") || status=1
  if [ -d "$failures" ]; then
    echo "== fuzz failures (minimized test cases): $failures"
    ls "$failures"
  fi
else
  echo "== generated programs and mutants: skipped (MOTIF_FUZZ_RUN=0)"
fi

exit $status
