#!/usr/bin/env bash
# Nsight Compute on one launch of each GEMM variant (the GPU machine; compile here first, carry .variants).
# Usage there: scripts/ncu-gemm.sh "[nt:]DIR ..."  -- the sections that say where a tensor-core
# GEMM's time goes: speed of light, compute and memory workload (L2 hit rate, shared-memory bank
# conflicts), warp states and each stall reason (warps stalled per issued instruction), scheduler
# issue rate, occupancy. Logs go to $OUT/ncu-*.txt.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-/tmp/motif-gpu}"; mkdir -p "$out"
export PYTHONPATH="$root/python:${PYTHONPATH:-}" PYTHONUNBUFFERED=1
cd "$root"
status=0
for d in ${1:-}; do
  name=$(basename "${d#nt:}")
  kernel=$(python3 -c "import json,glob,sys; m=json.load(open(glob.glob(sys.argv[1]+'/*.json')[0])); print(m['kernels'][0]['name'])" "${d#nt:}")
  echo "== ncu $name ($kernel)"
  ncu --kernel-name "regex:$kernel" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section SchedulerStats \
    --section Occupancy --section LaunchStats \
    --metrics "regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$" \
    python3 scripts/gemm-variants.py "$d" > "$out/ncu-$name.txt" 2>&1 || status=1
  grep -E "Duration|Throughput|Hit Rate|Bank|Stall|stalled|Issued|Eligible|Active Warps|Registers|Achieved" "$out/ncu-$name.txt" | head -80
done
exit $status
