#!/usr/bin/env bash
# Session 2026-12-06 (15), second device call (any card). Carry .prebuilt15, .fuzz15, .whl, made as
# gpu-call64.sh's header says.
#  0. bench/proto/bf16_cluster_rows.cu: bf16 softmax 1024x131072 on clusters of 8 (motif's default
#     schedule, 0.885 of the copy ceiling on the H200, a same-bytes copy 0.98). Do the exchanges cost
#     the gap? Two exchanges behind cluster barriers (motif's: release arrives, MEMBAR.ALL.GPU) against
#     one exchange of the online state (m, l); both through st.async + mbarrier instead (no MEMBAR, no
#     cluster barrier after the start); a wrong kernel without exchanges as the bound.
#  1. motif's compiled kernel of that shape timed in the same call (hint-variants.py, 3 rounds).
#  2. The flash form's GPU tests and the mha examples' numerics (gpu-call65.sh).
#  3. motif.fuzz_gpu on the 300 programs of seed 20261215 (the CPU emulator passed all 900 forms).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt15"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
nvcc -O3 -std=c++17 -arch=sm_90 -Xptxas -v -o /tmp/bf16cluster bench/proto/bf16_cluster_rows.cu \
  > "$logs/proto-bf16-cluster-ptxas.txt" 2>&1 || { tail "$logs/proto-bf16-cluster-ptxas.txt"; status=1; }
timeout 120 /tmp/bf16cluster 2>&1 | tee "$logs/proto-bf16-cluster-rows.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 60 python3 scripts/hint-variants.py .prebuilt15/58fe10d1d0656626dc24d80d --rounds 3 2>&1 | tail -n 4 \
  | tee "$logs/cluster-motif-kernel.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 150 python3 -m pytest -q python/tests/test_gpu.py \
  -k "flash or (numerics_of_example and (mha or attention))" 2>&1 | tail -n 8 | tee "$logs/pytest-flash-ftz.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
gpu_fuzz .fuzz15/programs.tar.xz 180
echo "call rc $status"
exit $status
