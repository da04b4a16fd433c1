// Found by motif-fuzz (program seed 8816324471742042626, minimized): the online-softmax
// state over 4 of 32 lanes, then a map reading the state.
func.func @f(%arg0: tensor<1x1x4xf32>, %arg1: tensor<1x1x4xf32>, %arg2: tensor<1x4xf32>) -> (tensor<1x1x4xf32>) {
  %v3:2 = motif.kernel "k3" threads(32) -> tensor<1x1xf32>, tensor<1x1xf32> {
    %r:2 = motif.reduce (%arg1[d0, d1, d2], %arg1[d0, d1, d2]) -> [d0, d1] init [0xFF800000 : f32, 0.0 : f32] over [block, seq, thread] : (tensor<1x1x4xf32>, tensor<1x1x4xf32>) -> (tensor<1x1xf32>, tensor<1x1xf32>) combiner {
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
    %g0 = motif.materialize %r#0 in global : tensor<1x1xf32>
    %g1 = motif.materialize %r#1 in global : tensor<1x1xf32>
    motif.yield %g0, %g1 : tensor<1x1xf32>, tensor<1x1xf32>
  }
  %v4 = motif.kernel "k4" threads(32) -> tensor<1x1x4xf32> {
    %r = motif.map (%v3#1[d0, d1], %arg1[d0, d1, d2]) -> [d0, d1, d2] over [block, seq, thread] : (tensor<1x1xf32>, tensor<1x1x4xf32>) -> tensor<1x1x4xf32> {
    ^bb0(%a0: f32, %a1: f32):
      motif.yield %a0 : f32
    }
    %g0 = motif.materialize %r in global : tensor<1x1x4xf32>
    motif.yield %g0 : tensor<1x1x4xf32>
  }
  return %v4 : tensor<1x1x4xf32>
}
