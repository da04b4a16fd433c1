// motif-dims: M=2048 N=65536
// Row softmax on bf16 tensors, statistics in f32, unfused: the max and the sum
// accumulate in f32 (their result type), exp(x - max) is an f32 intermediate,
// and the quotient is rounded to bf16 once (arith.truncf, to nearest even).
// Every intermediate crosses a kernel boundary in global memory.
func.func @softmax_bf16(%x: tensor<2048x65536xbf16>) -> tensor<2048x65536xbf16> {
  %max = motif.kernel "softmax_bf16_max" threads(256) -> tensor<2048xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<2048x65536xbf16>) -> tensor<2048xf32>
    %g = motif.materialize %m in global : tensor<2048xf32>
    motif.yield %g : tensor<2048xf32>
  }
  %exp = motif.kernel "softmax_bf16_exp" threads(256) -> tensor<2048x65536xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<2048x65536xbf16>, tensor<2048xf32>) -> tensor<2048x65536xf32> {
    ^bb0(%a: bf16, %m: f32):
      %w = arith.extf %a : bf16 to f32
      %d = arith.subf %w, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<2048x65536xf32>
    motif.yield %g : tensor<2048x65536xf32>
  }
  %sum = motif.kernel "softmax_bf16_sum" threads(256) -> tensor<2048xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<2048x65536xf32>) -> tensor<2048xf32>
    %g = motif.materialize %s in global : tensor<2048xf32>
    motif.yield %g : tensor<2048xf32>
  }
  %y = motif.kernel "softmax_bf16_div" threads(256) -> tensor<2048x65536xbf16> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<2048x65536xf32>, tensor<2048xf32>) -> tensor<2048x65536xbf16> {
    ^bb0(%e: f32, %s: f32):
      %q = arith.divf %e, %s : f32
      %r = arith.truncf %q : f32 to bf16
      motif.yield %r : bf16
    }
    %g = motif.materialize %p in global : tensor<2048x65536xbf16>
    motif.yield %g : tensor<2048x65536xbf16>
  }
  return %y : tensor<2048x65536xbf16>
}
