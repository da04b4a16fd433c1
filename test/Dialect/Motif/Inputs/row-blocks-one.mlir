// Three row kernels of test/Dialect/Motif/fuse-materialization-row-blocks.mlir in one module, for motif-equiv.
func.func @block_rows(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %max = motif.kernel "max" threads(256) -> tensor<64xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<64x1024xf32>) -> tensor<64xf32>
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %y = motif.kernel "div" threads(256) -> tensor<64x1024xf32> {
    %p = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<64x1024xf32>, tensor<64xf32>) -> tensor<64x1024xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<64x1024xf32>
    motif.yield %g : tensor<64x1024xf32>
  }
  return %y : tensor<64x1024xf32>
}
func.func @warp_rows(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %s = motif.kernel "wsum" threads(512) -> tensor<64xf32> {
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block.warp, lane]
           : (tensor<64x256xf32>) -> tensor<64xf32>
    %g = motif.materialize %r in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %y = motif.kernel "wscale" threads(512) -> tensor<64x256xf32> {
    %p = motif.map (%x[i, j], %s[i]) -> [i, j] over [block.warp, lane]
           : (tensor<64x256xf32>, tensor<64xf32>) -> tensor<64x256xf32> {
    ^bb0(%a: f32, %t: f32):
      %d = arith.mulf %a, %t : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<64x256xf32>
    motif.yield %g : tensor<64x256xf32>
  }
  return %y : tensor<64x256xf32>
}

// A row longer than the register budget times the block: grown to 512 threads.
func.func @long_rows(%x: tensor<2x32768xf32>) -> tensor<2x32768xf32> {
  // y = exp(x) / sum(exp(x)): the sum is of positive terms (a sum of x itself,
  // near zero on normal inputs, would make any change of tree fail 1e-5).
  %e = motif.kernel "exp" threads(256) -> tensor<2x32768xf32> {
    %p = motif.map (%x[i, j]) -> [i, j] over [block, thread]
           : (tensor<2x32768xf32>) -> tensor<2x32768xf32> {
    ^bb0(%a: f32):
      %v = math.exp %a : f32
      motif.yield %v : f32
    }
    %g = motif.materialize %p in global : tensor<2x32768xf32>
    motif.yield %g : tensor<2x32768xf32>
  }
  %sum = motif.kernel "sum" threads(256) -> tensor<2xf32> {
    %m = motif.reduce <add> (%e[i, j]) -> [i] over [block, thread]
           : (tensor<2x32768xf32>) -> tensor<2xf32>
    %g = motif.materialize %m in global : tensor<2xf32>
    motif.yield %g : tensor<2xf32>
  }
  %y = motif.kernel "div" threads(256) -> tensor<2x32768xf32> {
    %p = motif.map (%e[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<2x32768xf32>, tensor<2xf32>) -> tensor<2x32768xf32> {
    ^bb0(%v: f32, %s: f32):
      %d = arith.divf %v, %s : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<2x32768xf32>
    motif.yield %g : tensor<2x32768xf32>
  }
  return %y : tensor<2x32768xf32>
}
