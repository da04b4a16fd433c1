#!/usr/bin/env bash
# Session 2026-12-04 (4), device call 20 (scripts/gpu-call19.sh): the wgmma flash sanitizer tests with the staged tiles tracked
# by mbarriers (FLASH_WGMMA_SANITIZE_LOWER: online-pingpong=true online-mbarrier=true) next to the
# earlier three settings: racecheck, memcheck, synccheck. Needs .prebuilt. Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
timeout 280 python3 -m pytest -q -rs python/tests/test_gpu.py -k "flash_wgmma_sanitizers" 2>&1 | tee "$logs/pytest-sanitizers.txt" | tail -n 5
status=${PIPESTATUS[0]}
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
