// The fma flash form over a partial last row block: 3 heads of 70 rows in
// blocks of 32 (the third holds rows 64 .. 69, 26 rows masked), 100 keys
// (the last 32-key tile partial) over 2 groups of 2 warps, D = 8 != E = 32.
func.func @partial_rows(%q: tensor<3x70x8xf32>, %k: tensor<3x100x8xf32>, %v: tensor<3x100x32xf32>) -> tensor<3x70x32xf32> {
  %y = motif.kernel "attn_online" threads(64) -> tensor<3x70x32xf32> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.35) splits(2)
           over [block, block x seq(32), seq, seq, seq]
           : (tensor<3x70x8xf32>, tensor<3x100x8xf32>, tensor<3x100x32xf32>) -> tensor<3x70x32xf32>
    %g = motif.materialize %o in global : tensor<3x70x32xf32>
    motif.yield %g : tensor<3x70x32xf32>
  }
  return %y : tensor<3x70x32xf32>
}
