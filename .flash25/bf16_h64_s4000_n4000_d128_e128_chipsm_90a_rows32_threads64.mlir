func.func @attention(%q: tensor<64x4000x128xbf16>, %k: tensor<64x4000x128xbf16>, %v: tensor<64x4000x128xbf16>) -> tensor<64x4000x128xbf16> {
  %s = motif.kernel "attn_scores" threads(256) -> tensor<64x4000x4000xf32> {
    %qk = motif.contract (%q[h, i, d], %k[h, j, d]) -> [h, i, j] over [block, block, thread, seq]
           : (tensor<64x4000x128xbf16>, tensor<64x4000x128xbf16>) -> tensor<64x4000x4000xf32>
    %g = motif.materialize %qk in global : tensor<64x4000x4000xf32>
    motif.yield %g : tensor<64x4000x4000xf32>
  }
  %ss = motif.kernel "attn_scale" threads(256) -> tensor<64x4000x4000xf32> {
    %sc = motif.map (%s[h, i, j]) -> [h, i, j] over [block, block, thread] : (tensor<64x4000x4000xf32>) -> tensor<64x4000x4000xf32> {
    ^bb0(%a: f32):
      %c = arith.constant 8.8388346e-02 : f32
      %r = arith.mulf %a, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %sc in global : tensor<64x4000x4000xf32>
    motif.yield %g : tensor<64x4000x4000xf32>
  }
  %max = motif.kernel "attn_max" threads(256) -> tensor<64x4000xf32> {
    %m = motif.reduce <max> (%ss[h, i, j]) -> [h, i] over [block, block, thread] : (tensor<64x4000x4000xf32>) -> tensor<64x4000xf32>
    %g = motif.materialize %m in global : tensor<64x4000xf32>
    motif.yield %g : tensor<64x4000xf32>
  }
  %exp = motif.kernel "attn_exp" threads(256) -> tensor<64x4000x4000xf32> {
    %e = motif.map (%ss[h, i, j], %max[h, i]) -> [h, i, j] over [block, block, thread]
           : (tensor<64x4000x4000xf32>, tensor<64x4000xf32>) -> tensor<64x4000x4000xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<64x4000x4000xf32>
    motif.yield %g : tensor<64x4000x4000xf32>
  }
  %sum = motif.kernel "attn_sum" threads(256) -> tensor<64x4000xf32> {
    %l = motif.reduce <add> (%exp[h, i, j]) -> [h, i] over [block, block, thread] : (tensor<64x4000x4000xf32>) -> tensor<64x4000xf32>
    %g = motif.materialize %l in global : tensor<64x4000xf32>
    motif.yield %g : tensor<64x4000xf32>
  }
  %p = motif.kernel "attn_probs" threads(256) -> tensor<64x4000x4000xbf16> {
    %pr = motif.map (%exp[h, i, j], %sum[h, i]) -> [h, i, j] over [block, block, thread]
           : (tensor<64x4000x4000xf32>, tensor<64x4000xf32>) -> tensor<64x4000x4000xbf16> {
    ^bb0(%e: f32, %l: f32):
      %r = arith.divf %e, %l : f32
      %t = arith.truncf %r : f32 to bf16
      motif.yield %t : bf16
    }
    %g = motif.materialize %pr in global : tensor<64x4000x4000xbf16>
    motif.yield %g : tensor<64x4000x4000xbf16>
  }
  %y = motif.kernel "attn_pv" threads(256) -> tensor<64x4000x128xf32> {
    %o = motif.contract (%p[h, i, j], %v[h, j, e]) -> [h, i, e] over [block, block, thread, seq]
           : (tensor<64x4000x4000xbf16>, tensor<64x4000x128xbf16>) -> tensor<64x4000x128xf32>
    %g = motif.materialize %o in global : tensor<64x4000x128xf32>
    motif.yield %g : tensor<64x4000x128xf32>
  }
  %out = motif.kernel "attn_out" threads(256) -> tensor<64x4000x128xbf16> {
    %t = motif.map (%y[h, i, e]) -> [h, i, e] over [block, block, thread] : (tensor<64x4000x128xf32>) -> tensor<64x4000x128xbf16> {
    ^bb0(%x: f32):
      %r = arith.truncf %x : f32 to bf16
      motif.yield %r : bf16
    }
    %g = motif.materialize %t in global : tensor<64x4000x128xbf16>
    motif.yield %g : tensor<64x4000x128xbf16>
  }
  return %out : tensor<64x4000x128xbf16>
}
