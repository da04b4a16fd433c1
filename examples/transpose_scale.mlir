// motif-dims: M=512 N=1024
// Transpose + consumer, unfused: y = transpose(x) * 2 + 1; the transposed
// tensor crosses a kernel boundary. Both motifs iterate over the result
// [j, i] the same way, so the consumer reads what the same thread wrote.
func.func @transpose_scale(%x: tensor<512x1024xf32>) -> tensor<1024x512xf32> {
  %t = motif.kernel "transpose" threads(256) -> tensor<1024x512xf32> {
    %tt = motif.transpose %x[j, i] -> [i, j] over [block, thread]
           : (tensor<512x1024xf32>) -> tensor<1024x512xf32>
    %g = motif.materialize %tt in global : tensor<1024x512xf32>
    motif.yield %g : tensor<1024x512xf32>
  }
  %y = motif.kernel "scale" threads(256) -> tensor<1024x512xf32> {
    %o = motif.map (%t[i, j]) -> [i, j] over [block, thread]
           : (tensor<1024x512xf32>) -> tensor<1024x512xf32> {
    ^bb0(%a: f32):
      %two = arith.constant 2.0 : f32
      %one = arith.constant 1.0 : f32
      %r = math.fma %a, %two, %one : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %o in global : tensor<1024x512xf32>
    motif.yield %g : tensor<1024x512xf32>
  }
  return %y : tensor<1024x512xf32>
}
