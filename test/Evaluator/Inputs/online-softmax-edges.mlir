// Rule 4 at the edges (test/Evaluator/online-softmax.test): rows of one
// element, odd rows over fewer threads (masked thread instances), magnitudes
// of 1e4, rows partly and wholly masked to -inf, and the three shapes of the
// state (softmax, log-softmax, logsumexp). Each function is one hand-fused
// kernel.

func.func @softmax_odd(%x: tensor<6x37xf32>) -> tensor<6x37xf32> {
  %y = motif.kernel "softmax_odd" threads(32) -> tensor<6x37xf32> {
    %xm = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<6x37xf32>) -> tensor<6x37xf32> {
    ^bb0(%a0: f32):
      motif.yield %a0 : f32
    }
    %xr = motif.materialize %xm in register : tensor<6x37xf32>
    %m = motif.reduce <max> (%xr[i, j]) -> [i] over [block, thread] : (tensor<6x37xf32>) -> tensor<6xf32>
    %mr = motif.materialize %m in register : tensor<6xf32>
    %e = motif.map (%xr[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<6x37xf32>, tensor<6xf32>) -> tensor<6x37xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<6x37xf32>
    %l = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<6x37xf32>) -> tensor<6xf32>
    %lr = motif.materialize %l in register : tensor<6xf32>
    %o = motif.map (%er[i, j], %lr[i]) -> [i, j] over [block, thread] : (tensor<6x37xf32>, tensor<6xf32>) -> tensor<6x37xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %o in global : tensor<6x37xf32>
    motif.yield %g : tensor<6x37xf32>
  }
  return %y : tensor<6x37xf32>
}

func.func @softmax_one(%x: tensor<5x1xf32>) -> tensor<5x1xf32> {
  %y = motif.kernel "softmax_one" threads(32) -> tensor<5x1xf32> {
    %xm = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<5x1xf32>) -> tensor<5x1xf32> {
    ^bb0(%a0: f32):
      motif.yield %a0 : f32
    }
    %xr = motif.materialize %xm in register : tensor<5x1xf32>
    %m = motif.reduce <max> (%xr[i, j]) -> [i] over [block, thread] : (tensor<5x1xf32>) -> tensor<5xf32>
    %mr = motif.materialize %m in register : tensor<5xf32>
    %e = motif.map (%xr[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<5x1xf32>, tensor<5xf32>) -> tensor<5x1xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<5x1xf32>
    %l = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<5x1xf32>) -> tensor<5xf32>
    %lr = motif.materialize %l in register : tensor<5xf32>
    %o = motif.map (%er[i, j], %lr[i]) -> [i, j] over [block, thread] : (tensor<5x1xf32>, tensor<5xf32>) -> tensor<5x1xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %o in global : tensor<5x1xf32>
    motif.yield %g : tensor<5x1xf32>
  }
  return %y : tensor<5x1xf32>
}

func.func @softmax_large(%x: tensor<4x300xf32>) -> tensor<4x300xf32> {
  %y = motif.kernel "softmax_large" threads(64) -> tensor<4x300xf32> {
    %xm = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<4x300xf32>) -> tensor<4x300xf32> {
    ^bb0(%a0: f32):
      %c = arith.constant 1.0e4 : f32
      %r = arith.mulf %a0, %c : f32
      motif.yield %r : f32
    }
    %xr = motif.materialize %xm in register : tensor<4x300xf32>
    %m = motif.reduce <max> (%xr[i, j]) -> [i] over [block, thread] : (tensor<4x300xf32>) -> tensor<4xf32>
    %mr = motif.materialize %m in register : tensor<4xf32>
    %e = motif.map (%xr[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<4x300xf32>, tensor<4xf32>) -> tensor<4x300xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<4x300xf32>
    %l = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<4x300xf32>) -> tensor<4xf32>
    %lr = motif.materialize %l in register : tensor<4xf32>
    %o = motif.map (%er[i, j], %lr[i]) -> [i, j] over [block, thread] : (tensor<4x300xf32>, tensor<4xf32>) -> tensor<4x300xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %o in global : tensor<4x300xf32>
    motif.yield %g : tensor<4x300xf32>
  }
  return %y : tensor<4x300xf32>
}

func.func @softmax_masked(%x: tensor<12x64xf32>, %z: tensor<12xf32>) -> tensor<12x64xf32> {
  %y = motif.kernel "softmax_masked" threads(32) -> tensor<12x64xf32> {
    %xm = motif.map (%x[i, j], %z[i]) -> [i, j] over [block, thread] : (tensor<12x64xf32>, tensor<12xf32>) -> tensor<12x64xf32> {
    ^bb0(%a0: f32, %a1: f32):
      %ninf = arith.constant 0xFF800000 : f32
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %rowm = arith.cmpf ogt, %a1, %half : f32
      %elm = arith.cmpf ogt, %a0, %one : f32
      %any = arith.ori %rowm, %elm : i1
      %r = arith.select %any, %ninf, %a0 : f32
      motif.yield %r : f32
    }
    %xr = motif.materialize %xm in register : tensor<12x64xf32>
    %m = motif.reduce <max> (%xr[i, j]) -> [i] over [block, thread] : (tensor<12x64xf32>) -> tensor<12xf32>
    %mr = motif.materialize %m in register : tensor<12xf32>
    %e = motif.map (%xr[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<12x64xf32>, tensor<12xf32>) -> tensor<12x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<12x64xf32>
    %l = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<12x64xf32>) -> tensor<12xf32>
    %lr = motif.materialize %l in register : tensor<12xf32>
    %o = motif.map (%er[i, j], %lr[i]) -> [i, j] over [block, thread] : (tensor<12x64xf32>, tensor<12xf32>) -> tensor<12x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %o in global : tensor<12x64xf32>
    motif.yield %g : tensor<12x64xf32>
  }
  return %y : tensor<12x64xf32>
}

func.func @log_softmax_masked(%x: tensor<12x64xf32>) -> tensor<12x64xf32> {
  %y = motif.kernel "log_softmax_masked" threads(32) -> tensor<12x64xf32> {
    %xm = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<12x64xf32>) -> tensor<12x64xf32> {
    ^bb0(%a0: f32):
      %ninf = arith.constant 0xFF800000 : f32
      %one = arith.constant 1.0 : f32
      %elm = arith.cmpf ogt, %a0, %one : f32
      %r = arith.select %elm, %ninf, %a0 : f32
      motif.yield %r : f32
    }
    %xr = motif.materialize %xm in register : tensor<12x64xf32>
    %m = motif.reduce <max> (%xr[i, j]) -> [i] over [block, thread] : (tensor<12x64xf32>) -> tensor<12xf32>
    %mr = motif.materialize %m in register : tensor<12xf32>
    %e = motif.map (%xr[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<12x64xf32>, tensor<12xf32>) -> tensor<12x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<12x64xf32>
    %l = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<12x64xf32>) -> tensor<12xf32>
    %lr = motif.materialize %l in register : tensor<12xf32>
    %o = motif.map (%xr[i, j], %mr[i], %lr[i]) -> [i, j] over [block, thread] : (tensor<12x64xf32>, tensor<12xf32>, tensor<12xf32>) -> tensor<12x64xf32> {
    ^bb0(%a: f32, %b: f32, %c: f32):
      %d = arith.subf %a, %b : f32
      %g = math.log %c : f32
      %r = arith.subf %d, %g : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %o in global : tensor<12x64xf32>
    motif.yield %g : tensor<12x64xf32>
  }
  return %y : tensor<12x64xf32>
}

func.func @logsumexp(%x: tensor<16x100xf32>) -> tensor<16xf32> {
  %y = motif.kernel "logsumexp" threads(64) -> tensor<16xf32> {
    %xm = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<16x100xf32>) -> tensor<16x100xf32> {
    ^bb0(%a0: f32):
      motif.yield %a0 : f32
    }
    %xr = motif.materialize %xm in register : tensor<16x100xf32>
    %m = motif.reduce <max> (%xr[i, j]) -> [i] over [block, thread] : (tensor<16x100xf32>) -> tensor<16xf32>
    %mr = motif.materialize %m in register : tensor<16xf32>
    %e = motif.map (%xr[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<16x100xf32>, tensor<16xf32>) -> tensor<16x100xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<16x100xf32>
    %l = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<16x100xf32>) -> tensor<16xf32>
    %lr = motif.materialize %l in register : tensor<16xf32>
    %o = motif.map (%mr[i], %lr[i]) -> [i] over [block] : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32> {
    ^bb0(%b: f32, %c: f32):
      %g = math.log %c : f32
      %r = arith.addf %b, %g : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %o in global : tensor<16xf32>
    motif.yield %g : tensor<16xf32>
  }
  return %y : tensor<16xf32>
}
