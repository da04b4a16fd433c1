// motif-dims: S=256 D=64
// motif-derived: 0.125=1/sqrt(D)
// Single-head attention (examples/attention.mlir), another schedule: three
// kernels, S and P still in global memory (the flash form, which keeps them
// on chip, is the online-softmax rewrite's). The two contractions are tiled
// and register-blocked over staged operand tiles (examples/gemm.mlir):
//   scores: a 128x128 tile of S = Q.K^T per block, 8x8 per thread, D in
//           steps of 32; the 1/sqrt(D) scale on the registers;
//   softmax: one row per block, in registers (max, exp, sum, divide);
//   P.V:    a 32x64 tile of Y per block, 2x4 per thread, keys in steps of 256
//           (P.V has only S/32 blocks: long steps halve its barriers; the
//           98,432 B of staged tiles go to dynamic shared memory).
func.func @attention_tiled(%q: tensor<256x64xf32>, %k: tensor<256x64xf32>,
                           %v: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %s = motif.kernel "attn_scores" threads(256) -> tensor<256x256xf32> {
    %qs = motif.materialize %q in shared : tensor<256x64xf32>
    %ks = motif.materialize %k in shared : tensor<256x64xf32>
    %qk = motif.contract (%qs[i, d], %ks[j, d]) -> [i, j]
           over [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4), seq x seq(32)]
           : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x256xf32>
    %r = motif.materialize %qk in register : tensor<256x256xf32>
    %sc = motif.map (%r[i, j]) -> [i, j]
           over [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4)]
           : (tensor<256x256xf32>) -> tensor<256x256xf32> {
    ^bb0(%a: f32):
      %scale = arith.constant 0.125 : f32
      %o = arith.mulf %a, %scale : f32
      motif.yield %o : f32
    }
    %g = motif.materialize %sc in global : tensor<256x256xf32>
    motif.yield %g : tensor<256x256xf32>
  }
  %p = motif.kernel "attn_softmax" threads(256) -> tensor<256x256xf32> {
    %m = motif.reduce <max> (%s[i, j]) -> [i] over [block, thread]
           : (tensor<256x256xf32>) -> tensor<256xf32>
    %mr = motif.materialize %m in register : tensor<256xf32>
    %e = motif.map (%s[i, j], %mr[i]) -> [i, j] over [block, thread]
           : (tensor<256x256xf32>, tensor<256xf32>) -> tensor<256x256xf32> {
    ^bb0(%a: f32, %mx: f32):
      %d = arith.subf %a, %mx : f32
      %o = math.exp %d : f32
      motif.yield %o : f32
    }
    %er = motif.materialize %e in register : tensor<256x256xf32>
    %l = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread]
           : (tensor<256x256xf32>) -> tensor<256xf32>
    %lr = motif.materialize %l in register : tensor<256xf32>
    %pr = motif.map (%er[i, j], %lr[i]) -> [i, j] over [block, thread]
           : (tensor<256x256xf32>, tensor<256xf32>) -> tensor<256x256xf32> {
    ^bb0(%x: f32, %sum: f32):
      %o = arith.divf %x, %sum : f32
      motif.yield %o : f32
    }
    %g = motif.materialize %pr in global : tensor<256x256xf32>
    motif.yield %g : tensor<256x256xf32>
  }
  %y = motif.kernel "attn_pv" threads(256) -> tensor<256x64xf32> {
    %ps = motif.materialize %p in shared : tensor<256x256xf32>
    %vs = motif.materialize %v in shared : tensor<256x64xf32>
    %o = motif.contract (%ps[i, j], %vs[j, e]) -> [i, e]
           over [block x thread(16) x seq(2), thread(16) x seq(4), seq x seq(256)]
           : (tensor<256x256xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %g = motif.materialize %o in global : tensor<256x64xf32>
    motif.yield %g : tensor<256x64xf32>
  }
  return %y : tensor<256x64xf32>
}
