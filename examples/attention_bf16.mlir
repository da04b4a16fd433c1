// motif-dims: S=256 D=64
// motif-derived: 0.125=1/sqrt(D)
// Single-head attention in bf16, unfused: examples/attention.mlir on bf16 tensors (issue 13), the
// single-head form of examples/mha_bf16.mlir. q, k, v and the result are bf16; both contractions
// read bf16 operands (extended exactly) and accumulate in f32, the softmax statistics are f32,
// P = bf16(exp / sum) is rounded where it is divided (one map), so P.V reads bf16 operands as the
// tensor-core flash form does, and the result is one truncf of the f32 P.V.
func.func @attention_bf16(%q: tensor<256x64xbf16>, %k: tensor<256x64xbf16>,
                          %v: tensor<256x64xbf16>) -> tensor<256x64xbf16> {
  %s = motif.kernel "attn_scores" threads(256) -> tensor<256x256xf32> {
    %qk = motif.contract (%q[i, d], %k[j, d]) -> [i, j] over [block, thread, seq]
           : (tensor<256x64xbf16>, tensor<256x64xbf16>) -> tensor<256x256xf32>
    %g = motif.materialize %qk in global : tensor<256x256xf32>
    motif.yield %g : tensor<256x256xf32>
  }
  %ss = motif.kernel "attn_scale" threads(256) -> tensor<256x256xf32> {
    %sc = motif.map (%s[i, j]) -> [i, j] over [block, thread]
           : (tensor<256x256xf32>) -> tensor<256x256xf32> {
    ^bb0(%a: f32):
      %scale = arith.constant 0.125 : f32
      %r = arith.mulf %a, %scale : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %sc in global : tensor<256x256xf32>
    motif.yield %g : tensor<256x256xf32>
  }
  %max = motif.kernel "attn_max" threads(256) -> tensor<256xf32> {
    %m = motif.reduce <max> (%ss[i, j]) -> [i] over [block, thread]
           : (tensor<256x256xf32>) -> tensor<256xf32>
    %g = motif.materialize %m in global : tensor<256xf32>
    motif.yield %g : tensor<256xf32>
  }
  %exp = motif.kernel "attn_exp" threads(256) -> tensor<256x256xf32> {
    %e = motif.map (%ss[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<256x256xf32>, tensor<256xf32>) -> tensor<256x256xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<256x256xf32>
    motif.yield %g : tensor<256x256xf32>
  }
  %sum = motif.kernel "attn_sum" threads(256) -> tensor<256xf32> {
    %l = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<256x256xf32>) -> tensor<256xf32>
    %g = motif.materialize %l in global : tensor<256xf32>
    motif.yield %g : tensor<256xf32>
  }
  // P = bf16(e / l): the division and the rounding in one body.
  %p = motif.kernel "attn_probs" threads(256) -> tensor<256x256xbf16> {
    %pr = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<256x256xf32>, tensor<256xf32>) -> tensor<256x256xbf16> {
    ^bb0(%e: f32, %l: f32):
      %r = arith.divf %e, %l : f32
      %t = arith.truncf %r : f32 to bf16
      motif.yield %t : bf16
    }
    %g = motif.materialize %pr in global : tensor<256x256xbf16>
    motif.yield %g : tensor<256x256xbf16>
  }
  // P.V: bf16 operands, f32 accumulation; the output dim on lanes (two per lane), the keys split
  // across the eight warps and summed through shared memory, as in examples/attention.mlir.
  %y = motif.kernel "attn_pv" threads(256) -> tensor<256x64xf32> {
    %o = motif.contract (%p[i, j], %v[j, e]) -> [i, e] over [block, lane, warp]
           : (tensor<256x256xbf16>, tensor<256x64xbf16>) -> tensor<256x64xf32>
    %g = motif.materialize %o in global : tensor<256x64xf32>
    motif.yield %g : tensor<256x64xf32>
  }
  %out = motif.kernel "attn_out" threads(256) -> tensor<256x64xbf16> {
    %t = motif.map (%y[i, e]) -> [i, e] over [block, thread]
           : (tensor<256x64xf32>) -> tensor<256x64xbf16> {
    ^bb0(%x: f32):
      %r = arith.truncf %x : f32 to bf16
      motif.yield %r : bf16
    }
    %g = motif.materialize %t in global : tensor<256x64xbf16>
    motif.yield %g : tensor<256x64xbf16>
  }
  return %out : tensor<256x64xbf16>
}
