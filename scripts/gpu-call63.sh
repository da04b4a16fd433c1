#!/usr/bin/env bash
# Session 2026-12-05 (14): gpu-call62.sh cut to what ~4 minutes of device time hold (carry .prebuilt14,
# .smvar14 and .whl, made as gpu-call62.sh's header says):
#  0. bf16 softmax 8192x4096: the kernel as compiled (ex2.ftz) against it without ftz (noftz: byte for
#     byte the kernel before motif.ftz), bit for bit, then timed (2 rounds of 40), with Triton's softmax.
#  1. The flushed exps on the GPU (test_gpu.py::test_softmax_exp_flushes_subnormals), the cluster
#     kernels with cluster-push the default (::test_clusters), the bf16 softmax numerics.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt14"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
s=.smvar14
timeout 50 python3 scripts/hint-variants.py $s/softmax_bf16_8192x4096_t256_mathematical \
  $s/softmax_bf16_8192x4096_t256_mathematical_noftz --rounds 2 --triton-softmax 2>&1 | tail -n 8 \
  | tee "$logs/softmax-bf16-ftz.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 120 python3 -m pytest -q python/tests/test_gpu.py \
  -k "test_clusters or flushes_subnormals or (numerics_of_example and softmax_bf16)" 2>&1 \
  | tail -n 8 | tee "$logs/pytest-ftz-clusters.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
