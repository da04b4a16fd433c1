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
for shape in 1x4096x4096 16x4096x4096 77x768x768 256x256x4096 512x512x512 1024x1024x1024 4096x16x4096; do
  IFS=x read -r M N K <<< "$shape"
  prog="$out/src/mm_$shape.mlir"
  cat > "$prog" <<MLIR
func.func @mm(%a: tensor<${M}x${K}xbf16>, %b: tensor<${K}x${N}xbf16>) -> tensor<${M}x${N}xbf16> {
  %c = motif.kernel "mm" threads(256) -> tensor<${M}x${N}xf32> {
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<${M}x${K}xbf16>, tensor<${K}x${N}xbf16>) -> tensor<${M}x${N}xf32>
    %g = motif.materialize %p in global : tensor<${M}x${N}xf32>
    motif.yield %g : tensor<${M}x${N}xf32>
  }
  %t = motif.kernel "round" threads(256) -> tensor<${M}x${N}xbf16> {
    %r = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (tensor<${M}x${N}xf32>) -> tensor<${M}x${N}xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %r in global : tensor<${M}x${N}xbf16>
    motif.yield %g : tensor<${M}x${N}xbf16>
  }
  return %t : tensor<${M}x${N}xbf16>
}
MLIR
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
