// motif-dims: M=2048 N=65536
// Row softmax, unfused: max, exp(x - max), sum, divide -- every intermediate
// crosses a kernel boundary in global memory (what torch eager does when
// softmax is composed of max/sub/exp/sum/div).
func.func @softmax(%x: tensor<2048x65536xf32>) -> tensor<2048x65536xf32> {
  %max = motif.kernel "softmax_max" threads(256) -> tensor<2048xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<2048x65536xf32>) -> tensor<2048xf32>
    %g = motif.materialize %m in global : tensor<2048xf32>
    motif.yield %g : tensor<2048xf32>
  }
  %exp = motif.kernel "softmax_exp" threads(256) -> tensor<2048x65536xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<2048x65536xf32>, tensor<2048xf32>) -> tensor<2048x65536xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<2048x65536xf32>
    motif.yield %g : tensor<2048x65536xf32>
  }
  %sum = motif.kernel "softmax_sum" threads(256) -> tensor<2048xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<2048x65536xf32>) -> tensor<2048xf32>
    %g = motif.materialize %s in global : tensor<2048xf32>
    motif.yield %g : tensor<2048xf32>
  }
  %y = motif.kernel "softmax_div" threads(256) -> tensor<2048x65536xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<2048x65536xf32>, tensor<2048xf32>) -> tensor<2048x65536xf32> {
    ^bb0(%e: f32, %s: f32):
      %r = arith.divf %e, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<2048x65536xf32>
    motif.yield %g : tensor<2048x65536xf32>
  }
  return %y : tensor<2048x65536xf32>
}

// The same softmax with another mapping: one row per warp (8 rows per block
// of 256 threads), the row spread over the warp's lanes. Its reductions are
// warp butterflies only -- no shared memory, no block barrier -- which suits
// short rows; long rows exceed the register budget per lane and fuse less.
func.func @softmax_rows(%x: tensor<2048x65536xf32>) -> tensor<2048x65536xf32> {
  %max = motif.kernel "rows_max" threads(256) -> tensor<2048xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block.warp, lane]
           : (tensor<2048x65536xf32>) -> tensor<2048xf32>
    %g = motif.materialize %m in global : tensor<2048xf32>
    motif.yield %g : tensor<2048xf32>
  }
  %exp = motif.kernel "rows_exp" threads(256) -> tensor<2048x65536xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block.warp, lane]
           : (tensor<2048x65536xf32>, tensor<2048xf32>) -> tensor<2048x65536xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<2048x65536xf32>
    motif.yield %g : tensor<2048x65536xf32>
  }
  %sum = motif.kernel "rows_sum" threads(256) -> tensor<2048xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block.warp, lane]
           : (tensor<2048x65536xf32>) -> tensor<2048xf32>
    %g = motif.materialize %s in global : tensor<2048xf32>
    motif.yield %g : tensor<2048xf32>
  }
  %y = motif.kernel "rows_div" threads(256) -> tensor<2048x65536xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block.warp, lane]
           : (tensor<2048x65536xf32>, tensor<2048xf32>) -> tensor<2048x65536xf32> {
    ^bb0(%e: f32, %s: f32):
      %r = arith.divf %e, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<2048x65536xf32>
    motif.yield %g : tensor<2048x65536xf32>
  }
  return %y : tensor<2048x65536xf32>
}
