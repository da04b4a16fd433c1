// RUN: motif-opt %s -split-input-file --convert-motif-to-gpu -verify-diagnostics
// The lowering checks every materialization against the schedule model
// before emitting anything (the same check --fuse-materialization makes), and
// refuses what it would otherwise compile into a wrong kernel.

// ../shared/repro/wrong_shared_read_by_other_blocks.mlir: block b computes
// row b, the transpose reads column b in block b (relative error 1.37 on the
// GPU before the check).
func.func @shared_read_by_other_blocks(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<64x64xf32> {
    %t = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x64xf32>) -> tensor<64x64xf32> {
    ^bb0(%a: f32):
      %c = arith.constant 2.0 : f32
      %r = arith.mulf %a, %c : f32
      motif.yield %r : f32
    }
    // expected-error @+1 {{keeps the result of 'motif.map' in shared, but 'motif.transpose' reads it (operand #0) in other blocks: producer and consumer spread the value over the grid differently ([dim 0 per block] vs [dim 1 per block]); it needs global (a kernel boundary)}}
    %ts = motif.materialize %t in shared : tensor<64x64xf32>
    %u = motif.transpose %ts[j, i] -> [i, j] over [block, thread] : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %g = motif.materialize %u in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %y : tensor<64x64xf32>
}

// -----

// The same in registers, read by other threads of the block.
func.func @register_read_by_other_threads(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<8x64xf32> {
    %t = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{keeps the result of 'motif.map' in register, but 'motif.reduce' reads it (operand #0) in same block: dim 1 is computed at 'thread' but read at 'seq'; it needs shared}}
    %tr = motif.materialize %t in register : tensor<8x64xf32>
    %s = motif.reduce <add> (%tr[i, j]) -> [i] over [block, seq] : (tensor<8x64xf32>) -> tensor<8xf32>
    %sr = motif.materialize %s in register : tensor<8xf32>
    %u = motif.map (%x[i, j], %sr[i]) -> [i, j] over [block, thread] : (tensor<8x64xf32>, tensor<8xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %u in global : tensor<8x64xf32>
    motif.yield %g : tensor<8x64xf32>
  }
  return %y : tensor<8x64xf32>
}

// -----

// 'acc - x' folds fine in one thread but is not associative: a tree over
// threads computes another function (seen on the GPU).
func.func @lawless_combiner(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<8xf32> {
    // expected-error @+1 {{reduces across threads, but its combiner is not commutative: combine(a, b) =}}
    %s = motif.reduce (%x[i, j]) -> [i] init [0.0 : f32] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32> combiner {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.subf %acc, %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}

// -----

// Commutative but not associative: the average of two.
func.func @nonassociative_combiner(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<8xf32> {
    // expected-error @+1 {{its combiner is not associative: combine(combine(a, b), c) =}}
    %s = motif.reduce (%x[i, j]) -> [i] init [0.0 : f32] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32> combiner {
    ^bb0(%acc: f32, %v: f32):
      %h = arith.constant 0.5 : f32
      %t = arith.addf %acc, %v : f32
      %r = arith.mulf %t, %h : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}

// -----

// Associative and commutative, but 'init' is not the identity of max.
func.func @init_not_identity(%x: tensor<8x64xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<8xf32> {
    // expected-error @+1 {{its combiner does not have 'init' as its identity: combine(init, a) =}}
    %s = motif.reduce (%x[i, j]) -> [i] init [1.0 : f32] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32> combiner {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.addf %acc, %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}

// -----

// A kernel the lowering would not reach was skipped with exit 0.
func.func @kernel_in_a_loop(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x) -> tensor<4xf32> {
    // expected-error @+1 {{'motif.kernel' op is nested in 'scf.for': the lowering launches kernels only from the body of a func.func}}
    %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
      %m = motif.map (%acc[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
      ^bb0(%a: f32):
        motif.yield %a : f32
      }
      %g = motif.materialize %m in global : tensor<4xf32>
      motif.yield %g : tensor<4xf32>
    }
    scf.yield %y : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Two kernels of one name would give two buffers one name (k.out0).
func.func @duplicate_kernel_names(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-note @+1 {{the other one}}
  %a = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  // expected-error @+1 {{is named 'k' like another kernel of @duplicate_kernel_names: kernel names must be unique in a function}}
  %b = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%a[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %b : tensor<4xf32>
}

// -----

// A recomputed value (rule 6) read by a contraction: its operand tiles are not
// read element by element, so no reader could compute it.
func.func @recompute_read_by_contraction(%a: tensor<16x16xf32>, %b: tensor<16x16xf32>) -> tensor<16x16xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<16x16xf32> {
    %t = motif.map (%a[i, j]) -> [i, j] over [block, thread] : (tensor<16x16xf32>) -> tensor<16x16xf32> {
    ^bb0(%x: f32):
      %r = math.exp %x : f32
      motif.yield %r : f32
    }
    // expected-error @+1 {{recomputes the result of 'motif.map', but 'motif.contract' reads its operands as tiles, not element by element: keep the value in registers or shared memory}}
    %tr = motif.materialize %t in register recompute : tensor<16x16xf32>
    %c = motif.contract (%tr[i, k], %b[k, j]) -> [i, j] over [block, thread, seq] : (tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
    %g = motif.materialize %c in global : tensor<16x16xf32>
    motif.yield %g : tensor<16x16xf32>
  }
  return %y : tensor<16x16xf32>
}
