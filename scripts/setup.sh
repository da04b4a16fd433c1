#!/usr/bin/env bash
# Installs what motif needs (idempotent) and configures + builds it with 2 jobs.
#   scripts/setup.sh            # apt + pip + configure + build
# Environment: BUILD_DIR (default build), MOTIF_SKIP_APT=1 to skip apt,
# MOTIF_ONNX=1 to also pip-install onnx and torch-mlir (scripts/import-onnx.py).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${BUILD_DIR:-$root/build}"
llvm_prefix=/usr/lib/llvm-22

log() { printf '[setup] %s\n' "$*" >&2; }
sudo_() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

need_apt=()
for pkg in llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools ninja-build cmake g++ python3-pip libgtest-dev; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need_apt+=("$pkg")
done
if [ "${#need_apt[@]}" -gt 0 ] && [ "${MOTIF_SKIP_APT:-0}" != 1 ]; then
  log "apt: installing ${need_apt[*]}"
  sudo_ apt-get update -q
  DEBIAN_FRONTEND=noninteractive sudo_ apt-get install -y -q "${need_apt[@]}"
fi

py=python3
pip_missing=()
$py -c "import lit" 2>/dev/null || true   # lit comes with LLVM (llvm-22/bin/lit)
$py -c "import numpy" 2>/dev/null || pip_missing+=(numpy)
$py -c "import pytest" 2>/dev/null || pip_missing+=(pytest)
$py -c "import ml_dtypes" 2>/dev/null || pip_missing+=(ml_dtypes)  # numpy bfloat16 (bf16 buffers)
# nvdisasm that reads CUDA 13 cubins (Debian's CUDA 11.8 one cannot).
$py - <<'PY' 2>/dev/null || pip_missing+=(nvidia-cuda-nvdisasm)
import glob, os, sysconfig
paths = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
assert any(glob.glob(os.path.join(p, "nvidia", "*", "bin", "nvdisasm")) for p in paths)
PY
if [ "${#pip_missing[@]}" -gt 0 ]; then
  log "pip: installing ${pip_missing[*]}"
  $py -m pip install -q --disable-pip-version-check "${pip_missing[@]}"
fi
# Optional, for scripts/import-onnx.py only (CI and every test run without it).
if [ "${MOTIF_ONNX:-0}" = 1 ]; then
  $py -c "import onnx, torch_mlir" 2>/dev/null || {
    log "pip: installing onnx torch-mlir (MOTIF_ONNX=1)"
    $py -m pip install -q --disable-pip-version-check onnx torch-mlir
  }
fi
if [ -f "$root/python/pyproject.toml" ]; then
  $py -c "import motif" 2>/dev/null || $py -m pip install -q --disable-pip-version-check -e "$root/python"
fi

command -v ptxas >/dev/null || [ -x /usr/local/cuda/bin/ptxas ] || \
  log "warning: ptxas not found (CUDA toolkit); PTX->SASS tests will be skipped"

if [ ! -f "$build/build.ninja" ]; then
  log "configuring $build"
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$llvm_prefix/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$llvm_prefix/bin/lit" >&2
fi
log "building (2 jobs)"
start=$(date +%s)
ninja -C "$build" -j2 >&2
log "build took $(( $(date +%s) - start )) s"
