#!/usr/bin/env bash
# Session 2026-12-05 (13), first device call. Carry .prebuilt13, .clvar13, .smvar13, .whl. Prepared with
# the compiler of the commit that adds this script:
#   rm -rf .prebuilt13 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt13 \
#     --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 && find .prebuilt13 -name '*.sass' -delete
#   rm -rf .clvar13 && python3 scripts/make-cluster-variants.py .clvar13 softmax_bf16:1024:131072 \
#     && d=.clvar13/softmax_bf16-1024x131072 && python3 scripts/make-ptx-variants.py $d/default $d exchrelaxed
#   rm -rf .smvar13 && python3 scripts/make-softmax-variants.py .smvar13 softmax_bf16:8192:4096:softmax_bf16:256 \
#     softmax_bf16:8192:4096:softmax_bf16:512 softmax_bf16:8192:4096:softmax_bf16:128 \
#     softmax_bf16:8192:4096:softmax_bf16@warp:256
#  1. motif.bench: issue 13's bf16 rows (rule 6's register case on since d235528), after the memset lead.
#  2. bf16 1024x131072: the cluster kernel against its CTA sizes and against its exchange barriers
#     relaxed (no MEMBAR: a bound on what the exchanges' releases cost, not a correct kernel).
#  3. bf16 8192x4096: blocks of 256 (the default) against 128, 512 and a row a warp.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt13"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
timeout 240 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
  --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
  | grep -v unfused | cut -c1-230
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
d=.clvar13/softmax_bf16-1024x131072
timeout 90 python3 scripts/hint-variants.py $d/default $d/default_exchrelaxed $d/cta256 $d/cta512 --rounds 2 \
  2>&1 | tail -n 10 | tee "$logs/cluster-1024x131072.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
s=.smvar13
timeout 90 python3 scripts/hint-variants.py $s/softmax_bf16_8192x4096_t256_mathematical \
  $s/softmax_bf16_8192x4096_t512_mathematical $s/softmax_bf16_8192x4096_t128_mathematical \
  $s/softmax_bf16_warp_8192x4096_t256_mathematical --rounds 3 --rtol 1e-2 --triton-softmax 2>&1 | tail -n 10 \
  | tee "$logs/softmax-8192x4096-blocks.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
