#!/usr/bin/env bash
# The tensor-core default schedule's k step against larger ones (docs/tiles.md, "Default schedules"):
# for each shape, the bf16 C = A.B (nn) rounded to bf16 stating no tiles (scripts/mma-partial-variants.sh's
# program), fused under the tolerance cap (the default tile, stages and k step), then the same fused IR
# with `seq x seq(bk)` on k replaced by each larger bk that divides K and whose 3 stages of both operand
# tiles fit 48 KiB, compiled without fusion:
#   scripts/make-kstep-variants.sh OUTDIR
# then on a GPU: python3 scripts/gemm-variants.py OUTDIR/* (each against float64 and cuBLAS).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$1"
bin="${MOTIF_BUILD_DIR:-$root/build}/bin"
mkdir -p "$out/src"
source "$root/scripts/gemm-program.sh"
for shape in 1x4096x4096 16x4096x4096 77x768x768 256x256x4096 512x512x512 1024x1024x1024 4096x16x4096; do
  IFS=x read -r M N K <<< "$shape"
  prog="$out/src/mm_$shape.mlir"
  program "$M" "$N" "$K" nn > "$prog"
  fused="$out/src/mm_$shape.fused.mlir"
  "$bin/motif-opt" "$prog" --fuse-materialization="equivalence-cap=tolerance" -o "$fused" 2>/dev/null
  tile=$(grep -o 'block x thread([0-9]*) x seq([0-9]*) x thread(8)\|block x seq([0-9]*) x thread(8)' "$fused" | head -1)
  bk=$(grep -o 'seq x seq([0-9]*)\] mma' "$fused" | grep -o '[0-9]*')
  rows=$(grep -o 'a [0-9]*x[0-9]* tile' <<< "$("$bin/motif-opt" "$prog" --fuse-materialization="equivalence-cap=tolerance" 2>&1 >/dev/null)" | head -1 | cut -d' ' -f2)
  R=${rows%x*} C=${rows#*x}
  for k in 32 64 128 256 512; do
    [ "$k" -ge "$bk" ] && [ $((K % k)) -eq 0 ] || continue
    [ $((3 * (R + C) * k * 2)) -le 49152 ] || continue
    v="$out/src/mm_${shape}_k$k.mlir"
    sed -e "s/seq x seq($bk)\] mma/seq x seq($k)] mma/" "$fused" > "$v"
    "$bin/motif-compile" --no-sass -o "$out/${shape}_t${rows}_k$k" "$v" >/dev/null
    echo "$shape: tile $rows, k step $k$([ "$k" -eq "$bk" ] && echo ' (the default)') -> $out/${shape}_t${rows}_k$k"
  done
done
