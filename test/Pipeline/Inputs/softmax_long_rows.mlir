// examples/softmax.mlir (@softmax) at N = 65536: a row of 256 KiB fits neither
// the register budget nor shared memory (test/Pipeline/online-softmax-long-rows.test).
func.func @softmax(%x: tensor<64x65536xf32>) -> tensor<64x65536xf32> {
  %max = motif.kernel "softmax_max" threads(256) -> tensor<64xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<64x65536xf32>) -> tensor<64xf32>
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %exp = motif.kernel "softmax_exp" threads(256) -> tensor<64x65536xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<64x65536xf32>, tensor<64xf32>) -> tensor<64x65536xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<64x65536xf32>
    motif.yield %g : tensor<64x65536xf32>
  }
  %sum = motif.kernel "softmax_sum" threads(256) -> tensor<64xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<64x65536xf32>) -> tensor<64xf32>
    %g = motif.materialize %s in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %y = motif.kernel "softmax_div" threads(256) -> tensor<64x65536xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<64x65536xf32>, tensor<64xf32>) -> tensor<64x65536xf32> {
    ^bb0(%e: f32, %s: f32):
      %r = arith.divf %e, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<64x65536xf32>
    motif.yield %g : tensor<64x65536xf32>
  }
  return %y : tensor<64x65536xf32>
}
