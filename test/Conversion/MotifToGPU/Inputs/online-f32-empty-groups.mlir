// More groups than key tiles: 40 keys are 2 tiles of 32 over 8 groups, so
// groups 2..7 see only masked keys (m = -inf, l = 0, acc = 0) and must merge
// as nothing. 16 rows of 1 per thread (groups of 64 threads).
func.func @empty(%q: tensor<16x16xf32>, %k: tensor<40x16xf32>, %v: tensor<40x16xf32>) -> tensor<16x16xf32> {
  %y = motif.kernel "attn_online" threads(512) -> tensor<16x16xf32> {
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.25) splits(8)
           over [block x seq(16), seq, seq, seq]
           : (tensor<16x16xf32>, tensor<40x16xf32>, tensor<40x16xf32>) -> tensor<16x16xf32>
    %g = motif.materialize %o in global : tensor<16x16xf32>
    motif.yield %g : tensor<16x16xf32>
  }
  return %y : tensor<16x16xf32>
}
