// motif-dims: M=256 K=384 N=512
// GEMM epilogue in one tiled kernel (examples/gemm_bias_gelu.mlir, another
// schedule): the product is a register-blocked contraction over staged
// operand tiles (as in examples/gemm.mlir), kept in registers, and the bias
// and the exact (erf) GELU are applied by the thread that holds each element
// (the same tile nests on both sides: a register edge).
func.func @gemm_bias_gelu_tiled(%x: tensor<256x384xf32>, %w: tensor<384x512xf32>,
                                %b: tensor<512xf32>) -> tensor<256x512xf32> {
  %y = motif.kernel "gemm_bias_gelu" threads(256) -> tensor<256x512xf32> {
    %xs = motif.materialize %x in shared : tensor<256x384xf32>
    %ws = motif.materialize %w in shared : tensor<384x512xf32>
    %p = motif.contract (%xs[i, k], %ws[k, j]) -> [i, j]
           over [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4), seq x seq(32)]
           : (tensor<256x384xf32>, tensor<384x512xf32>) -> tensor<256x512xf32>
    %t = motif.materialize %p in register : tensor<256x512xf32>
    %o = motif.map (%t[i, j], %b[j]) -> [i, j]
           over [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4)]
           : (tensor<256x512xf32>, tensor<512xf32>) -> tensor<256x512xf32> {
    ^bb0(%a: f32, %c: f32):
      %u = arith.addf %a, %c : f32
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %rsqrt2 = arith.constant 0.707106769 : f32
      %z = arith.mulf %u, %rsqrt2 : f32
      %e = math.erf %z : f32
      %e1 = arith.addf %e, %one : f32
      %h = arith.mulf %u, %half : f32
      %r = arith.mulf %h, %e1 : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %o in global : tensor<256x512xf32>
    motif.yield %g : tensor<256x512xf32>
  }
  return %y : tensor<256x512xf32>
}
