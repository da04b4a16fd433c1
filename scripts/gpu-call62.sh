#!/usr/bin/env bash
# Session 2026-12-05 (14), first device call. Carry .prebuilt14, .smvar14 and .whl; .prebuilt14 was made with the
# compiler of 93d1c1c (cluster-push on by default, motif.ftz on softmax's exp), .smvar14 with that of
# the commit that adds make-ptx-variants.py's noftz edit (_noftz: the kernel before motif.ftz, byte for
# byte, checked with cmp against 04ad975's):
#   rm -rf .prebuilt14 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt14 \
#     --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 && find .prebuilt14 -name '*.sass' -delete
#   rm -rf .smvar14 && python3 scripts/make-softmax-variants.py .smvar14 softmax_bf16:8192:4096:softmax_bf16:256 \
#     softmax_bf16:16384:1024:softmax_bf16:64 && for d in .smvar14/*_mathematical; do
#     python3 scripts/make-ptx-variants.py $d .smvar14 noftz; done
# In this order (what matters first, if the call is cut short): 0 at 8192x4096, 2, 0 at 16384x1024, 1, 3.
#  0. motif's bf16 softmax kernels at 8192x4096 and 16384x1024 (exp as ex2.approx.ftz.f32) against the
#     same with ex2.approx.f32, as before motif.ftz (280 against 328 SASS instructions at 8192x4096), bit
#     for bit, then timed.
#  3. bench/proto/bf16_short_rows.cu with session 14's variants (X: the exp without ftz, motif's math before motif.ftz; F: one FFMA; O: one block-wide reduction of the
#     online state (m, l), one barrier, exp computed again for the output; K: the same keeping the exps;
#     B: no block-wide step, a wrong kernel that bounds what the two barriers of motif's schedule cost).
#  2. The GPU tests of the bf16 row families and of the cluster kernels with cluster-push the default
#     (every form against float64, bitwise against the twin, memcheck, racecheck).
#  1. motif.bench of the bf16 rows (the 1024x131072 cluster kernel pushed now).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt14"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
s=.smvar14
ftz() {  # ftz SHAPE: the kernel as compiled (ex2.ftz) against it without ftz (before motif.ftz)
  timeout 75 python3 scripts/hint-variants.py $s/softmax_bf16_$1_mathematical $s/softmax_bf16_$1_mathematical_noftz \
    --rounds 3 --triton-softmax 2>&1 | tail -n 8 | tee -a "$logs/softmax-bf16-ftz.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
}
ftz 8192x4096_t256
timeout 150 python3 -m pytest -q python/tests/test_gpu.py \
  -k "test_clusters or flushes_subnormals or ((numerics_of_example or sanitizers_on_shared) and bf16 and (softmax or norm))" 2>&1 \
  | tail -n 8 | tee "$logs/pytest-rows-bf16-clusters.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
ftz 16384x1024_t64
timeout 150 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 \
  --json "$logs/bench-rows-bf16.json" 2>"$logs/bench-rows-bf16-progress.txt" | tee "$logs/bench-rows-bf16.txt" \
  | grep -v unfused | cut -c1-230
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -o /tmp/bf16short bench/proto/bf16_short_rows.cu \
  > "$logs/proto-bf16-short-ptxas.txt" 2>&1 || { tail "$logs/proto-bf16-short-ptxas.txt"; exit 1; }
timeout 100 /tmp/bf16short 2>&1 | tee "$logs/proto-bf16-short-rows.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
