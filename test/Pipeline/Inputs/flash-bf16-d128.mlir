// The flash form on tensor cores at D = E = 128 with 128 rows per block:
// two m-tiles of 128 value columns a warp, so 32-key tiles (getKeyTile).
func.func @flash_d128(%q: tensor<4x256x128xbf16>, %k: tensor<4x256x128xbf16>, %v: tensor<4x256x128xbf16>) -> tensor<4x256x128xbf16> {
  %y = motif.kernel "attn_online" threads(128) -> tensor<4x256x128xbf16> {
    %r = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.08838834764831843)
           over [block, block x seq(128), seq, seq, seq] : (tensor<4x256x128xbf16>, tensor<4x256x128xbf16>, tensor<4x256x128xbf16>) -> tensor<4x256x128xbf16>
    %g = motif.materialize %r in global : tensor<4x256x128xbf16>
    motif.yield %g : tensor<4x256x128xbf16>
  }
  return %y : tensor<4x256x128xbf16>
}

