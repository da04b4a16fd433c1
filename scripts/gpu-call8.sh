#!/usr/bin/env bash
# Session 2026-12-04 (3), device call 8: the mma.sync operand tiles XOR-swizzled instead of padded
# (SharedLayout::xorChunks) with fragments one slice ahead: GEMM variants against cuBLAS
# (.variants/g-*, scripts/make-gemm-variants.py; g-lin is the wgmma linear_bf16, C = A.B^T, whose
# cp.async copies share the new copier), then the GPU tests of every tensor-core GEMM family
# (numerics, racecheck/memcheck of the examples and their variants). Logs tarred into $OUT.
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
status=0
timeout 150 python3 scripts/gemm-variants.py $(ls -d .variants/g-*/ | grep -v g-lin) nt:.variants/g-lin 2>&1 | tee "$logs/gemm-variants.txt"
grep -q WRONG "$logs/gemm-variants.txt" && status=1
timeout 300 python3 -m pytest -q -rs python/tests/test_gpu.py -k "gemm or linear" 2>&1 | tee "$logs/pytest.txt" | tail -n 15
[ "${PIPESTATUS[0]}" = 0 ] || status=1
echo "call rc $status"
tar -C "$out" -czf "$out/logs.tar.gz" logs && rm -rf "$logs"
exit $status
