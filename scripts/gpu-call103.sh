#!/usr/bin/env bash
# Session 2026-12-07 (24), any card: carry .abtiles24, .partial24, .fuzz25, .prebuilt22 and .whl.
#   .abtiles24: the default schedule's picks of scripts/mma-tile-variants.sh at mma-min-grid 0 and 132,
#               each compiled by session 23's compiler (_s2: stages(2), from .mmatiles23) and by this
#               session's (_s3: stages(3), from .mmatiles24), side by side
#   .partial24: scripts/mma-partial-variants.sh .partial24 (this session's compiler: stages(3))
#   .fuzz25:    build/bin/motif-fuzz gen --seed=20261225 --count=200 --cap=mathematical --compile \
#                 -o /tmp/fuzz25/programs && tar -C /tmp/fuzz25 -cJf .fuzz25/programs.tar.xz programs
#  0. On an H200 only: issue 13's bf16 row table (motif.bench, every peer in the same run).
#  1. The A/B of stages against float64, cuBLAS and Triton; 2. the partial-tile GEMMs at stages(3);
#  3. in the time left of CALL_SECONDS (default 560): motif.fuzz_gpu over .fuzz25.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt22"
status=0
start=$SECONDS
gpu_row_table_if_h200 220
timeout 240 python3 scripts/gemm-variants.py $(ls -d .abtiles24/*_* | sort -V) 2>&1 | tee "$logs/stages-ab.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
nt() { for d in "$@"; do case "$d" in *_nt_*) echo "nt:$d" ;; *) echo "$d" ;; esac; done; }
timeout 120 python3 scripts/gemm-variants.py $(nt $(ls -d .partial24/*_t* | sort -V)) 2>&1 \
  | tee "$logs/mma-partial-s3.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
left=$(( ${CALL_SECONDS:-560} - (SECONDS - start) ))
if [ "$left" -gt 60 ]; then gpu_fuzz .fuzz25/programs.tar.xz "$left"; fi
echo "call rc $status"
exit $status
