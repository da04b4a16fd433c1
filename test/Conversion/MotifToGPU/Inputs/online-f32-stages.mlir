// The fma flash form without key groups, in its default pipeline: 2 heads,
// 128 rows per block (4 rows a quad of 128 threads), 256 keys in 8 tiles of
// 32 staged by cp.async into 2 stages (OnlineContractOp::getKeyStages).
func.func @stages(%q: tensor<2x256x64xf32>, %k: tensor<2x256x64xf32>, %v: tensor<2x256x64xf32>) -> tensor<2x256x64xf32> {
  %y = motif.kernel "attn_online" threads(128) -> tensor<2x256x64xf32> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125)
           over [block, block x seq(128), seq, seq, seq]
           : (tensor<2x256x64xf32>, tensor<2x256x64xf32>, tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
    %g = motif.materialize %o in global : tensor<2x256x64xf32>
    motif.yield %g : tensor<2x256x64xf32>
  }
  return %y : tensor<2x256x64xf32>
}
