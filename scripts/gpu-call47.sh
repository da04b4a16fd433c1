#!/usr/bin/env bash
# Written in session 2026-12-05 (11) for the next lent device (the session's device time ran out).
# Carry .prebuilt11, .recvar11 and .whl (about 32 MB). Prepared with the compiler of this commit:
#   rm -rf .prebuilt11 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt11 \
#     --families softmax_bf16,softmax,layernorm,rmsnorm,layernorm_bf16,rmsnorm_bf16 && find .prebuilt11 -name '*.sass' -delete
#   rm -rf .recvar11 && scripts/make-recompute-variants.sh .recvar11
# If lib/ or include/ changed since, prepare both again.
#  1. hint-variants.py per rule-6 shape: base (recompute=false), recompute (every case of rule 6, the
#     register one too), recompute-grouped (the same with group-recompute-stores: 128-bit stores);
#     each bit for bit against base, then timed. Decides whether group-recompute-stores goes on by
#     default and whether the register case (4096x32768) wins with 128-bit stores.
#  2. GPU tests of the row families, f32 and bf16 (every form against float64; racecheck, memcheck).
#  3. motif.bench softmax_bf16, every shape (4096x32768 new), each row with its IQR.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt11"
status=0
for n in softmax_bf16-4096x32768 softmax_bf16-2048x65536 softmax_bf16-1024x131072; do
  d=.recvar11/$n
  echo "== $d" | tee -a "$logs/recompute-grouped.txt"
  timeout 60 python3 scripts/hint-variants.py "$d/base" "$d/recompute" "$d/recompute-grouped" --rounds 2 2>&1 \
    | tail -n 6 | tee -a "$logs/recompute-grouped.txt"
done
gpu_row_tests 150
timeout 90 python3 -m motif.bench --families softmax_bf16 --json "$logs/bench-softmax-bf16.json" \
  2>"$logs/bench-softmax-bf16-progress.txt" | tee "$logs/bench-softmax-bf16.txt" | grep -v unfused | cut -c1-220
echo "call rc $status"
exit $status
