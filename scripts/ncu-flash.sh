#!/usr/bin/env bash
# Nsight Compute on one launch of each flash-form variant (the GPU machine; make them here with
# scripts/make-flash-variants.py and carry .variants). Usage there: scripts/ncu-flash.sh "DIR ..."
# -- where a flash kernel's time goes: speed of light, the tensor pipe, shared-memory traffic
# (the wgmma operands, cp.async and P stores), warp states and each stall reason, occupancy.
# One launch each (FLASH_CHECK_ONLY=1: no timing, no peers). Logs go to $OUT/ncu-*.txt.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${OUT:-/tmp/motif-gpu}"; mkdir -p "$out"
export PYTHONPATH="$root/python:${PYTHONPATH:-}" PYTHONUNBUFFERED=1 FLASH_CHECK_ONLY=1
cd "$root"
status=0
for d in ${1:-}; do
  name=$(basename "$d")
  kernel=$(python3 -c "import json,glob,sys; m=json.load(open(glob.glob(sys.argv[1]+'/*.json')[0])); print(m['kernels'][0]['name'])" "$d")
  echo "== ncu $name ($kernel)"
  ncu --kernel-name "regex:$kernel" --launch-count 1 \
    --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section SchedulerStats \
    --section Occupancy --section LaunchStats \
    --metrics "regex:^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__cycles_active.avg,sm__cycles_elapsed.avg" \
    python3 scripts/flash-variants.py "$d" > "$out/ncu-$name.txt" 2>&1 || status=1
  grep -E "Duration|Throughput|Shared|shared|gmma|Bank|stalled|Issued|Eligible|Active Warps|Registers|Achieved|cycles" "$out/ncu-$name.txt" | head -90
done
exit $status
