// motif-dims: N=4096
// Square roots and fused multiply-adds inside map bodies
// (test/Pipeline/half-math.test; on the GPU, python/tests/test_gpu.py::
// test_precise_math_bitwise): what the evaluator rounds once, the kernel
// rounds once -- bf16 and f16 sqrt and fma, and an f32 sqrt.
func.func @half_math(%a: tensor<4096xbf16>, %b: tensor<4096xf16>, %c: tensor<4096xf32>)
    -> (tensor<4096xbf16>, tensor<4096xf16>, tensor<4096xf32>) {
  %r:3 = motif.kernel "half_math" threads(128)
      -> tensor<4096xbf16>, tensor<4096xf16>, tensor<4096xf32> {
    %x = motif.map (%a[i]) -> [i] over [block.warp] : (tensor<4096xbf16>) -> tensor<4096xbf16> {
    ^bb0(%v: bf16):
      %p = math.absf %v : bf16
      %s = math.sqrt %p : bf16
      %f = math.fma %s, %v, %p : bf16
      motif.yield %f : bf16
    }
    %y = motif.map (%b[i]) -> [i] over [block.warp] : (tensor<4096xf16>) -> tensor<4096xf16> {
    ^bb0(%v: f16):
      %p = math.absf %v : f16
      %s = math.sqrt %p : f16
      %f = math.fma %s, %v, %p : f16
      motif.yield %f : f16
    }
    %z = motif.map (%c[i]) -> [i] over [block.warp] : (tensor<4096xf32>) -> tensor<4096xf32> {
    ^bb0(%v: f32):
      %p = math.absf %v : f32
      %s = math.sqrt %p : f32
      motif.yield %s : f32
    }
    %gx = motif.materialize %x in global : tensor<4096xbf16>
    %gy = motif.materialize %y in global : tensor<4096xf16>
    %gz = motif.materialize %z in global : tensor<4096xf32>
    motif.yield %gx, %gy, %gz : tensor<4096xbf16>, tensor<4096xf16>, tensor<4096xf32>
  }
  return %r#0, %r#1, %r#2 : tensor<4096xbf16>, tensor<4096xf16>, tensor<4096xf32>
}
