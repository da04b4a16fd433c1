#!/usr/bin/env bash
# Session 2026-12-04 (6), device call 30: softmax_bf16 8192x4096 under L2 load policies (evict_last,
# _normal, _unchanged, evict_last on half the lines), each timed after the lead on one input and on
# eight in turn (scripts/softmax-rotation.py: L2 reuse across launches or the kernel's own time?),
# with Triton and a copy in the same run; then Nsight Compute, one pass (DRAM bytes read, duration),
# the caches as the lead leaves them.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
b=.smvar/softmax_bf16_8192x4096_t256_mathematical
timeout 300 python3 scripts/softmax-rotation.py $b ${b}_{ldlast,ldnormal,ldunchanged,ldlast50,ldfirst} --rounds 3 2>&1 \
  | grep -v -i warn | tee "$logs/softmax-rotation.txt"
timeout 150 ncu --cache-control none --kernel-name "regex:softmax" --metrics gpu__time_duration.sum,dram__bytes_read.sum \
  python3 scripts/softmax-lead-launch.py $b ${b}_ldlast ${b}_ldnormal > "$logs/ncu-softmax-ldlast-1pass.txt" 2>&1
grep -E "passes|launched|dram__bytes|gpu__time" "$logs/ncu-softmax-ldlast-1pass.txt" | head -60
echo "call rc 0"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
