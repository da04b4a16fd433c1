// D = 256, E = 128, 128 rows a block: two copies of the K/V tiles would stage
// 233,472 bytes, over the 232,448 a block may opt in to, so the lowering keeps
// one copy (loads and stores between barriers) and still lowers.
func.func @one_stage(%q: tensor<128x256xf32>, %k: tensor<64x256xf32>, %v: tensor<64x128xf32>) -> tensor<128x128xf32> {
  %y = motif.kernel "attn_online" threads(128) -> tensor<128x128xf32> {
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.0625)
           over [block x seq(128), seq, seq, seq]
           : (tensor<128x256xf32>, tensor<64x256xf32>, tensor<64x128xf32>) -> tensor<128x128xf32>
    %g = motif.materialize %o in global : tensor<128x128xf32>
    motif.yield %g : tensor<128x128xf32>
  }
  return %y : tensor<128x128xf32>
}
