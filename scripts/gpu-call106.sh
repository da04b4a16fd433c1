#!/usr/bin/env bash
# Session 2026-12-07 (25), any card: the flash form with a partial last row block against SDPA and the
# Triton flash kernel (scripts/flash-variants.py, every variant checked against float64 first); then the
# mma.sync default at 4095x4096x4096 (the same PTX as examples/gemm_bf16.mlir's but for the order of its
# shared buffers, 0.369 against 0.327 ms in gpu-call105.sh) timed again, interleaved with the example.
# Carry .flash25, .wgmma25 (scripts/mma-partial-variants.sh .wgmma25) and .whl:
#   python3 scripts/make-flash-variants.py .flash25 4096:4096:64:64:64:bf16:chip=sm_90a \
#     4000:4000:64:64:64:bf16:chip=sm_90a 4000:4000:64:64:64:bf16:chip=sm_90a,rows=32,threads=64 \
#     4096:4096:128:128:64:bf16:chip=sm_90a 4000:4000:128:128:64:bf16:chip=sm_90a \
#     4000:4000:128:128:64:bf16:chip=sm_90a,rows=32,threads=64 1000:1000:64:64:64:bf16:chip=sm_90a \
#     77:77:64:64:256:bf16
# 4000 rows: rule 4 now takes 128-row blocks (the last of 32 partial; two warpgroups on wgmma); before this
# session it took the largest size that divides, 32 rows (the rows32 variants, on mma.sync).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 500 python3 scripts/flash-variants.py $(ls -d .flash25/*/ | sort -V) 2>&1 | tee "$logs/flash-partial-rows.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
d=.wgmma25/4095x4096x4096_nn_t128x128_g1024 e=.wgmma25/4095x4096x4096_nn_gemm_bf16
timeout 60 python3 scripts/gemm-variants.py $d $e $d $e 2>&1 | tee "$logs/gemm-default-vs-example.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
