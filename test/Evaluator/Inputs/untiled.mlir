// motif-dims: M=64 N=48 K=32 -- Inputs/tiled.mlir with every tile nest replaced by single levels (tiles.test)
func.func @tiled(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> (tensor<64x48xf32>, tensor<48x64xf32>) {
  %c = motif.kernel "mm" threads(32) -> tensor<64x48xf32> {
    %r = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [block, thread, seq]
           : (tensor<64x32xf32>, tensor<32x48xf32>) -> tensor<64x48xf32>
    %e = motif.materialize %r in register : tensor<64x48xf32>
    %o = motif.map (%e[i, j]) -> [i, j] over [block, thread]
           : (tensor<64x48xf32>) -> tensor<64x48xf32> {
    ^bb0(%x: f32):
      %z = arith.constant 0.0 : f32
      %m = arith.maximumf %x, %z : f32
      motif.yield %m : f32
    }
    %g = motif.materialize %o in global : tensor<64x48xf32>
    motif.yield %g : tensor<64x48xf32>
  }
  %t = motif.kernel "tr" threads(64) -> tensor<48x64xf32> {
    %y = motif.transpose %c[j, i] -> [i, j] over [block, thread]
           : (tensor<64x48xf32>) -> tensor<48x64xf32>
    %s = motif.materialize %y in shared : tensor<48x64xf32>
    %z = motif.map (%s[i, j]) -> [i, j] over [block, thread]
           : (tensor<48x64xf32>) -> tensor<48x64xf32> {
    ^bb0(%v: f32):
      %two = arith.constant 2.0 : f32
      %w = arith.mulf %v, %two : f32
      motif.yield %w : f32
    }
    %g = motif.materialize %z in global : tensor<48x64xf32>
    motif.yield %g : tensor<48x64xf32>
  }
  return %c, %t : tensor<64x48xf32>, tensor<48x64xf32>
}
