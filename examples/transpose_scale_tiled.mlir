// motif-dims: M=512 N=1024
// Transpose + scale in one kernel, tiled (examples/transpose_scale.mlir with
// a tiled mapping): y = transpose(x) * 2 + 1. Each block owns a 32x32 tile
// of y. The tile of x it needs is an operand tile staged in shared memory
// (`materialize %x in shared`): the block loads it along x's rows (128-bit
// loads), a barrier, then each thread reads its column of the tile (rows
// padded by one word, so a column spans all 32 banks) and stores four
// consecutive elements of a row of y (128-bit stores). Both sides of global
// memory are coalesced; tid = i-digit * 8 + j-digit.
func.func @transpose_scale_tiled(%x: tensor<512x1024xf32>) -> tensor<1024x512xf32> {
  %y = motif.kernel "transpose_scale" threads(256) -> tensor<1024x512xf32> {
    %xs = motif.materialize %x in shared : tensor<512x1024xf32>
    %t = motif.transpose %xs[j, i] -> [i, j]
           over [block x thread(32), block x thread(8) x seq(4)]
           : (tensor<512x1024xf32>) -> tensor<1024x512xf32>
    %r = motif.materialize %t in register : tensor<1024x512xf32>
    %o = motif.map (%r[i, j]) -> [i, j]
           over [block x thread(32), block x thread(8) x seq(4)]
           : (tensor<1024x512xf32>) -> tensor<1024x512xf32> {
    ^bb0(%a: f32):
      %two = arith.constant 2.0 : f32
      %one = arith.constant 1.0 : f32
      %s = math.fma %a, %two, %one : f32
      motif.yield %s : f32
    }
    %g = motif.materialize %o in global : tensor<1024x512xf32>
    motif.yield %g : tensor<1024x512xf32>
  }
  return %y : tensor<1024x512xf32>
}
