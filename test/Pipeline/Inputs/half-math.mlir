// motif-dims: N=256
// Square roots and fused multiply-adds on 16-bit values inside a map body
// (test/Pipeline/half-math.test): what the evaluator rounds once, the kernel
// rounds once.
func.func @half_math(%a: tensor<256xbf16>, %b: tensor<256xf16>) -> (tensor<256xbf16>, tensor<256xf16>) {
  %r:2 = motif.kernel "half_math" threads(128) -> tensor<256xbf16>, tensor<256xf16> {
    %x = motif.map (%a[i]) -> [i] over [thread] : (tensor<256xbf16>) -> tensor<256xbf16> {
    ^bb0(%v: bf16):
      %p = math.absf %v : bf16
      %s = math.sqrt %p : bf16
      %f = math.fma %s, %v, %p : bf16
      motif.yield %f : bf16
    }
    %y = motif.map (%b[i]) -> [i] over [thread] : (tensor<256xf16>) -> tensor<256xf16> {
    ^bb0(%v: f16):
      %p = math.absf %v : f16
      %s = math.sqrt %p : f16
      %f = math.fma %s, %v, %p : f16
      motif.yield %f : f16
    }
    %gx = motif.materialize %x in global : tensor<256xbf16>
    %gy = motif.materialize %y in global : tensor<256xf16>
    motif.yield %gx, %gy : tensor<256xbf16>, tensor<256xf16>
  }
  return %r#0, %r#1 : tensor<256xbf16>, tensor<256xf16>
}
