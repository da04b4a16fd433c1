#!/usr/bin/env bash
# Rule 6 (recompute) on the GPU: per long-row shape, the mathematical form without rule 6 (base) and
# with it (the default, and the register case the default leaves out), plus cluster sizes for rows one CTA cannot hold. hint-variants.py then checks
# each variant bit for bit against the base (rule 6 is bitwise) and times them.
#   scripts/make-recompute-variants.sh [DIR]   (default .recvar; motif-compile from build/)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.recvar}
mc=build/bin/motif-compile
math=equivalence-cap=mathematical
variant() {  # shape-dir name fuse-options [lower-options]
  "$mc" "$1/program.mlir" -o "$1/$2" --fuse-materialization --fuse-options="$3" --lower-options="${4:-}" \
    --no-sass >/dev/null
}
for spec in softmax_bf16:2048:65536 softmax_bf16:1024:131072 softmax_bf16:4096:32768 \
            softmax_bf16:24:100000 softmax_bf16:64:65536 softmax:2048:65536; do
  IFS=: read -r fam m n <<<"$spec"
  d="$out/$fam-${m}x$n"; mkdir -p "$d"
  PYTHONPATH=python python3 -c "from motif.examples import load_example; \
print(load_example('$fam', dict(M=$m, N=$n)))" > "$d/program.mlir"
  variant "$d" base "$math recompute=false"
  variant "$d" recompute "$math recompute-registers=true"  # every case of rule 6, the register one too
  # the same, its recomputing maps' stores grouped 16 bytes at a time (128-bit stores)
  variant "$d" recompute-grouped "$math recompute-registers=true" "group-stores=true"
  if [ "$n" -ge 100000 ]; then
    variant "$d" recompute-cta256 "$math row-clusters=always row-cluster-threads=256"
    variant "$d" recompute-cta512 "$math row-clusters=always row-cluster-threads=512"
  fi
  echo "$d: $(ls "$d" | tr '\n' ' ')"
done
