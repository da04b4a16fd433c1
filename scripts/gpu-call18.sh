#!/usr/bin/env bash
# Session 2026-12-04 (4), device calls 18 and 19: the flash form with mbarrier-tracked stages (online-mbarrier;
# call 19: each step copies at its start, *_late: at its end) against the block barrier per tile, with
# and without ping-pong, timed against SDPA and Triton
# (.variants/bf16*); then edge shapes (.variants/small: partial tiles, 1 key, D != E, f16, many
# stage reuses) checked against float64 and under
# compute-sanitizer (memcheck, racecheck, synccheck). Logs tarred into $OUT.
# The checks are gpu-call13.sh's (flash variants against SDPA and Triton, then the small edge shapes
# under compute-sanitizer); only the .variants differ.
exec "$(dirname "${BASH_SOURCE[0]}")/gpu-call13.sh" "$@"
