#!/usr/bin/env bash
# The main job: installs what is needed, builds, and runs the examples
# through motif-opt. (Later stages extend this to --fuse-materialization,
# PTX and the SASS that proves each residency.)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
"$root/scripts/setup.sh"
opt="$build/bin/motif-opt"
for f in "$root"/examples/*.mlir; do
  n=$(grep -c 'motif.kernel "' "$f")
  "$opt" "$f" > /dev/null
  printf '%-28s parses and verifies: %2d kernels\n' "$(basename "$f")" "$n"
done
