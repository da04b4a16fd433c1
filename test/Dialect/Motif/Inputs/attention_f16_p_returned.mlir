// attention_f16_round_map.mlir with the rounded probabilities also returned: rule 4
// must decline (the flash form never stores P).
func.func @attention(%q: tensor<3x64x64xf16>, %k: tensor<3x100x64xf16>, %v: tensor<3x100x64xf16>) -> (tensor<3x64x64xf16>, tensor<3x64x100xf16>) {
  %s = motif.kernel "attn_scores" threads(256) -> tensor<3x64x100xf32> {
    %qk = motif.contract (%q[h, i, d], %k[h, j, d]) -> [h, i, j] over [block, block, thread, seq]
           : (tensor<3x64x64xf16>, tensor<3x100x64xf16>) -> tensor<3x64x100xf32>
    %g = motif.materialize %qk in global : tensor<3x64x100xf32>
    motif.yield %g : tensor<3x64x100xf32>
  }
  %ss = motif.kernel "attn_scale" threads(256) -> tensor<3x64x100xf32> {
    %sc = motif.map (%s[h, i, j]) -> [h, i, j] over [block, block, thread] : (tensor<3x64x100xf32>) -> tensor<3x64x100xf32> {
    ^bb0(%a: f32):
      %c = arith.constant 1.25e-01 : f32
      %r = arith.mulf %a, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %sc in global : tensor<3x64x100xf32>
    motif.yield %g : tensor<3x64x100xf32>
  }
  %max = motif.kernel "attn_max" threads(256) -> tensor<3x64xf32> {
    %m = motif.reduce <max> (%ss[h, i, j]) -> [h, i] over [block, block, thread] : (tensor<3x64x100xf32>) -> tensor<3x64xf32>
    %g = motif.materialize %m in global : tensor<3x64xf32>
    motif.yield %g : tensor<3x64xf32>
  }
  %exp = motif.kernel "attn_exp" threads(256) -> tensor<3x64x100xf32> {
    %e = motif.map (%ss[h, i, j], %max[h, i]) -> [h, i, j] over [block, block, thread]
           : (tensor<3x64x100xf32>, tensor<3x64xf32>) -> tensor<3x64x100xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<3x64x100xf32>
    motif.yield %g : tensor<3x64x100xf32>
  }
  %sum = motif.kernel "attn_sum" threads(256) -> tensor<3x64xf32> {
    %l = motif.reduce <add> (%exp[h, i, j]) -> [h, i] over [block, block, thread] : (tensor<3x64x100xf32>) -> tensor<3x64xf32>
    %g = motif.materialize %l in global : tensor<3x64xf32>
    motif.yield %g : tensor<3x64xf32>
  }
  %pf = motif.kernel "attn_probs" threads(256) -> tensor<3x64x100xf32> {
    %pr = motif.map (%exp[h, i, j], %sum[h, i]) -> [h, i, j] over [block, block, thread]
           : (tensor<3x64x100xf32>, tensor<3x64xf32>) -> tensor<3x64x100xf32> {
    ^bb0(%e: f32, %l: f32):
      %r = arith.divf %e, %l : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %pr in global : tensor<3x64x100xf32>
    motif.yield %g : tensor<3x64x100xf32>
  }
  %p = motif.kernel "attn_round" threads(256) -> tensor<3x64x100xf16> {
    %r = motif.map (%pf[h, i, j]) -> [h, i, j] over [block, block, thread] : (tensor<3x64x100xf32>) -> tensor<3x64x100xf16> {
    ^bb0(%a: f32):
      %t = arith.truncf %a : f32 to f16
      motif.yield %t : f16
    }
    %g = motif.materialize %r in global : tensor<3x64x100xf16>
    motif.yield %g : tensor<3x64x100xf16>
  }
  %y = motif.kernel "attn_pv" threads(256) -> tensor<3x64x64xf32> {
    %o = motif.contract (%p[h, i, j], %v[h, j, e]) -> [h, i, e] over [block, block, thread, seq]
           : (tensor<3x64x100xf16>, tensor<3x100x64xf16>) -> tensor<3x64x64xf32>
    %g = motif.materialize %o in global : tensor<3x64x64xf32>
    motif.yield %g : tensor<3x64x64xf32>
  }
  %out = motif.kernel "attn_out" threads(256) -> tensor<3x64x64xf16> {
    %t = motif.map (%y[h, i, e]) -> [h, i, e] over [block, block, thread] : (tensor<3x64x64xf32>) -> tensor<3x64x64xf16> {
    ^bb0(%x: f32):
      %r = arith.truncf %x : f32 to f16
      motif.yield %r : f16
    }
    %g = motif.materialize %t in global : tensor<3x64x64xf16>
    motif.yield %g : tensor<3x64x64xf16>
  }
  return %out, %p : tensor<3x64x64xf16>, tensor<3x64x100xf16>
}
