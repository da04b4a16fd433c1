// examples/attention.mlir with the max also returned (a negative case of rule 4, online contraction).
// motif-dims: S=256 D=64
// motif-derived: 0.125=1/sqrt(D)
// Single-head attention, unfused: S = Q.K^T, S * 1/sqrt(D), softmax over
// keys (max, exp, sum, divide), Y = P.V. S and P (and the row statistics)
// cross kernel boundaries in global memory: Theta(S^2) bytes of traffic.
func.func @attention(%q: tensor<256x64xf32>, %k: tensor<256x64xf32>,
                     %v: tensor<256x64xf32>) -> (tensor<256x64xf32>, tensor<256xf32>) {
  %s = motif.kernel "attn_scores" threads(256) -> tensor<256x256xf32> {
    %qk = motif.contract (%q[i, d], %k[j, d]) -> [i, j] over [block, thread, seq]
           : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x256xf32>
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
  %p = motif.kernel "attn_probs" threads(256) -> tensor<256x256xf32> {
    %pr = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<256x256xf32>, tensor<256xf32>) -> tensor<256x256xf32> {
    ^bb0(%e: f32, %l: f32):
      %r = arith.divf %e, %l : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %pr in global : tensor<256x256xf32>
    motif.yield %g : tensor<256x256xf32>
  }
  // P.V: the output dim on lanes (two per lane), the keys split across the
  // eight warps and summed through shared memory: all 256 threads work.
  %y = motif.kernel "attn_pv" threads(256) -> tensor<256x64xf32> {
    %o = motif.contract (%p[i, j], %v[j, e]) -> [i, e] over [block, lane, warp]
           : (tensor<256x256xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %g = motif.materialize %o in global : tensor<256x64xf32>
    motif.yield %g : tensor<256x64xf32>
  }
  return %y, %max : tensor<256x64xf32>, tensor<256xf32>
}
