// RUN: motif-opt %s -split-input-file --convert-motif-to-gpu -verify-diagnostics
// Residency checks over tile nests (docs/schedule.md, "Tiles"): registers need
// the same nest (and thread digits) on both sides; shared memory needs each
// block to hold the tile it reads.

func.func @register_other_nest(%x: tensor<128xf32>) -> tensor<128xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<128xf32> {
    %a = motif.map (%x[i]) -> [i] over [block(2) x thread(32) x seq(2)] : (tensor<128xf32>) -> tensor<128xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    // expected-error @+1 {{keeps the result of 'motif.map' in register, but 'motif.map' reads it (operand #0) in same block: dim 0 is computed at 'block(2) x thread(32) x seq(2)' but read at 'block(2) x seq(2) x thread(32)'; it needs shared}}
    %r = motif.materialize %a in register : tensor<128xf32>
    %b = motif.map (%r[i]) -> [i] over [block(2) x seq(2) x thread(32)] : (tensor<128xf32>) -> tensor<128xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %g = motif.materialize %b in global : tensor<128xf32>
    motif.yield %g : tensor<128xf32>
  }
  return %y : tensor<128xf32>
}

// -----

func.func @shared_transposed_grid(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64x64xf32> {
    %a = motif.map (%x[i, j]) -> [i, j] over [block(2) x seq(32), block(2) x thread(32)] : (tensor<64x64xf32>) -> tensor<64x64xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    // expected-error @+1 {{keeps the result of 'motif.map' in shared, but 'motif.transpose' reads it (operand #0) in other blocks: producer and consumer spread the value over the grid differently ([dim 0 in tiles of 32 per block, dim 1 in tiles of 32 per block] vs [dim 1 in tiles of 32 per block, dim 0 in tiles of 32 per block]); it needs global (a kernel boundary)}}
    %s = motif.materialize %a in shared : tensor<64x64xf32>
    %t = motif.transpose %s[j, i] -> [i, j] over [block(2) x seq(32), block(2) x thread(32)] : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %g = motif.materialize %t in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %y : tensor<64x64xf32>
}

// -----

// Legal: the same block tile, read at another thread split (shared).
func.func @shared_same_tile(%x: tensor<128xf32>) -> tensor<128xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<128xf32> {
    %a = motif.map (%x[i]) -> [i] over [block(2) x thread(32) x seq(2)] : (tensor<128xf32>) -> tensor<128xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %s = motif.materialize %a in shared : tensor<128xf32>
    %b = motif.map (%s[i]) -> [i] over [block(2) x seq(2) x thread(32)] : (tensor<128xf32>) -> tensor<128xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %g = motif.materialize %b in global : tensor<128xf32>
    motif.yield %g : tensor<128xf32>
  }
  return %y : tensor<128xf32>
}
