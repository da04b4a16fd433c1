// The fma flash form with key groups: 3 heads, 100 keys (4 tiles of 32, the
// last partial) over 4 groups: group 3 gets the partial tile, D = 8 != E = 32,
// 32 rows per block in 4 groups of a warp.
func.func @groups(%q: tensor<3x64x8xf32>, %k: tensor<3x100x8xf32>, %v: tensor<3x100x32xf32>) -> tensor<3x64x32xf32> {
  %y = motif.kernel "attn_online" threads(128) -> tensor<3x64x32xf32> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.35) splits(4)
           over [block, block x seq(32), seq, seq, seq]
           : (tensor<3x64x8xf32>, tensor<3x100x8xf32>, tensor<3x100x32xf32>) -> tensor<3x64x32xf32>
    %g = motif.materialize %o in global : tensor<3x64x32xf32>
    motif.yield %g : tensor<3x64x32xf32>
  }
  return %y : tensor<3x64x32xf32>
}
