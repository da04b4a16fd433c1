#!/usr/bin/env bash
# Session 2026-12-04 (6), device call 27: softmax_bf16 8192x4096 -- does the output's placement decide
# the gap to Triton (scripts/softmax-placement.py: motif and Triton each into a fixed, a fresh and the
# other's output; a copy likewise), then Nsight Compute on one launch of each (caches flushed and
# clocks at base, ncu's defaults: the kernel's own duration and DRAM bytes). Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
d=.smvar/softmax_bf16_8192x4096_t256_mathematical
timeout 150 python3 scripts/softmax-placement.py "$d" --rounds 3 2>&1 | grep -v -i warn | tee "$logs/softmax-placement.txt"
timeout 200 ncu --kernel-name "regex:softmax" --launch-count 8 \
  --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats \
  --section Occupancy --section SchedulerStats \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,smsp__cycles_active.avg \
  python3 scripts/softmax-placement.py "$d" --rounds 0 > "$logs/ncu-softmax.txt" 2>&1
grep -E "^  [a-z_]+.*softmax|Duration|dram__bytes|lts__t_sectors|DRAM Throughput|Memory Throughput|Achieved Occupancy|Warp Cycles Per Issued|Eligible" "$logs/ncu-softmax.txt" | head -120
# grid-group (auto = 8 on wgmma GEMMs) at the example's 2 x 2 grid: float64 numerics and sanitizers.
timeout 200 python3 -m pytest -q -x python/tests/test_gpu.py -k "linear_bf16 and (numerics_of_example or sanitizers_on_shared)" \
  -p no:cacheprovider 2>&1 | tail -n 15 | tee "$logs/pytest-linear-bf16.txt"
echo "call rc 0"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
