#!/usr/bin/env bash
# Session 2026-12-05 (11), first device call. Carry .prebuilt10, .smvar11 and .whl.
# Prepared with the compiler of 0baa25c (lib/ and include/ as at 0473900, where .prebuilt10 was made):
#   python3 scripts/make-softmax-variants.py .smvar11 softmax_bf16:8192:4096:softmax_bf16:256
#  1. test_precise_math_bitwise: bf16/f16 sqrt and fma, f32 sqrt, bit for bit against one rounding.
#  2. motif.bench of the bf16 row families, every row timed after a read lead and after a memset lead
#     (the L2 left clean / dirty; motif.gputime), in the same run.
#  3. Nsight Compute, --cache-control none, on the 8192x4096 kernel and Triton's after each lead: the
#     DRAM bytes read and written by the kernel itself.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt10"
status=0
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv | tee "$logs/gpu.txt"
timeout 60 python3 -m pytest -q python/tests/test_gpu.py -k precise_math 2>&1 | tail -n 6 | tee "$logs/pytest-precise-math.txt"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
timeout 330 python3 -m motif.bench --families softmax_bf16,layernorm_bf16,rmsnorm_bf16 --lead read,memset \
  --json "$logs/bench-leads.json" 2>"$logs/bench-leads-progress.txt" | tee "$logs/bench-leads.txt" \
  | grep -v unfused | cut -c1-230
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
for lead in ${LEADS:-memset read}; do
  MOTIF_LEAD=$lead timeout 60 ncu --cache-control none --kernel-name regex:softmax \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
    python3 scripts/softmax-lead-launch.py .smvar11/softmax_bf16_8192x4096_t256_mathematical \
    > "$logs/ncu-after-$lead.txt" 2>&1
  echo "== ncu after a $lead lead (rc $?)"
  grep -E "dram__|gpu__time" "$logs/ncu-after-$lead.txt" | tr -s " " | paste - - - | cut -c1-200
done
echo "call rc $status"
exit $status
