#!/usr/bin/env bash
# Session 2026-12-07 (26), any card: every wgmma tile of the default schedules' table at 12 shapes
# (scripts/make-wgmma-tile-variants.sh .wgtile26; the folder ending _default is the default's pick)
# against float64, cuBLAS and Triton: the data for the tile rule. Carry .wgtile26 and .whl.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 540 python3 scripts/gemm-variants.py $(for d in $(ls -d .wgtile26/*_* | sort -V); do echo "nt:$d"; done) \
  2>&1 | tee "$logs/wgmma-tiles.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
