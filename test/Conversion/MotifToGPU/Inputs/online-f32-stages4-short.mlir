// More stages than key tiles: 20 keys are one partial tile, stages(4) puts it
// and two empty commit groups in the prologue; 32 rows a block of 32 threads.
func.func @short(%q: tensor<64x16xf32>, %k: tensor<20x16xf32>, %v: tensor<20x16xf32>) -> tensor<64x16xf32> {
  %y = motif.kernel "attn_online" threads(32) -> tensor<64x16xf32> {
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.25) stages(4)
           over [block x seq(32), seq, seq, seq]
           : (tensor<64x16xf32>, tensor<20x16xf32>, tensor<20x16xf32>) -> tensor<64x16xf32>
    %g = motif.materialize %o in global : tensor<64x16xf32>
    motif.yield %g : tensor<64x16xf32>
  }
  return %y : tensor<64x16xf32>
}
