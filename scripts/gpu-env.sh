# Sourced by the per-call GPU scripts (scripts/gpu-call*.sh) on the device machine: the repository root
# as the working folder, $out (the device tool's $OUT, else /tmp/motif-gpu) and $logs under it, the
# Python path, the prebuilt outputs (.prebuilt), and ml_dtypes from the carried wheels (.whl) if missing.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${OUT:-/tmp/motif-gpu}"; logs="$out/logs"; mkdir -p "$logs"
export PYTHONPATH="$root/python:${PYTHONPATH:-}" PYTHONUNBUFFERED=1 MOTIF_PREBUILT="$root/.prebuilt"
python3 -c 'import ml_dtypes' 2>/dev/null || python3 -m pip install -q --no-deps --no-index --find-links .whl ml_dtypes
