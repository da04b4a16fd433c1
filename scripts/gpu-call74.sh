#!/usr/bin/env bash
# Session 2026-12-06 (16), seventh device call (any card). Carry .mbvar16 (gpu-call70.sh's header) and .whl,
# with make-ptx-variants.py's allrelaxed edit of the cluster-mbarrier kernels (their one cluster arrive,
# the start, .relaxed: no MEMBAR.ALL.GPU; the mbarrier inits are published by fence.mbarrier_init.release
# .cluster, as CUTLASS's cluster_arrive_relaxed after fence_barrier_init):
#   python3 scripts/make-ptx-variants.py .mbvar16/mbarrier .mbvar16 allrelaxed, and the same for
#   .mbvar16/clusters/{softmax_c4,column_sums_c2}/mbarrier.
# The hand-written prototype (relaxed start) took 133.1 us on the H200 in session 15; the compiled kernel
# (release start) 138.9 in gpu-call73.sh. Is the start's release the difference?
#  0. 1024x131072: cluster barriers (base), cluster-mbarrier, cluster-mbarrier with a relaxed start; bit for
#     bit, 3 rounds of 40. The two small kernels the same, 1 round.
#  1. racecheck and memcheck of the relaxed variants.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$logs/device.txt"
v=.mbvar16
timeout 100 python3 scripts/hint-variants.py $v/barrier $v/mbarrier $v/mbarrier_allrelaxed --rounds 3 2>&1 | tail -n 7 \
  | tee "$logs/cluster-mbarrier-relaxed-start.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for fn in softmax_c4 column_sums_c2; do
  timeout 30 python3 scripts/hint-variants.py $v/clusters/$fn/barrier $v/clusters/$fn/mbarrier \
    $v/clusters/$fn/mbarrier_allrelaxed --rounds 2 2>&1 | tail -n 5 | tee -a "$logs/cluster-mbarrier-relaxed-start.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
done
for d in $v/mbarrier_allrelaxed $v/clusters/softmax_c4/mbarrier_allrelaxed $v/clusters/column_sums_c2/mbarrier_allrelaxed; do
  for tool in racecheck memcheck; do
    timeout 90 compute-sanitizer --tool $tool --error-exitcode 3 python3 scripts/hint-variants.py "$d" --rounds 0 2>&1 \
      | tail -n 1 | sed "s|^|$tool $d: |" | tee -a "$logs/sanitizers-relaxed-start.txt"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
  done
done
echo "call rc $status"
exit $status
