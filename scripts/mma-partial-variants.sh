#!/usr/bin/env bash
# GEMM shapes that no tensor-core tile divides (docs/tiles.md, "Partial last tiles"): an unfused bf16
# C = A.B (nn, B [K, N]) or A.B^T (nt, B [N, K], an nn.Linear weight) rounded to bf16 that states no
# tiles, compiled under the tolerance cap with the default schedule (mma-min-grid: the chip's SMs),
# one folder per shape; and, for a few, the fma schedule that ran before (the bitwise cap) or nothing:
#   scripts/mma-partial-variants.sh OUTDIR
# then on a GPU: python3 scripts/gemm-variants.py OUTDIR/* (each against float64 and cuBLAS).
# Each shape whose K is a multiple of 64 is also compiled for sm_90a, where the default schedule runs
# it on wgmma (folder ..._sm90a_w<tile>_g<blocks>; docs/tiles.md, "Default schedules"): B [N, K]
# K-major, B [K, N] (nn) read transposed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$1"
bin="${MOTIF_BUILD_DIR:-$root/build}/bin"
mkdir -p "$out/src"
source "$root/scripts/gemm-program.sh"
# The tuned tiles of the examples at such shapes: examples/gemm_bf16.mlir (mma.sync, 128x128, 3 stages,
# nn) and examples/linear_bf16.mlir (wgmma m64n256k16 on sm_90a, 128x256, nt), as written.
for shape in 4095x4096x4096 8191x8192x8192; do
  IFS=x read -r M N K <<< "$shape"
  sed -e "s/512x128xbf16/${M}x${K}xbf16/g; s/128x256xbf16/${K}x${N}xbf16/g; s/512x256x/${M}x${N}x/g" \
    "$root/examples/gemm_bf16.mlir" > "$out/src/gemm_bf16_$shape.mlir"
  "$bin/motif-compile" --no-sass -o "$out/${shape}_nn_gemm_bf16" "$out/src/gemm_bf16_$shape.mlir" >/dev/null
  echo "$shape nn: examples/gemm_bf16.mlir -> $out/${shape}_nn_gemm_bf16"
done
for shape in 1000x1000x1024 4095x4096x4096 8191x8191x8192; do
  IFS=x read -r M N K <<< "$shape"
  sed -e "s/256x192xbf16/${M}x${K}xbf16/g; s/512x192xbf16/${N}x${K}xbf16/g; s/256x512x/${M}x${N}x/g" \
    "$root/examples/linear_bf16.mlir" > "$out/src/linear_bf16_$shape.mlir"
  "$bin/motif-compile" --chip=sm_90a --no-sass -o "$out/${shape}_nt_linear_bf16_wgmma" \
    "$out/src/linear_bf16_$shape.mlir" >/dev/null
  echo "$shape nt: examples/linear_bf16.mlir (sm_90a) -> $out/${shape}_nt_linear_bf16_wgmma"
done
# shape form [fma]: the fma schedule too where its default applies
for spec in "1x4096x4096 nn" "77x768x768 nt" "100x256x128 nt fma" "1000x1024x1024 nn fma" \
             "1000x4096x4096 nn" "4095x4096x4096 nn" "3000x1000x1024 nt" "512x50257x768 nt" \
             "8191x8191x8192 nt" "4095x4096x4096 nt" "2048x2048x2048 nt" "1000x1000x1024 nt" \
             "8192x8192x8192 nn" "2048x2048x2048 nn" "1000x1000x1024 nn" "3000x1000x1024 nn"; do
  read -r shape form fma <<< "$spec"
  IFS=x read -r M N K <<< "$shape"
  prog="$out/src/mm_${shape}_$form.mlir"
  program "$M" "$N" "$K" "$form" > "$prog"
  tile=$("$bin/motif-opt" "$prog" --fuse-materialization="equivalence-cap=tolerance" 2>&1 >/dev/null \
    | grep -o 'a [0-9]*x[0-9]* tile a block, [0-9]* blocks' | cut -d' ' -f2,6)
  [ -n "$tile" ] || { echo "$shape $form: not on tensor cores" >&2; exit 1; }
  d="$out/${shape}_${form}_t${tile% *}_g${tile#* }"
  "$bin/motif-compile" --fuse-materialization --fuse-options="equivalence-cap=tolerance" --no-sass \
    -o "$d" "$prog" >/dev/null
  echo "$shape $form: tile ${tile% *}, ${tile#* } blocks -> $d"
  if [ -n "${fma:-}" ]; then
    "$bin/motif-compile" --fuse-materialization --fuse-options="equivalence-cap=bitwise" --no-sass \
      -o "$out/${shape}_${form}_fma" "$prog" >/dev/null
    echo "$shape $form bitwise: fma -> $out/${shape}_${form}_fma"
  fi
  if [ $((K % 64)) -eq 0 ]; then
    tile=$("$bin/motif-opt" "$prog" --fuse-materialization="equivalence-cap=tolerance chip=sm_90a" 2>&1 \
      >/dev/null | { grep -o 'a [0-9]*x[0-9]* tile a block, [0-9]* blocks (.*); on wgmma' || true; } \
      | cut -d' ' -f2,6)
    [ -n "$tile" ] || { echo "$shape $form sm_90a: not on wgmma" >&2; continue; }
    d="$out/${shape}_${form}_sm90a_w${tile% *}_g${tile#* }"
    "$bin/motif-compile" --chip=sm_90a --fuse-materialization --fuse-options="equivalence-cap=tolerance" \
      --no-sass -o "$d" "$prog" >/dev/null
    echo "$shape $form sm_90a: wgmma tile ${tile% *}, ${tile#* } blocks -> $d"
  fi
done
# 2048^3 on wgmma with mma-min-grid=128: 128x256 tiles (128 blocks, under one wave of 132 SMs) against
# the default's 128x128 (256 blocks).
for form in nt nn; do
  prog="$out/src/mm_2048x2048x2048_$form.mlir"
  d="$out/2048x2048x2048_${form}_sm90a_w128x256_g128_mg128"
  "$bin/motif-compile" --chip=sm_90a --fuse-materialization \
    --fuse-options="equivalence-cap=tolerance mma-min-grid=128" --no-sass -o "$d" "$prog" >/dev/null
  echo "2048x2048x2048 $form sm_90a mma-min-grid=128 -> $d"
done
