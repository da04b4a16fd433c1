#!/usr/bin/env bash
# Installs what is needed, builds, and runs every test: the lit suite
# (dialect, passes, lowering, PTX/SASS signatures, motif-sass) and the Python
# package's pytest suite. GPU tests skip themselves without a GPU.
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
exit $status
