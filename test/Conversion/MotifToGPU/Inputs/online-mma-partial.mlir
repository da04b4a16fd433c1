// motif.online_contract on tensor cores: 65 keys (a partial 64-key tile,
// zero-filled by cp.async and scored -inf), D = 32 != E = 128, f16 operands
// and an f32 result, 64 rows per block (4 warps of one m-tile).
func.func @partial(%q: tensor<2x64x32xf16>, %k: tensor<2x65x32xf16>, %v: tensor<2x65x128xf16>) -> tensor<2x64x128xf32> {
  %y = motif.kernel "attn_online" threads(128) -> tensor<2x64x128xf32> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125)
           over [block, block x seq(64), seq, seq, seq]
           : (tensor<2x64x32xf16>, tensor<2x65x32xf16>, tensor<2x65x128xf16>) -> tensor<2x64x128xf32>
    %g = motif.materialize %o in global : tensor<2x64x128xf32>
    motif.yield %g : tensor<2x64x128xf32>
  }
  return %y : tensor<2x64x128xf32>
}
