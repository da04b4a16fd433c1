#!/usr/bin/env bash
# Session 2026-12-05 (8), written for the next device call (this session's device time ran out):
# whether rule 4's gate should let a cluster take f32 rows of 131072. Carry .cluvar2 and .whl, made by
#   d=.cluvar2/softmax-1024x131072; mkdir -p $d
#   (python3 -c "import sys; sys.path.insert(0,'python'); from motif.examples import load_example; \
#     print(load_example('softmax', dict(M=1024, N=131072)))") > $d/softmax.mlir
#   build/bin/motif-compile $d/softmax.mlir -o $d/default --function softmax --fuse-materialization \
#     --fuse-options=equivalence-cap=mathematical
#   ... -o $d/cta128 --fuse-options='equivalence-cap=mathematical online-softmax=false row-clusters=always row-cluster-threads=128'
#   ... -o $d/cta256 (the same with 256)
# default is rule 4's online state (two passes over x, 40 registers); cta128 / cta256 keep the row
# on chip in a cluster of 8 / 4 CTAs (one pass; 134 / 174 registers). Each is timed with Triton's
# softmax on the same inputs (they differ in class: each is its own base).
source "$(dirname "${BASH_SOURCE[0]}")/gpu-env.sh"
d=.cluvar2/softmax-1024x131072
for v in default cta128 cta256; do
  echo "== $v"
  timeout 60 python3 scripts/hint-variants.py "$d/$v" --triton-softmax --rounds 3 2>&1 | tail -n 5
done | tee "$logs/f32-131072-variants.txt"
