// motif-dims: H=2 S=256 D=64
// motif-derived: 0.125=1/sqrt(D)
// Multi-head attention in f16, unfused: examples/mha.mlir on f16 tensors (issue 13). q, k, v and
// the result are f16; both contractions read f16 operands (extended exactly) and accumulate in
// f32, the softmax statistics are f32, and P is rounded to f16 where it is divided (one map:
// divf, then truncf), so that P.V reads f16 operands as the tensor-core flash form does (what
// Triton's and FlashAttention's kernels feed their second dot). The result is one truncf of the
// f32 P.V. Per head: S = Q.K^T (f32), S * 1/sqrt(D), max, exp, sum, P = f16(exp / sum),
// Y = f16(P.V). S and P cross kernel boundaries in global memory.
func.func @mha_f16(%q: tensor<2x256x64xf16>, %k: tensor<2x256x64xf16>,
                   %v: tensor<2x256x64xf16>) -> tensor<2x256x64xf16> {
  %s = motif.kernel "attn_scores" threads(256) -> tensor<2x256x256xf32> {
    %qk = motif.contract (%q[h, i, d], %k[h, j, d]) -> [h, i, j] over [block, block, thread, seq]
           : (tensor<2x256x64xf16>, tensor<2x256x64xf16>) -> tensor<2x256x256xf32>
    %g = motif.materialize %qk in global : tensor<2x256x256xf32>
    motif.yield %g : tensor<2x256x256xf32>
  }
  %ss = motif.kernel "attn_scale" threads(256) -> tensor<2x256x256xf32> {
    %sc = motif.map (%s[h, i, j]) -> [h, i, j] over [block, block, thread]
           : (tensor<2x256x256xf32>) -> tensor<2x256x256xf32> {
    ^bb0(%a: f32):
      %scale = arith.constant 0.125 : f32
      %r = arith.mulf %a, %scale : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %sc in global : tensor<2x256x256xf32>
    motif.yield %g : tensor<2x256x256xf32>
  }
  %max = motif.kernel "attn_max" threads(256) -> tensor<2x256xf32> {
    %m = motif.reduce <max> (%ss[h, i, j]) -> [h, i] over [block, block, thread]
           : (tensor<2x256x256xf32>) -> tensor<2x256xf32>
    %g = motif.materialize %m in global : tensor<2x256xf32>
    motif.yield %g : tensor<2x256xf32>
  }
  %exp = motif.kernel "attn_exp" threads(256) -> tensor<2x256x256xf32> {
    %e = motif.map (%ss[h, i, j], %max[h, i]) -> [h, i, j] over [block, block, thread]
           : (tensor<2x256x256xf32>, tensor<2x256xf32>) -> tensor<2x256x256xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<2x256x256xf32>
    motif.yield %g : tensor<2x256x256xf32>
  }
  %sum = motif.kernel "attn_sum" threads(256) -> tensor<2x256xf32> {
    %l = motif.reduce <add> (%exp[h, i, j]) -> [h, i] over [block, block, thread]
           : (tensor<2x256x256xf32>) -> tensor<2x256xf32>
    %g = motif.materialize %l in global : tensor<2x256xf32>
    motif.yield %g : tensor<2x256xf32>
  }
  // P = f16(e / l): the division and the rounding in one body.
  %p = motif.kernel "attn_probs" threads(256) -> tensor<2x256x256xf16> {
    %pr = motif.map (%exp[h, i, j], %sum[h, i]) -> [h, i, j] over [block, block, thread]
           : (tensor<2x256x256xf32>, tensor<2x256xf32>) -> tensor<2x256x256xf16> {
    ^bb0(%e: f32, %l: f32):
      %r = arith.divf %e, %l : f32
      %t = arith.truncf %r : f32 to f16
      motif.yield %t : f16
    }
    %g = motif.materialize %pr in global : tensor<2x256x256xf16>
    motif.yield %g : tensor<2x256x256xf16>
  }
  // P.V: f16 operands, f32 accumulation; the output dim on lanes (two per lane), the keys split
  // across the eight warps and summed through shared memory, as in examples/mha.mlir.
  %y = motif.kernel "attn_pv" threads(256) -> tensor<2x256x64xf32> {
    %o = motif.contract (%p[h, i, j], %v[h, j, e]) -> [h, i, e] over [block, block, lane, warp]
           : (tensor<2x256x256xf16>, tensor<2x256x64xf16>) -> tensor<2x256x64xf32>
    %g = motif.materialize %o in global : tensor<2x256x64xf32>
    motif.yield %g : tensor<2x256x64xf32>
  }
  %out = motif.kernel "attn_out" threads(256) -> tensor<2x256x64xf16> {
    %t = motif.map (%y[h, i, e]) -> [h, i, e] over [block, block, thread]
           : (tensor<2x256x64xf32>) -> tensor<2x256x64xf16> {
    ^bb0(%x: f32):
      %r = arith.truncf %x : f32 to f16
      motif.yield %r : f16
    }
    %g = motif.materialize %t in global : tensor<2x256x64xf16>
    motif.yield %g : tensor<2x256x64xf16>
  }
  return %out : tensor<2x256x64xf16>
}
