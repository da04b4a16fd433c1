// motif-dims: H=2 S=256 D=64
// motif-derived: 0.125=1/sqrt(D)
// Multi-head attention (examples/mha.mlir), the schedule of
// examples/attention_tiled.mlir with the head dim h as an extra, untiled
// `block` dim in every motif: each block works on one head (its index is the
// block's head coordinate; the staged tiles are that head's boxes). Three
// kernels, S and P in global memory:
//   scores: a 128x128 tile of S = Q.K^T per block and head, 8x8 per thread,
//           D in steps of 32; the 1/sqrt(D) scale on the registers;
//   softmax: one row of one head per block, in registers (max, exp, sum,
//           divide);
//   P.V:    a 32x64 tile of Y per block and head, 2x4 per thread, keys in
//           steps of 256 (98,432 B of staged tiles: dynamic shared memory).
//           With H heads P.V has H*S/32 blocks (single-head attention: S/32).
func.func @mha_tiled(%q: tensor<2x256x64xf32>, %k: tensor<2x256x64xf32>,
                     %v: tensor<2x256x64xf32>) -> tensor<2x256x64xf32> {
  %s = motif.kernel "attn_scores" threads(256) -> tensor<2x256x256xf32> {
    %qs = motif.materialize %q in shared : tensor<2x256x64xf32>
    %ks = motif.materialize %k in shared : tensor<2x256x64xf32>
    %qk = motif.contract (%qs[h, i, d], %ks[h, j, d]) -> [h, i, j]
           over [block, block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4), seq x seq(32)]
           : (tensor<2x256x64xf32>, tensor<2x256x64xf32>) -> tensor<2x256x256xf32>
    %r = motif.materialize %qk in register : tensor<2x256x256xf32>
    %sc = motif.map (%r[h, i, j]) -> [h, i, j]
           over [block, block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4)]
           : (tensor<2x256x256xf32>) -> tensor<2x256x256xf32> {
    ^bb0(%a: f32):
      %scale = arith.constant 0.125 : f32
      %o = arith.mulf %a, %scale : f32
      motif.yield %o : f32
    }
    %g = motif.materialize %sc in global : tensor<2x256x256xf32>
    motif.yield %g : tensor<2x256x256xf32>
  }
  %p = motif.kernel "attn_softmax" threads(256) -> tensor<2x256x256xf32> {
    %m = motif.reduce <max> (%s[h, i, j]) -> [h, i] over [block, block, thread]
           : (tensor<2x256x256xf32>) -> tensor<2x256xf32>
    %mr = motif.materialize %m in register : tensor<2x256xf32>
    %e = motif.map (%s[h, i, j], %mr[h, i]) -> [h, i, j] over [block, block, thread]
           : (tensor<2x256x256xf32>, tensor<2x256xf32>) -> tensor<2x256x256xf32> {
    ^bb0(%a: f32, %mx: f32):
      %d = arith.subf %a, %mx : f32
      %o = math.exp %d : f32
      motif.yield %o : f32
    }
    %er = motif.materialize %e in register : tensor<2x256x256xf32>
    %l = motif.reduce <add> (%er[h, i, j]) -> [h, i] over [block, block, thread]
           : (tensor<2x256x256xf32>) -> tensor<2x256xf32>
    %lr = motif.materialize %l in register : tensor<2x256xf32>
    %pr = motif.map (%er[h, i, j], %lr[h, i]) -> [h, i, j] over [block, block, thread]
           : (tensor<2x256x256xf32>, tensor<2x256xf32>) -> tensor<2x256x256xf32> {
    ^bb0(%x: f32, %sum: f32):
      %o = arith.divf %x, %sum : f32
      motif.yield %o : f32
    }
    %g = motif.materialize %pr in global : tensor<2x256x256xf32>
    motif.yield %g : tensor<2x256x256xf32>
  }
  %y = motif.kernel "attn_pv" threads(256) -> tensor<2x256x64xf32> {
    %ps = motif.materialize %p in shared : tensor<2x256x256xf32>
    %vs = motif.materialize %v in shared : tensor<2x256x64xf32>
    %o = motif.contract (%ps[h, i, j], %vs[h, j, e]) -> [h, i, e]
           over [block, block x thread(16) x seq(2), thread(16) x seq(4), seq x seq(256)]
           : (tensor<2x256x256xf32>, tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
    %g = motif.materialize %o in global : tensor<2x256x64xf32>
    motif.yield %g : tensor<2x256x64xf32>
  }
  return %y : tensor<2x256x64xf32>
}
