// A bad --fuse-materialization option is a located error, never a silent default.
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=exact" --verify-diagnostics

// expected-error @+1 {{unknown equivalence cap 'exact' (expected bitwise, tolerance, mathematical or semantic)}}
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}
