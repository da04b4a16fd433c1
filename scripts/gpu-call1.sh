#!/usr/bin/env bash
# Session 2026-12-04 device call: wgmma in-flight variant, ncu of the GEMMs, then the GPU suite.
set -uo pipefail
out="${OUT:-/tmp/motif-gpu}"
mkdir -p "$out/gemm" "$out/ncu" "$out/suite"
OUT="$out/gemm" timeout 150 scripts/gpu-gemm-session.sh "nt:.variants/wgmma-8192 nt:.variants/wgmma-8192-inflight .variants/w8-8192 nt:.variants/wgmma-small-inflight nt:.variants/wgmma-odd-inflight" "nt:.variants/wgmma-small-inflight nt:.variants/wgmma-odd-inflight"
OUT="$out/ncu" timeout 120 scripts/ncu-gemm.sh ".variants/w8-8192 nt:.variants/wgmma-8192-inflight"
OUT="$out/suite" scripts/gpu-session.sh numerics tests fuzz > "$out/suite/session.txt" 2>&1
echo "suite rc $?"
