#!/usr/bin/env bash
# Session 2026-12-07 (25), any card: what gpu-call106.sh and gpu-call107.sh measure, in one call (device
# time ran short): the flash form at 4000 rows (128-row blocks, the last partial) against the 32-row
# blocks rule 4 took before and the 4096-row baseline, SDPA and Triton in the same run; the default
# schedule's k step against larger ones at small tiles; the mma.sync default against examples/gemm_bf16.mlir
# at 4095x4096x4096 (the same PTX but for the order of the shared buffers), interleaved. Carry .flash25,
# .kstep25, .wgmma25 and .whl (the headers of gpu-call106.sh and gpu-call107.sh say how to make them).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 200 python3 scripts/flash-variants.py .flash25/bf16_h64_s4096_n4096_d64_e64_chipsm_90a \
  .flash25/bf16_h64_s4000_n4000_d64_e64_chipsm_90a .flash25/bf16_h64_s4000_n4000_d64_e64_chipsm_90a_rows32_threads64 \
  .flash25/bf16_h256_s77_n77_d64_e64 2>&1 | tee "$logs/flash-partial-rows.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 150 python3 scripts/gemm-variants.py $(ls -d .kstep25/*_k* | sort -V) 2>&1 | tee "$logs/kstep-variants.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
d=.wgmma25/4095x4096x4096_nn_t128x128_g1024 e=.wgmma25/4095x4096x4096_nn_gemm_bf16
timeout 45 python3 scripts/gemm-variants.py $d $e $d $e 2>&1 | tee "$logs/gemm-default-vs-example.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
