#!/usr/bin/env bash
# Session 2026-12-04 (5), device call 21: issue 13's families in one motif.bench run after P V on
# wgmma with P in registers became the default (mha_bf16 / mha_f16 at D = 64 and 128 against SDPA
# and the Triton flash kernel; gemm_f16_w8 in a one-run bench for the first time). Needs .prebuilt
# (python3 -m motif.prebuild .prebuilt). Then the random flash specs of scripts/flash-random.py
# (.variants/random: shapes, dtypes, chips, schedules, lowering options) against float64,
# and those with P in registers under memcheck, racecheck and synccheck. Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
timeout 330 python3 -m motif.bench \
  --families ${BENCH_FAMILIES:-softmax_bf16,layernorm_bf16,rmsnorm_bf16,gemm_bf16,gemm_f16,linear_bf16,mha_bf16,mha_f16} \
  --json "$logs/bench.json" --png "$logs/bench.png" 2>"$logs/bench-progress.txt" | tee "$logs/bench.txt" | tail -n 60
status=${PIPESTATUS[0]}
FLASH_CHECK_ONLY=1 timeout 90 python3 scripts/flash-variants.py .variants/random/*/ 2>&1 | tee "$logs/random.txt" | tail -n 3
grep -q WRONG "$logs/random.txt" && status=1
echo "random: $(grep -c 'rel err' "$logs/random.txt") checked, $(grep -c WRONG "$logs/random.txt") wrong"
rs=$(grep -l '}, {%r' .variants/random/*/*.ptx | xargs -n1 dirname | sort -u)
for tool in memcheck racecheck synccheck; do
  FLASH_CHECK_ONLY=1 timeout 60 compute-sanitizer --tool $tool --error-exitcode 9 \
    python3 scripts/flash-variants.py $rs > "$logs/random-$tool.txt" 2>&1
  rc=$?; echo "$tool rc $rc: $(grep -c 'rel err' "$logs/random-$tool.txt") checked, $(grep -c WRONG "$logs/random-$tool.txt") wrong; $(tail -n 1 "$logs/random-$tool.txt")"
  [ $rc = 0 ] || status=1
done
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
