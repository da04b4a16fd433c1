// motif-dims: D=4 N_KEYS=4 DV=4
// Seed 000's toy attention: D = 4, N_KEYS = 4, DV = 4, scale = 0.5.
//   score_j = (q . k_j) * 0.5,  p = softmax(score),  y = sum_j p_j v_j
//
// @toy_attention and @toy_attention_warps are the unfused programs (every
// intermediate in global memory). --fuse-materialization turns the first
// (one thread does everything) into the register form and the second
// (score j computed by warp j, consumed by thread 0) into the shared form.
// @toy_attention_register / _shared / _global are the seed's three
// residencies written by hand.

func.func @toy_attention(%q: tensor<4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4xf32> {
  %scores = motif.kernel "scores" threads(1) -> tensor<4xf32> {
    %d = motif.contract (%q[c], %k[j, c]) -> [j] over [seq, seq]
           : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %scores_g = motif.materialize %d in global : tensor<4xf32>
    motif.yield %scores_g : tensor<4xf32>
  }
  %scaled = motif.kernel "scaled" threads(1) -> tensor<4xf32> {
    %t = motif.map (%scores[j]) -> [j] over [seq] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %half = arith.constant 0.5 : f32
      %r = arith.mulf %a, %half : f32
      motif.yield %r : f32
    }
    %scaled_g = motif.materialize %t in global : tensor<4xf32>
    motif.yield %scaled_g : tensor<4xf32>
  }
  %rowmax = motif.kernel "rowmax" threads(1) -> tensor<f32> {
    %t = motif.reduce <max> (%scaled[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %rowmax_g = motif.materialize %t in global : tensor<f32>
    motif.yield %rowmax_g : tensor<f32>
  }
  %expd = motif.kernel "expd" threads(1) -> tensor<4xf32> {
    %t = motif.map (%scaled[j], %rowmax[]) -> [j] over [seq] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %x = arith.subf %a, %b : f32
      %r = math.exp %x : f32
      motif.yield %r : f32
    }
    %expd_g = motif.materialize %t in global : tensor<4xf32>
    motif.yield %expd_g : tensor<4xf32>
  }
  %denom = motif.kernel "denom" threads(1) -> tensor<f32> {
    %t = motif.reduce <add> (%expd[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %denom_g = motif.materialize %t in global : tensor<f32>
    motif.yield %denom_g : tensor<f32>
  }
  %probs = motif.kernel "probs" threads(1) -> tensor<4xf32> {
    %t = motif.map (%expd[j], %denom[]) -> [j] over [seq] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %probs_g = motif.materialize %t in global : tensor<4xf32>
    motif.yield %probs_g : tensor<4xf32>
  }
  %out = motif.kernel "out" threads(1) -> tensor<4xf32> {
    %t = motif.contract (%probs[j], %v[j, c]) -> [c] over [seq, seq]
           : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %out_g = motif.materialize %t in global : tensor<4xf32>
    motif.yield %out_g : tensor<4xf32>
  }
  return %out : tensor<4xf32>
}

func.func @toy_attention_warps(%q: tensor<4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4xf32> {
  %scores = motif.kernel "scores" threads(128) -> tensor<4xf32> {
    %d = motif.contract (%q[c], %k[j, c]) -> [j] over [warp, seq]
           : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %scores_g = motif.materialize %d in global : tensor<4xf32>
    motif.yield %scores_g : tensor<4xf32>
  }
  %scaled = motif.kernel "scaled" threads(128) -> tensor<4xf32> {
    %t = motif.map (%scores[j]) -> [j] over [warp] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %half = arith.constant 0.5 : f32
      %r = arith.mulf %a, %half : f32
      motif.yield %r : f32
    }
    %scaled_g = motif.materialize %t in global : tensor<4xf32>
    motif.yield %scaled_g : tensor<4xf32>
  }
  %rowmax = motif.kernel "rowmax" threads(128) -> tensor<f32> {
    %t = motif.reduce <max> (%scaled[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %rowmax_g = motif.materialize %t in global : tensor<f32>
    motif.yield %rowmax_g : tensor<f32>
  }
  %expd = motif.kernel "expd" threads(128) -> tensor<4xf32> {
    %t = motif.map (%scaled[j], %rowmax[]) -> [j] over [seq] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %x = arith.subf %a, %b : f32
      %r = math.exp %x : f32
      motif.yield %r : f32
    }
    %expd_g = motif.materialize %t in global : tensor<4xf32>
    motif.yield %expd_g : tensor<4xf32>
  }
  %denom = motif.kernel "denom" threads(128) -> tensor<f32> {
    %t = motif.reduce <add> (%expd[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %denom_g = motif.materialize %t in global : tensor<f32>
    motif.yield %denom_g : tensor<f32>
  }
  %probs = motif.kernel "probs" threads(128) -> tensor<4xf32> {
    %t = motif.map (%expd[j], %denom[]) -> [j] over [seq] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %probs_g = motif.materialize %t in global : tensor<4xf32>
    motif.yield %probs_g : tensor<4xf32>
  }
  %out = motif.kernel "out" threads(128) -> tensor<4xf32> {
    %t = motif.contract (%probs[j], %v[j, c]) -> [c] over [seq, seq]
           : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %out_g = motif.materialize %t in global : tensor<4xf32>
    motif.yield %out_g : tensor<4xf32>
  }
  return %out : tensor<4xf32>
}

func.func @toy_attention_register(%q: tensor<4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "toy_attention_register" threads(1) -> tensor<4xf32> {
    %d = motif.contract (%q[c], %k[j, c]) -> [j] over [seq, seq]
           : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %dr = motif.materialize %d in register : tensor<4xf32>
    %sc = motif.map (%dr[j]) -> [j] over [seq] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %half = arith.constant 0.5 : f32
      %r = arith.mulf %a, %half : f32
      motif.yield %r : f32
    }
    %scr = motif.materialize %sc in register : tensor<4xf32>
    %m = motif.reduce <max> (%scr[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %mr = motif.materialize %m in register : tensor<f32>
    %e = motif.map (%scr[j], %mr[]) -> [j] over [seq] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.subf %a, %b : f32
      %r = math.exp %t : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<4xf32>
    %l = motif.reduce <add> (%er[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %lr = motif.materialize %l in register : tensor<f32>
    %p = motif.map (%er[j], %lr[]) -> [j] over [seq] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %pr = motif.materialize %p in register : tensor<4xf32>
    %o = motif.contract (%pr[j], %v[j, c]) -> [c] over [seq, seq]
           : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %g = motif.materialize %o in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

func.func @toy_attention_shared(%q: tensor<4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "toy_attention_shared" threads(128) -> tensor<4xf32> {
    %d = motif.contract (%q[c], %k[j, c]) -> [j] over [warp, seq]
           : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %dr = motif.materialize %d in register : tensor<4xf32>
    %sc = motif.map (%dr[j]) -> [j] over [warp] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %half = arith.constant 0.5 : f32
      %r = arith.mulf %a, %half : f32
      motif.yield %r : f32
    }
    %scr = motif.materialize %sc in shared : tensor<4xf32>
    %m = motif.reduce <max> (%scr[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %mr = motif.materialize %m in register : tensor<f32>
    %e = motif.map (%scr[j], %mr[]) -> [j] over [seq] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.subf %a, %b : f32
      %r = math.exp %t : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<4xf32>
    %l = motif.reduce <add> (%er[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %lr = motif.materialize %l in register : tensor<f32>
    %p = motif.map (%er[j], %lr[]) -> [j] over [seq] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %pr = motif.materialize %p in register : tensor<4xf32>
    %o = motif.contract (%pr[j], %v[j, c]) -> [c] over [seq, seq]
           : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %g = motif.materialize %o in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

func.func @toy_attention_global(%q: tensor<4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4xf32> {
  %s = motif.kernel "toy_scores" threads(1) -> tensor<4xf32> {
    %d = motif.contract (%q[c], %k[j, c]) -> [j] over [seq, seq]
           : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %g = motif.materialize %d in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %y = motif.kernel "toy_softmax_pv" threads(1) -> tensor<4xf32> {
    %sc = motif.map (%s[j]) -> [j] over [seq] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %half = arith.constant 0.5 : f32
      %r = arith.mulf %a, %half : f32
      motif.yield %r : f32
    }
    %scr = motif.materialize %sc in register : tensor<4xf32>
    %m = motif.reduce <max> (%scr[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %mr = motif.materialize %m in register : tensor<f32>
    %e = motif.map (%scr[j], %mr[]) -> [j] over [seq] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.subf %a, %b : f32
      %r = math.exp %t : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<4xf32>
    %l = motif.reduce <add> (%er[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
    %lr = motif.materialize %l in register : tensor<f32>
    %p = motif.map (%er[j], %lr[]) -> [j] over [seq] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %pr = motif.materialize %p in register : tensor<4xf32>
    %o = motif.contract (%pr[j], %v[j, c]) -> [c] over [seq, seq]
           : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %g = motif.materialize %o in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}
