#!/usr/bin/env bash
# Session 2026-12-06 (20): on an H200 only, issue 13's bf16 row table (gpu-call87.sh) over .prebuilt20,
# made as scripts/gpu-call90.sh's header says. On any other card: nothing.
exec "$(dirname "${BASH_SOURCE[0]}")/gpu-call87.sh" .prebuilt20
