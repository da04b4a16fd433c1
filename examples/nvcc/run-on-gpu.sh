#!/usr/bin/env bash
# Runs the nvcc example on a GPU machine that has no motif-compile: build it where
# motif-compile is (cmake -S examples/nvcc -B .nvcc-build ...), carry .nvcc-build,
# and run this there. The binary loads the PTX motif-compile wrote at build time.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bin="$root/.nvcc-build/softmax_host"
[ -x "$bin" ] || { echo "no $bin: build examples/nvcc into .nvcc-build first" >&2; exit 2; }
"$bin" "$root/.nvcc-build/motif/softmax.ptx"
