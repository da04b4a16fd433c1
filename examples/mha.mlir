// motif-dims: H=2 S=256 D=64
// motif-derived: 0.125=1/sqrt(D)
// Multi-head attention, unfused: examples/attention.mlir with a leading head
// dim h, mapped to `block` in every motif (each block works on one head).
// Per head: S = Q.K^T, S * 1/sqrt(D), softmax over keys (max, exp, sum,
// divide), Y = P.V. S and P (and the row statistics) cross kernel boundaries
// in global memory: Theta(H S^2) bytes of traffic.
func.func @mha(%q: tensor<2x256x64xf32>, %k: tensor<2x256x64xf32>,
             %v: tensor<2x256x64xf32>) -> tensor<2x256x64xf32> {
  %s = motif.kernel "attn_scores" threads(256) -> tensor<2x256x256xf32> {
    %qk = motif.contract (%q[h, i, d], %k[h, j, d]) -> [h, i, j] over [block, block, thread, seq]
           : (tensor<2x256x64xf32>, tensor<2x256x64xf32>) -> tensor<2x256x256xf32>
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
  %p = motif.kernel "attn_probs" threads(256) -> tensor<2x256x256xf32> {
    %pr = motif.map (%exp[h, i, j], %sum[h, i]) -> [h, i, j] over [block, block, thread]
           : (tensor<2x256x256xf32>, tensor<2x256xf32>) -> tensor<2x256x256xf32> {
    ^bb0(%e: f32, %l: f32):
      %r = arith.divf %e, %l : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %pr in global : tensor<2x256x256xf32>
    motif.yield %g : tensor<2x256x256xf32>
  }
  // P.V: the output dim on lanes (two per lane), the keys split across the
  // eight warps and summed through shared memory: all 256 threads work.
  %y = motif.kernel "attn_pv" threads(256) -> tensor<2x256x64xf32> {
    %o = motif.contract (%p[h, i, j], %v[h, j, e]) -> [h, i, e] over [block, block, lane, warp]
           : (tensor<2x256x256xf32>, tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
    %g = motif.materialize %o in global : tensor<2x256x64xf32>
    motif.yield %g : tensor<2x256x64xf32>
  }
  return %y : tensor<2x256x64xf32>
}
