// motif.online_contract on tensor cores at D = E = 128 in 128 rows (two
// m-tiles a warp, 32-key tiles), 300 keys (ten tiles through three stages,
// the last partial), bf16 in and out.
func.func @d128(%q: tensor<1x128x128xbf16>, %k: tensor<1x300x128xbf16>, %v: tensor<1x300x128xbf16>) -> tensor<1x128x128xbf16> {
  %y = motif.kernel "attn_online" threads(128) -> tensor<1x128x128xbf16> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125)
           over [block, block x seq(128), seq, seq, seq]
           : (tensor<1x128x128xbf16>, tensor<1x300x128xbf16>, tensor<1x300x128xbf16>) -> tensor<1x128x128xbf16>
    %g = motif.materialize %o in global : tensor<1x128x128xbf16>
    motif.yield %g : tensor<1x128x128xbf16>
  }
  return %y : tensor<1x128x128xbf16>
}
