#!/usr/bin/env bash
# Session 2026-12-07 (27), any card. On an H200: issue 13's bf16 row table, then the whole GPU pytest
# suite (sessions 25-27's compiler; not run whole since session 20). On an H100: every wgmma tile of the
# default schedules' table at 12 shapes against cuBLAS and Triton (the data for a wave-aware tile rule;
# scripts/make-wgmma-tile-variants.sh .wgtile26). Carry .prebuilt26, .wgtile26 and .whl.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt26"
status=0
gpu_row_table_if_h200 200
if [ "$on_h200" = 1 ]; then
  timeout 330 python3 -m pytest -q -rs python/tests -p no:cacheprovider 2>&1 | tee "$logs/pytest-gpu.txt" | tail -n 25
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
else
  timeout 540 python3 scripts/gemm-variants.py $(for d in $(ls -d .wgtile26/*_* | sort -V); do echo "nt:$d"; done) \
    2>&1 | tee "$logs/wgmma-tiles.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi
echo "call rc $status"
exit $status
