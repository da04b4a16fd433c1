// Reference programs for motifs.mlir: each function there computes the same
// thing through a different motif (matched by name).

// Sum of -x with the built-in <add> combiner.
func.func @combiner(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8xf32> {
    %n = motif.map (%x[i, j]) -> [i, j] over [block, seq] : (tensor<8x16xf32>) -> tensor<8x16xf32> {
    ^bb0(%a: f32):
      %r = arith.negf %a : f32
      motif.yield %r : f32
    }
    %nr = motif.materialize %n in register : tensor<8x16xf32>
    %s = motif.reduce <add> (%nr[i, j]) -> [i] over [block, seq] : (tensor<8x16xf32>) -> tensor<8xf32>
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}

// q.k^T as a contraction (fused multiply-add chain).
func.func @contract(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>) -> tensor<4x6xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4x6xf32> {
    %s = motif.contract (%q[i, d], %k[j, d]) -> [i, j] over [block, thread, seq] : (tensor<4x8xf32>, tensor<6x8xf32>) -> tensor<4x6xf32>
    %g = motif.materialize %s in global : tensor<4x6xf32>
    motif.yield %g : tensor<4x6xf32>
  }
  return %y : tensor<4x6xf32>
}

// x * w^T with the transposed read folded into the map's indexing.
func.func @transpose(%x: tensor<8x4xf32>, %w: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8x4xf32> {
    %z = motif.map (%x[i, j], %w[j, i]) -> [i, j] over [block, thread] : (tensor<8x4xf32>, tensor<4x8xf32>) -> tensor<8x4xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.mulf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %z in global : tensor<8x4xf32>
    motif.yield %g : tensor<8x4xf32>
  }
  return %y : tensor<8x4xf32>
}

// x + b with b broadcast by the map's indexing.
func.func @broadcast(%x: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<8x4xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8x4xf32> {
    %z = motif.map (%x[i, j], %b[j]) -> [i, j] over [block, thread] : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32> {
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %z in global : tensor<8x4xf32>
    motif.yield %g : tensor<8x4xf32>
  }
  return %y : tensor<8x4xf32>
}

// Row max and sum of exp(x - max), in two passes.
func.func @online(%x: tensor<8x32xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %m, %l = motif.kernel "k" threads(32) -> tensor<8xf32>, tensor<8xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<8x32xf32>) -> tensor<8xf32>
    %mr = motif.materialize %m in register : tensor<8xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<8x32xf32>, tensor<8xf32>) -> tensor<8x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<8x32xf32>
    %l = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<8x32xf32>) -> tensor<8xf32>
    %mg = motif.materialize %m in global : tensor<8xf32>
    %lg = motif.materialize %l in global : tensor<8xf32>
    motif.yield %mg, %lg : tensor<8xf32>, tensor<8xf32>
  }
  return %m, %l : tensor<8xf32>, tensor<8xf32>
}

// Every row of softmax(x), summed: 1 up to rounding.
func.func @rows_sum_to_one(%x: tensor<8x32xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<8x32xf32>) -> tensor<8xf32>
    %mr = motif.materialize %m in register : tensor<8xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread] : (tensor<8x32xf32>, tensor<8xf32>) -> tensor<8x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<8x32xf32>
    %l = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread] : (tensor<8x32xf32>) -> tensor<8xf32>
    %lr = motif.materialize %l in register : tensor<8xf32>
    %p = motif.map (%er[i, j], %lr[i]) -> [i, j] over [block, thread] : (tensor<8x32xf32>, tensor<8xf32>) -> tensor<8x32xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %pr = motif.materialize %p in register : tensor<8x32xf32>
    %s = motif.reduce <add> (%pr[i, j]) -> [i] over [block, thread] : (tensor<8x32xf32>) -> tensor<8xf32>
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}
