// A chain of maps whose values are constants (sqrt(2 * 2 + 1), then
// s / (s * s + 1), then tanh), three kernels that exchange their values
// through global memory: motif.fuzz_gpu found the fused form of such a
// program (motif-fuzz gen --seed=20261219, p184) storing other bits than
// these kernels (test/Pipeline/device-math-constants.test).
func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
  %s = motif.kernel "root" threads(32) -> tensor<?xf32> {
    %r = motif.map (%x[i]) -> [i] over [block] : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%a: f32):
      %two = arith.constant 2.000000e+00 : f32
      %one = arith.constant 1.000000e+00 : f32
      %sq = arith.mulf %two, %two : f32
      %p = arith.addf %sq, %one : f32
      %q = math.sqrt %p : f32
      motif.yield %q : f32
    }
    %g = motif.materialize %r in global : tensor<?xf32>
    motif.yield %g : tensor<?xf32>
  }
  %d = motif.kernel "ratio" threads(32) -> tensor<?xf32> {
    %r = motif.map (%s[i]) -> [i] over [block] : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%a: f32):
      %one = arith.constant 1.000000e+00 : f32
      %m = arith.mulf %a, %a : f32
      %p = arith.addf %m, %one : f32
      %q = arith.divf %a, %p : f32
      motif.yield %q : f32
    }
    %g = motif.materialize %r in global : tensor<?xf32>
    motif.yield %g : tensor<?xf32>
  }
  %t = motif.kernel "tanh" threads(32) -> tensor<?xf32> {
    %r = motif.map (%d[i]) -> [i] over [block] : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%a: f32):
      %q = math.tanh %a : f32
      motif.yield %q : f32
    }
    %g = motif.materialize %r in global : tensor<?xf32>
    motif.yield %g : tensor<?xf32>
  }
  return %t : tensor<?xf32>
}
