#!/usr/bin/env bash
# Nsight Compute on one launch of each row kernel (the GPU machine): scripts/ncu-rows.sh DIR...
# Each DIR a motif-compile output folder (make them here, carry them). Where a memory-bound row kernel's
# time goes: speed of light (DRAM and SM throughput), the pipes (MUFU/XU for exp), warp states and each
# stall reason, occupancy and what limits it, the launch (registers, shared bytes, cluster size).
# The launch comes after motif.gputime's lead, as motif.bench times it (ncu --cache-control none).
# Logs go to $OUT/ncu-<parent>-<dir>.txt; a digest is printed.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
for d in "$@"; do
  name="$(basename "$(dirname "$d")")-$(basename "$d")"
  kernel=$(python3 -c "import json,glob,sys; m=json.load(open(glob.glob(sys.argv[1]+'/*.json')[0])); print(m['kernels'][-1]['name'])" "$d")
  echo "== ncu $name ($kernel)"
  timeout 120 ncu --cache-control none --kernel-name "regex:^$kernel\$" --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats \
    --metrics "regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,dram__bytes_read.sum,dram__bytes_write.sum,smsp__cycles_active.avg,sm__cycles_elapsed.avg" \
    python3 scripts/hint-variants.py "$d" --rounds 0 > "$out/ncu-$name.txt" 2>&1 || status=1
  grep -E "Duration|DRAM Throughput|Memory Throughput|Compute \(SM\)|dram__bytes|pipe_xu|Achieved Occupancy|Theoretical Occupancy|Block Limit|Registers Per|Cluster|Eligible Warps|Issued Warp|No Eligible|stalled_(long_scoreboard|barrier|membar|wait|math_pipe|lg_throttle|mio|drain|short)[a-z_]*_per_issue" \
    "$out/ncu-$name.txt" | head -60
done
exit $status
