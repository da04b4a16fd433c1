// Softmax 16x61440 on threads(256): exp(x - max) is 240 registers per thread.
// With register-budget=250 it stays in registers and ptxas spills
// (test/Driver/replan-spills.test).
// Row softmax, unfused: max, exp(x - max), sum, divide -- every intermediate
// crosses a kernel boundary in global memory (what torch eager does when
// softmax is composed of max/sub/exp/sum/div).
func.func @softmax(%x: tensor<16x61440xf32>) -> tensor<16x61440xf32> {
  %max = motif.kernel "softmax_max" threads(256) -> tensor<16xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<16x61440xf32>) -> tensor<16xf32>
    %g = motif.materialize %m in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  %exp = motif.kernel "softmax_exp" threads(256) -> tensor<16x61440xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<16x61440xf32>, tensor<16xf32>) -> tensor<16x61440xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<16x61440xf32>
    motif.yield %g : tensor<16x61440xf32>
  }
  %sum = motif.kernel "softmax_sum" threads(256) -> tensor<16xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<16x61440xf32>) -> tensor<16xf32>
    %g = motif.materialize %s in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  %y = motif.kernel "softmax_div" threads(256) -> tensor<16x61440xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<16x61440xf32>, tensor<16xf32>) -> tensor<16x61440xf32> {
    ^bb0(%e: f32, %s: f32):
      %r = arith.divf %e, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<16x61440xf32>
    motif.yield %g : tensor<16x61440xf32>
  }
  return %y : tensor<16x61440xf32>
}
