// The tensor-core flash form over a partial last row block: 2 heads of 200
// rows in blocks of 128 (4 warps of two m-tiles; the second block holds rows
// 128 .. 199, 56 rows masked), 100 keys (the last 64-key tile partial),
// D = 64, E = 32, bf16 operands and result.
func.func @partial_rows(%q: tensor<2x200x64xbf16>, %k: tensor<2x100x64xbf16>, %v: tensor<2x100x32xbf16>) -> tensor<2x200x32xbf16> {
  %y = motif.kernel "attn_online" threads(128) -> tensor<2x200x32xbf16> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125)
           over [block, block x seq(128), seq, seq, seq]
           : (tensor<2x200x64xbf16>, tensor<2x100x64xbf16>, tensor<2x100x32xbf16>) -> tensor<2x200x32xbf16>
    %g = motif.materialize %o in global : tensor<2x200x32xbf16>
    motif.yield %g : tensor<2x200x32xbf16>
  }
  return %y : tensor<2x200x32xbf16>
}
