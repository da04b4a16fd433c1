#!/usr/bin/env bash
# Every wgmma tile of the default schedules' table (docs/tiles.md, "Default schedules": 128x256, 128x128,
# 64x256, 128x64, 64x128, 64x64; 4 stages where they fit the opt-in 232,448 B, else 3, else 2) at each
# shape, as an explicit mapping of C = bf16(A.B^T) (B [N, K], nt) compiled for sm_90a, one folder per
# tile ({shape}_nt_sm90a_w{R}x{C}_g{blocks}[_default]: _default marks the tile the default schedule picks):
#   scripts/make-wgmma-tile-variants.sh OUTDIR [MxNxK ...]
# then on a GPU: python3 scripts/gemm-variants.py nt:OUTDIR/* (each against float64, cuBLAS and Triton).
# The data behind the default's tile rule (mma-min-grid, the padding rule).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$1"; shift
bin="${MOTIF_BUILD_DIR:-$root/build}/bin"
mkdir -p "$out/src"
source "$root/scripts/gemm-program.sh"
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(2048x2048x2048 1000x4096x256 1000x1000x1024 3000x1000x1024 1024x1024x4096
  512x4096x4096 1536x1536x1536 768x3072x768 4096x2048x512 2048x8192x1024 4096x4096x4096 1000x4096x4096)
for shape in "${shapes[@]}"; do
  IFS=x read -r M N K <<< "$shape"
  program "$M" "$N" "$K" nt > "$out/src/mm_${shape}_nt.mlir"
  pick=$("$bin/motif-opt" "$out/src/mm_${shape}_nt.mlir" --fuse-materialization="equivalence-cap=tolerance chip=sm_90a" \
    2>&1 >/dev/null | { grep -o 'a [0-9]*x[0-9]* tile a block, [0-9]* blocks (.*); on wgmma' || true; } | cut -d' ' -f2)
  for tile in 128x256 128x128 64x256 128x64 64x128 64x64; do
    R=${tile%x*} C=${tile#*x}
    stages=2
    for s in 4 3; do [ $((s * (R + C) * 128 + 2016)) -le 232448 ] && { stages=$s; break; }; done
    w=$((R / 16)) blocks=$(( ((M + R - 1) / R) * ((N + C - 1) / C) ))
    d="$out/${shape}_nt_sm90a_w${tile}_g${blocks}"
    [ "$tile" = "$pick" ] && d="${d}_default"
    src="$out/src/mm_${shape}_w${tile}.mlir"
    cat > "$src" <<MLIR
func.func @mm(%a: tensor<${M}x${K}xbf16>, %b: tensor<${N}x${K}xbf16>) -> tensor<${M}x${N}xbf16> {
  %c = motif.kernel "mm" threads($((32 * w))) -> tensor<${M}x${N}xbf16> {
    %as = motif.materialize %a in shared : tensor<${M}x${K}xbf16>
    %bs = motif.materialize %b in shared : tensor<${N}x${K}xbf16>
    %p = motif.contract (%as[i, k], %bs[j, k]) -> [i, j]
           over [block x thread(${w}) x seq(2) x thread(8), block x seq($((C / 8))) x thread(4) x seq(2), seq x seq(64)]
           mma m64n${C}k16 stages(${stages})
           : (tensor<${M}x${K}xbf16>, tensor<${N}x${K}xbf16>) -> tensor<${M}x${N}xf32>
    %pr = motif.materialize %p in register : tensor<${M}x${N}xf32>
    %t = motif.map (%pr[i, j]) -> [i, j]
           over [block x thread(${w}) x seq(2) x thread(8), block x seq($((C / 8))) x thread(4) x seq(2)]
           : (tensor<${M}x${N}xf32>) -> tensor<${M}x${N}xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %t in global : tensor<${M}x${N}xbf16>
    motif.yield %g : tensor<${M}x${N}xbf16>
  }
  return %c : tensor<${M}x${N}xbf16>
}
MLIR
    "$bin/motif-compile" --chip=sm_90a --no-sass -o "$d" "$src" >/dev/null
    echo "$shape: $tile stages($stages), $blocks blocks -> $d"
  done
done
