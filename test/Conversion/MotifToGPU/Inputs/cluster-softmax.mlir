// A row softmax whose block of 1024 threads runs as a cluster of 4 CTAs of
// 256: both reductions combine 32 warp partials, 8 in each CTA's shared
// memory. clusters-emulated.test runs it against the same kernel without
// the cluster (one CTA of 1024 threads).
func.func @softmax(%x: tensor<8x4096xf32>) -> tensor<8x4096xf32> {
  %y = motif.kernel "softmax" threads(1024) cluster(4) -> tensor<8x4096xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<8x4096xf32>) -> tensor<8xf32>
    %mr = motif.materialize %m in register : tensor<8xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread]
           : (tensor<8x4096xf32>, tensor<8xf32>) -> tensor<8x4096xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<8x4096xf32>
    %s = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread]
           : (tensor<8x4096xf32>) -> tensor<8xf32>
    %sr = motif.materialize %s in register : tensor<8xf32>
    %p = motif.map (%er[i, j], %sr[i]) -> [i, j] over [block, thread]
           : (tensor<8x4096xf32>, tensor<8xf32>) -> tensor<8x4096xf32> {
    ^bb0(%a: f32, %b: f32):
      %q = arith.divf %a, %b : f32
      motif.yield %q : f32
    }
    %g = motif.materialize %p in global : tensor<8x4096xf32>
    motif.yield %g : tensor<8x4096xf32>
  }
  return %y : tensor<8x4096xf32>
}
