// The fma flash form in a 3-stage pipeline: 100 keys (4 tiles of 32, the last
// partial: its rows zero-filled by cp.async with a source size of 0, scored
// -inf), D = 8 != E = 32, 64 rows a block in 64 threads (4 rows a quad).
func.func @stages3(%q: tensor<3x128x8xf32>, %k: tensor<3x100x8xf32>, %v: tensor<3x100x32xf32>) -> tensor<3x128x32xf32> {
  %y = motif.kernel "attn_online" threads(64) -> tensor<3x128x32xf32> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.35) stages(3)
           over [block, block x seq(64), seq, seq, seq]
           : (tensor<3x128x8xf32>, tensor<3x100x8xf32>, tensor<3x100x32xf32>) -> tensor<3x128x32xf32>
    %g = motif.materialize %o in global : tensor<3x128x32xf32>
    motif.yield %g : tensor<3x128x32xf32>
  }
  return %y : tensor<3x128x32xf32>
}
