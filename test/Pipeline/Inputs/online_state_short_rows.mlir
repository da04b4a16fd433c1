// The online-softmax state (running max, running sum of exp) over rows of
// one element, reduced across the 32 lanes of a warp: 31 lanes fold nothing,
// and combining two identities computes -inf - -inf = NaN
// (../shared/repro/wrong_online_state_short_rows_nan.mlir).
func.func @online_state(%x: tensor<64x1xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %r:2 = motif.kernel "state" threads(128) -> tensor<64xf32>, tensor<64xf32> {
    // Lift every element to a state (x, 1).
    %one = motif.map (%x[i, j]) -> [i, j] over [block.warp, lane] : (tensor<64x1xf32>) -> tensor<64x1xf32> {
    ^bb0(%a: f32):
      %c1 = arith.constant 1.0 : f32
      motif.yield %c1 : f32
    }
    %ones = motif.materialize %one in register : tensor<64x1xf32>
    %m, %l = motif.reduce (%x[i, j], %ones[i, j]) -> [i] init [0xFF800000 : f32, 0.0 : f32] over [block.warp, lane]
        : (tensor<64x1xf32>, tensor<64x1xf32>) -> (tensor<64xf32>, tensor<64xf32>) combiner {
    ^bb0(%ma: f32, %la: f32, %mb: f32, %lb: f32):
      %mx = arith.maximumf %ma, %mb : f32
      %da = arith.subf %ma, %mx : f32
      %db = arith.subf %mb, %mx : f32
      %ea = math.exp %da : f32
      %eb = math.exp %db : f32
      %sa = arith.mulf %la, %ea : f32
      %s = math.fma %lb, %eb, %sa : f32
      motif.yield %mx, %s : f32, f32
    }
    %gm = motif.materialize %m in global : tensor<64xf32>
    %gl = motif.materialize %l in global : tensor<64xf32>
    motif.yield %gm, %gl : tensor<64xf32>, tensor<64xf32>
  }
  return %r#0, %r#1 : tensor<64xf32>, tensor<64xf32>
}
