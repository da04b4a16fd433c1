#!/usr/bin/env bash
# Session 2026-12-05 (11), third device call. Carry .prebuilt11 and .whl.
# Prepared with the compiler of this commit (rule 6's register case off by default):
#   rm -rf .prebuilt11 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt11 \
#     --families softmax_bf16,softmax,layernorm,rmsnorm,layernorm_bf16,rmsnorm_bf16 && find .prebuilt11 -name '*.sass' -delete
#  1. GPU tests of the row families, f32 and bf16 (every form against float64; racecheck and memcheck).
#     gpu-call45 ran them with .prebuilt10, which lacked the f32 norms: those four failed to compile there.
#  2. motif.bench softmax_bf16, every shape (4096x32768 new: the default without rule 6's register case),
#     each row with its IQR.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt11"
status=0
gpu_row_tests 120
timeout 80 python3 -m motif.bench --families softmax_bf16 --json "$logs/bench-softmax-bf16.json" \
  2>"$logs/bench-softmax-bf16-progress.txt" | tee "$logs/bench-softmax-bf16.txt" | grep -v unfused | cut -c1-220
echo "call rc $status"
exit $status
