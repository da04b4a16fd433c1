#!/usr/bin/env bash
# Session 2026-12-04 (6), device call 34: the GPU suite with the L2 load policy on (every kernel's PTX
# rewritten): scripts/gpu-call10.sh as it is (pytest GPU tests for real, then 120 motif-fuzz
# programs, seed 20261206, compiled into .fuzz here). Logs tarred into $OUT.
exec "$(dirname "${BASH_SOURCE[0]}")/gpu-call10.sh"
