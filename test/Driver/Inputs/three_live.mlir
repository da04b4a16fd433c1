// Three values read slot for slot by one map at threads(1024): 48 registers
// of values live at once, over the 40 a thread of a 1024-thread block has
// for values (test/Dialect/Motif/fuse-materialization-live-set.mlir). With
// shared-budget=65536 'a' moves to a 64 KiB shared row (dynamic shared
// memory); b and c stay in registers and ptxas still spills a little
// (test/Driver/replan-spills.test).
// A chain of three kernels: m1 -> m2 -> m3, each 32 registers per thread.
// At most two values are live at once (64 = the budget): all fuse in registers.
func.func @negative_three_live(%x: tensor<64x16384xf32>) -> tensor<64x16384xf32> {
  %a = motif.kernel "a" threads(1024) -> tensor<64x16384xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x16384xf32>) -> tensor<64x16384xf32> {
    ^bb0(%v: f32):
      %r = math.exp %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x16384xf32>
    motif.yield %g : tensor<64x16384xf32>
  }
  %b = motif.kernel "b" threads(1024) -> tensor<64x16384xf32> {
    %m = motif.map (%a[i, j]) -> [i, j] over [block, thread] : (tensor<64x16384xf32>) -> tensor<64x16384xf32> {
    ^bb0(%v: f32):
      %r = math.sin %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x16384xf32>
    motif.yield %g : tensor<64x16384xf32>
  }
  %c = motif.kernel "c" threads(1024) -> tensor<64x16384xf32> {
    %m = motif.map (%b[i, j]) -> [i, j] over [block, thread] : (tensor<64x16384xf32>) -> tensor<64x16384xf32> {
    ^bb0(%v: f32):
      %r = math.cos %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x16384xf32>
    motif.yield %g : tensor<64x16384xf32>
  }
  %d = motif.kernel "d" threads(1024) -> tensor<64x16384xf32> {
    %m = motif.map (%c[i, j], %a[i, j], %b[i, j]) -> [i, j] over [block, thread] : (tensor<64x16384xf32>, tensor<64x16384xf32>, tensor<64x16384xf32>) -> tensor<64x16384xf32> {
    ^bb0(%v: f32, %w: f32, %u: f32):
      %t = math.tanh %v : f32
      %q = arith.addf %t, %w : f32
      %r = arith.addf %q, %u : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x16384xf32>
    motif.yield %g : tensor<64x16384xf32>
  }
  return %d : tensor<64x16384xf32>
}
