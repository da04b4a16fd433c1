// motif-dims: M=64 N=48 K=32 -- tiled mappings of a GEMM+ReLU and of a transpose+scale through shared memory (tiles.test)
func.func @tiled(%a: tensor<64x32xf32>, %b: tensor<32x48xf32>) -> (tensor<64x48xf32>, tensor<48x64xf32>) {
  %c = motif.kernel "mm" threads(32) -> tensor<64x48xf32> {
    %r = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [block(4) x thread(4) x seq(4), block(2) x thread(8) x seq(3), seq(4) x seq(8)]
           : (tensor<64x32xf32>, tensor<32x48xf32>) -> tensor<64x48xf32>
    %e = motif.materialize %r in register : tensor<64x48xf32>
    %o = motif.map (%e[i, j]) -> [i, j] over [block(4) x thread(4) x seq(4), block(2) x thread(8) x seq(3)]
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
    %y = motif.transpose %c[j, i] -> [i, j] over [block(3) x thread(16) x seq(1), block(2) x seq(8) x thread(4)]
           : (tensor<64x48xf32>) -> tensor<48x64xf32>
    %s = motif.materialize %y in shared : tensor<48x64xf32>
    %z = motif.map (%s[i, j]) -> [i, j] over [block(3) x seq(2) x thread(8), block(2) x thread(8) x seq(4)]
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
