#!/usr/bin/env bash
# Session 2026-12-07 (26), any card: the whole GPU pytest suite (not run whole since session 20) with this
# session's compiler (the flash form's partial row blocks, k steps up to 256, wgmma defaults with B [j, k]
# and B [k, j]). On an H200 first issue 13's bf16 row table. Carry .prebuilt26 and .whl:
#   rm -rf .prebuilt26 && MOTIF_BUILD_DIR=$PWD/build PYTHONPATH=python python3 -m motif.prebuild .prebuilt26 \
#     && find .prebuilt26 -name '*.sass' -delete
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
export MOTIF_PREBUILT="$root/.prebuilt26"
status=0
gpu_row_table_if_h200 200
secs=$([ "$on_h200" = 1 ] && echo 300 || echo 480)
timeout "$secs" python3 -m pytest -q -rs python/tests -p no:cacheprovider 2>&1 | tee "$logs/pytest-gpu.txt" | tail -n 25
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
echo "call rc $status"
exit $status
