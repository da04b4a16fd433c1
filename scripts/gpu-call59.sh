#!/usr/bin/env bash
# Session 2026-12-05 (13). Carry .prebuilt13f, .clvar13, .whl. Prepared with the compiler of the commit
# that adds this script:
#   rm -rf .prebuilt13f && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt13f \
#     --families softmax_bf16,layernorm_bf16,rmsnorm_bf16,gemm_bf16,gemm_f16,linear_bf16,mha_bf16,mha_f16 \
#     && find .prebuilt13f -name '*.sass' -delete
#   .clvar13 as in gpu-call56.sh, then
#   d=.clvar13/softmax_bf16-1024x131072 && python3 scripts/make-ptx-variants.py $d/default $d push pushrel \
#     && build/bin/motif-compile $d/softmax_bf16.mlir -o $d/pushc --function softmax_bf16 --fuse-materialization \
#        --fuse-options=equivalence-cap=mathematical --lower-options=cluster-push=true
#  1. bf16 1024x131072: the cluster kernel against the same with its exchanges pushed (make-ptx-variants.py
#     push: remote stores before the exchange barrier, local reads after it, no exit barrier, a relaxed
#     start barrier), bit for bit, then timed; memcheck and racecheck of the push.
#  2. On an H200 only (BENCH_ANY_CARD=1: any card): issue 13's families in one motif.bench run (as
#     gpu-call33.sh), the compiler of today.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt13f"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
d=.clvar13/softmax_bf16-1024x131072
timeout 90 python3 scripts/hint-variants.py $d/default $d/pushc $d/default_push $d/default_pushrel $d/cta256 --rounds 4 2>&1 | tail -n 9 \
  | tee "$logs/cluster-push.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
gpu_sanitize $d/pushc cluster-push-sanitizer.txt
# The one-run bench only where the issue asks for it (an H200): elsewhere the device time is kept.
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 || [ "${BENCH_ANY_CARD:-0}" = 1 ]; then
timeout 400 python3 -m motif.bench \
  --families softmax_bf16,layernorm_bf16,rmsnorm_bf16,gemm_bf16,gemm_f16,linear_bf16,mha_bf16,mha_f16 \
  --json "$logs/bench.json" 2>"$logs/bench-progress.txt" | tee "$logs/bench.txt" | grep -v unfused | cut -c1-200
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
fi
echo "call rc $status"
exit $status
