#!/usr/bin/env bash
# Session 2026-12-07 (25), any card. Carry .prebuilt25 (`rm -rf .prebuilt25 && P="env MOTIF_BUILD_DIR=$PWD/build
# PYTHONPATH=python python3 -m motif.prebuild .prebuilt25" && $P --families "" && $P --families
# softmax_bf16,layernorm_bf16,rmsnorm_bf16 && find .prebuilt25 -name '*.sass' -delete`: the extra sources,
# clusters, flash-form edge shapes and the bf16 row families), .wgmma25 (scripts/mma-partial-variants.sh
# .wgmma25) and .whl.
#  0. On an H200 only: issue 13's bf16 row table (motif.bench, every peer in the same run).
#  1. The flash form with a partial last row block: test_gpu.py's flash edge tests (f32 and half, every
#     build; the new shapes 77, 200, 333, 1000 rows; racecheck and memcheck of four of them).
#  2. The default schedules' GEMMs (mma.sync on sm_90; wgmma on sm_90a where it applies) against float64,
#     cuBLAS and Triton; memcheck of the partial wgmma one.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
MOTIF_PREBUILT="$root/.prebuilt25" gpu_row_table_if_h200 200
export MOTIF_PREBUILT="$root/.prebuilt25"
timeout 280 python3 -m pytest -q -rs python/tests/test_gpu.py -k "flash_form_edges" -p no:cacheprovider 2>&1 \
  | tee "$logs/pytest-flash-edges.txt" | tail -n 12
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
nt() { for d in "$@"; do case "$d" in *_nt_*) echo "nt:$d" ;; *) echo "$d" ;; esac; done; }
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 3 python3 scripts/gemm-variants.py --check-only \
  $(nt .wgmma25/1000x1000x1024_nt_sm90a_* .wgmma25/3000x1000x1024_nt_sm90a_*) 2>&1 | tail -n 4 \
  | tee "$logs/sanitizers-wgmma-default.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 170 python3 scripts/gemm-variants.py $(nt $(ls -d .wgmma25/*_* | sort -V)) 2>&1 | tee "$logs/gemm-defaults.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
