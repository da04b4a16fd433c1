#!/usr/bin/env bash
# The tensor-core default schedule's block tile (fuse-materialization's mma-min-grid; docs/tiles.md,
# "Default schedules") across GEMM shapes: an unfused bf16 C = A.B rounded to bf16 that states no tiles
# (test/Conversion/MotifToGPU/Inputs/mma-default-schedule.mlir at M x N x K), compiled under the
# tolerance cap at each mma-min-grid of GRIDS, one folder per distinct tile:
#   scripts/mma-tile-variants.sh OUTDIR [GRIDS]      (GRIDS default "0 132 264 528 1056")
# then on a GPU: python3 scripts/gemm-variants.py OUTDIR/* (each against float64 and cuBLAS).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$1"; grids="${2:-0 132 264 528 1056}"
bin="${MOTIF_BUILD_DIR:-$root/build}/bin"
src="$root/test/Conversion/MotifToGPU/Inputs/mma-default-schedule.mlir"
mkdir -p "$out/src"
for shape in 256x256x4096 512x512x512 768x768x768 1024x1024x1024 2048x2048x2048 4096x4096x4096 \
             8192x8192x8192 512x3072x768 1024x6400x1600 16x4096x4096 96x4096x4096 4096x4096x48 \
             1600x1600x1600 4096x16x4096; do
  IFS=x read -r M N K <<< "$shape"
  prog="$out/src/mm_$shape.mlir"
  sed -e "s/256x128xbf16/${M}x${K}xbf16/g; s/128x256xbf16/${K}x${N}xbf16/g; s/256x256x/${M}x${N}x/g" \
    "$src" > "$prog"
  seen=""
  for g in $grids; do
    tile=$("$bin/motif-opt" "$prog" --fuse-materialization="equivalence-cap=tolerance mma-min-grid=$g" \
      2>&1 >/dev/null | grep -o 'a [0-9]*x[0-9]* tile a block' | cut -d' ' -f2)
    [ -n "$tile" ] || { echo "$shape grid $g: not on tensor cores" >&2; exit 1; }
    case " $seen " in *" $tile "*) continue ;; esac
    seen="$seen $tile"
    d="$out/${shape}_t${tile}_g$g"
    "$bin/motif-compile" --fuse-materialization --fuse-options="equivalence-cap=tolerance mma-min-grid=$g" \
      --no-sass -o "$d" "$prog" >/dev/null
    echo "$shape mma-min-grid=$g: tile $tile -> $d"
  done
done
# What 1600^3 ran before the tile table (1600 is no multiple of 128): the fma schedule (the bitwise cap).
"$bin/motif-compile" --fuse-materialization --fuse-options="equivalence-cap=bitwise" --no-sass \
  -o "$out/1600x1600x1600_fma" "$out/src/mm_1600x1600x1600.mlir" >/dev/null
echo "1600x1600x1600 bitwise: fma -> $out/1600x1600x1600_fma"
