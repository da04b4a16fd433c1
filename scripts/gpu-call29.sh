#!/usr/bin/env bash
# Session 2026-12-04 (6), device call 29: softmax_bf16 8192x4096 with loads under an L2::evict_last
# policy (the fastest of call 28): is it the kernel or L2 reuse across launches? Nsight Compute after
# the lead on never-read inputs (DRAM bytes read must stay 64 MiB), then softmax-variants twice.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
b=.smvar/softmax_bf16_8192x4096_t256_mathematical
timeout 200 ncu --cache-control none --kernel-name "regex:softmax" \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct \
  python3 scripts/softmax-lead-launch.py $b ${b}_ldlast ${b}_ldlast_stlast > "$logs/ncu-softmax-ldlast.txt" 2>&1
grep -E "^  [a-z_]+.*\(8192|dram__bytes|gpu__time|hit_rate" "$logs/ncu-softmax-ldlast.txt" | head -60
for run in 1 2; do
  timeout 150 python3 scripts/softmax-variants.py $b ${b}_{ldlast,ldlast_stlast,ldlast_pf256,ldlast_reqntid}/ 2>&1 \
    | grep -v -i warn | tee "$logs/softmax-ldlast-$run.txt"
done
echo "call rc 0"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
