# Sourced by scripts/mma-partial-variants.sh and scripts/make-kstep-variants.sh: `program M N K nn|nt`
# prints the unfused bf16 C = A.B (nn, B [K, N]) or A.B^T (nt, B [N, K]) rounded to bf16, stating no tiles.
program() { # M N K form
  local M=$1 N=$2 K=$3 form=$4 b bidx
  if [ "$form" = nt ]; then b="${N}x${K}"; bidx="%b[j, k]"; else b="${K}x${N}"; bidx="%b[k, j]"; fi
  cat <<MLIR
func.func @mm(%a: tensor<${M}x${K}xbf16>, %b: tensor<${b}xbf16>) -> tensor<${M}x${N}xbf16> {
  %c = motif.kernel "mm" threads(256) -> tensor<${M}x${N}xf32> {
    %p = motif.contract (%a[i, k], ${bidx}) -> [i, j] over [block, thread, seq]
           : (tensor<${M}x${K}xbf16>, tensor<${b}xbf16>) -> tensor<${M}x${N}xf32>
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
}
