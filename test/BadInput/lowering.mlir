// Programs the verifier accepts but the schedule model refuses when
// --convert-motif-to-gpu checks every materialization, reduction and kernel
// before emitting anything: residencies the threads cannot honour,
// reductions across blocks, kernels outside a function body, combiners that
// a tree over threads would compute differently, and sizes the lowering
// cannot hold. Each is a located error and a non-zero exit.
// RUN: motif-opt %s -split-input-file --convert-motif-to-gpu -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s --convert-motif-to-gpu | FileCheck %s --check-prefix=EACH
// EACH: 23 cases, 23 refused properly

// Block b computes row b; the consumer reads column b in block b.
func.func @shared_read_transposed_by_other_blocks(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<64x64xf32> {
    %t = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x64xf32>) -> tensor<64x64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{keeps the result of 'motif.map' in shared, but 'motif.map' reads it (operand #0) in other blocks: producer and consumer spread the value over the grid differently ([dim 0 per block] vs [dim 1 per block]); it needs global (a kernel boundary)}}
    %ts = motif.materialize %t in shared : tensor<64x64xf32>
    %u = motif.map (%ts[j, i]) -> [i, j] over [block, thread] : (tensor<64x64xf32>) -> tensor<64x64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %u in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %y : tensor<64x64xf32>
}

// -----

// The same with sequential rows and a transpose.
func.func @shared_seq_rows_transposed(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8x8xf32> {
    %t = motif.map (%x[i, j]) -> [i, j] over [block, seq] : (tensor<8x8xf32>) -> tensor<8x8xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{keeps the result of 'motif.map' in shared, but 'motif.transpose' reads it (operand #0) in other blocks}}
    %ts = motif.materialize %t in shared : tensor<8x8xf32>
    %u = motif.transpose %ts[i, j] -> [j, i] over [block, seq] : (tensor<8x8xf32>) -> tensor<8x8xf32>
    %g = motif.materialize %u in global : tensor<8x8xf32>
    motif.yield %g : tensor<8x8xf32>
  }
  return %y : tensor<8x8xf32>
}

// -----

// Row sums live one per block; the consumer wants every sum in every block.
func.func @reduction_result_read_by_other_blocks(%x: tensor<8x64xf32>, %z: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<8x8xf32> {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32>
    // expected-error @+1 {{keeps the result of 'motif.reduce' in shared, but 'motif.map' reads it (operand #1) in other blocks: every block of the consumer's block dim #0 reads the whole value; it needs global (a kernel boundary)}}
    %ss = motif.materialize %s in shared : tensor<8xf32>
    %m = motif.map (%z[i, j], %ss[j]) -> [i, j] over [block, thread] : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8x8xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.mulf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<8x8xf32>
    motif.yield %g : tensor<8x8xf32>
  }
  return %y : tensor<8x8xf32>
}

// -----

// One row per warp against one row per block, on the same 64-block grid.
func.func @register_block_warp_vs_block(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64x32xf32> {
    %t = motif.map (%x[i, j]) -> [i, j] over [block.warp, lane] : (tensor<64x32xf32>) -> tensor<64x32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{keeps the result of 'motif.map' in register, but 'motif.map' reads it (operand #0) in other blocks: producer and consumer spread the value over the grid differently ([dim 0 per warp] vs [dim 0 per block]); it needs global (a kernel boundary)}}
    %tr = motif.materialize %t in register : tensor<64x32xf32>
    %u = motif.map (%tr[i, j]) -> [i, j] over [block, thread] : (tensor<64x32xf32>) -> tensor<64x32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %u in global : tensor<64x32xf32>
    motif.yield %g : tensor<64x32xf32>
  }
  return %y : tensor<64x32xf32>
}

// -----

func.func @register_thread_read_at_lane(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<8x64xf32> {
    %t = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{keeps the result of 'motif.map' in register, but 'motif.map' reads it (operand #0) in same block: dim 1 is computed at 'thread' but read at 'lane'; it needs shared}}
    %tr = motif.materialize %t in register : tensor<8x64xf32>
    %u = motif.map (%tr[i, j]) -> [i, j] over [block, lane] : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %u in global : tensor<8x64xf32>
    motif.yield %g : tensor<8x64xf32>
  }
  return %y : tensor<8x64xf32>
}

// -----

func.func @register_seq_read_at_lane(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4x32xf32> {
    %t = motif.map (%x[i, j]) -> [i, j] over [block, seq] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{keeps the result of 'motif.map' in register, but 'motif.map' reads it (operand #0) in same block: dim 1 is computed at 'seq' but read at 'lane'; it needs shared}}
    %tr = motif.materialize %t in register : tensor<4x32xf32>
    %u = motif.map (%tr[i, j]) -> [i, j] over [block, lane] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %u in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  return %y : tensor<4x32xf32>
}

// -----

func.func @register_read_by_broadcast_at_seq(%x: tensor<8x64xf32>) -> tensor<8x64x4xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<8x64x4xf32> {
    %t = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<8x64xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{keeps the result of 'motif.map' in register, but 'motif.broadcast' reads it (operand #0) in same block: dim 1 is computed at 'thread' but read at 'seq'; it needs shared}}
    %tr = motif.materialize %t in register : tensor<8x64xf32>
    %b = motif.broadcast %tr[i, j] -> [i, j, k] over [block, seq, thread] : (tensor<8x64xf32>) -> tensor<8x64x4xf32>
    %g = motif.materialize %b in global : tensor<8x64x4xf32>
    motif.yield %g : tensor<8x64x4xf32>
  }
  return %y : tensor<8x64x4xf32>
}

// -----

func.func @register_read_by_contract_at_seq(%q: tensor<4x32xf32>, %k: tensor<8x32xf32>) -> tensor<4x8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4x8xf32> {
    %t = motif.map (%q[i, j]) -> [i, j] over [block, thread] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{keeps the result of 'motif.map' in register, but 'motif.contract' reads it (operand #0) in same block: dim 1 is computed at 'thread' but read at 'seq'; it needs shared}}
    %tr = motif.materialize %t in register : tensor<4x32xf32>
    %c = motif.contract (%tr[i, d], %k[j, d]) -> [i, j] over [block, thread, seq] : (tensor<4x32xf32>, tensor<8x32xf32>) -> tensor<4x8xf32>
    %g = motif.materialize %c in global : tensor<4x8xf32>
    motif.yield %g : tensor<4x8xf32>
  }
  return %y : tensor<4x8xf32>
}

// -----

// Column sums over rows spread across blocks.
func.func @reduce_over_block_warp(%x: tensor<64x32xf32>) -> tensor<32xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<32xf32> {
    // expected-error @+1 {{'motif.reduce' op reduces over a dim mapped to 'block.warp': a reduction across blocks needs a kernel boundary (not lowered)}}
    %s = motif.reduce <add> (%x[i, j]) -> [j] over [block.warp, lane] : (tensor<64x32xf32>) -> tensor<32xf32>
    %g = motif.materialize %s in global : tensor<32xf32>
    motif.yield %g : tensor<32xf32>
  }
  return %y : tensor<32xf32>
}

// -----

func.func @reduce_over_second_block_dim(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(1) -> tensor<4xf32> {
    // expected-error @+1 {{'motif.reduce' op reduces over a dim mapped to 'block': a reduction across blocks needs a kernel boundary (not lowered)}}
    %s = motif.reduce <max> (%x[i, j]) -> [i] over [block, block] : (tensor<4x8xf32>) -> tensor<4xf32>
    %g = motif.materialize %s in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @contract_over_blocks(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>) -> tensor<4x4xf32> {
  %y = motif.kernel "k" threads(4) -> tensor<4x4xf32> {
    // expected-error @+1 {{'motif.contract' op reduces over a dim mapped to 'block': a reduction across blocks needs a kernel boundary (not lowered)}}
    %c = motif.contract (%q[i, d], %k[j, d]) -> [i, j] over [thread, seq, block] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
    %g = motif.materialize %c in global : tensor<4x4xf32>
    motif.yield %g : tensor<4x4xf32>
  }
  return %y : tensor<4x4xf32>
}

// -----

func.func @kernel_in_scf_if(%x: tensor<4xf32>, %p: i1) -> tensor<4xf32> {
  %r = scf.if %p -> tensor<4xf32> {
    // expected-error @+1 {{'motif.kernel' op is nested in 'scf.if': the lowering launches kernels only from the body of a func.func}}
    %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
      %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
      ^bb0(%a: f32):
        motif.yield %a : f32
      }
      %g = motif.materialize %m in global : tensor<4xf32>
      motif.yield %g : tensor<4xf32>
    }
    scf.yield %y : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @kernel_in_execute_region(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.execute_region -> tensor<4xf32> {
    // expected-error @+1 {{'motif.kernel' op is nested in 'scf.execute_region'}}
    %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
      %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
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

// Only the entry block is a straight-line sequence of launches.
func.func @kernel_in_second_block(%x: tensor<4xf32>) -> tensor<4xf32> {
  cf.br ^bb1
^bb1:
  // expected-error @+1 {{'motif.kernel' op is nested in 'func.func': the lowering launches kernels only from the body of a func.func}}
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @constant_at_function_level(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'arith.constant' op cannot be lowered at function level: a motif function holds only motif.kernel ops}}
  %c = arith.constant 1.0 : f32
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

// 'acc - x' over warps: partials combined in warp order compute another value.
func.func @subtract_over_warps(%x: tensor<8x2xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<8xf32> {
    // expected-error @+1 {{'motif.reduce' op reduces across threads, but its combiner is not commutative}}
    %s = motif.reduce (%x[i, j]) -> [i] init [0.0 : f32] over [block, warp] : (tensor<8x2xf32>) -> tensor<8xf32> combiner {
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

func.func @divide_over_lanes(%x: tensor<8x32xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8xf32> {
    // expected-error @+1 {{'motif.reduce' op reduces across threads, but its combiner is not commutative}}
    %s = motif.reduce (%x[i, j]) -> [i] init [1.0 : f32] over [block, lane] : (tensor<8x32xf32>) -> tensor<8xf32> combiner {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}

// -----

// a + b + (a b)^2: commutative, identity 0, not associative.
func.func @nonassociative_over_lanes(%x: tensor<8x32xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8xf32> {
    // expected-error @+1 {{'motif.reduce' op reduces across threads, but its combiner is not associative: combine(combine(a, b), c) =}}
    %s = motif.reduce (%x[i, j]) -> [i] init [0.0 : f32] over [block, lane] : (tensor<8x32xf32>) -> tensor<8xf32> combiner {
    ^bb0(%a: f32, %b: f32):
      %p = arith.mulf %a, %b : f32
      %q = arith.mulf %p, %p : f32
      %t = arith.addf %a, %b : f32
      %r = arith.addf %t, %q : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}

// -----

// 'acc + x + 1' from 0: every partial of the tree adds its own 1.
func.func @plus_one_over_threads(%x: tensor<8x32xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8xf32> {
    // expected-error @+1 {{'motif.reduce' op reduces across threads, but its combiner does not have 'init' as its identity: combine(init, a) =}}
    %s = motif.reduce (%x[i, j]) -> [i] init [0.0 : f32] over [block, thread] : (tensor<8x32xf32>) -> tensor<8xf32> combiner {
    ^bb0(%acc: f32, %v: f32):
      %one = arith.constant 1.0 : f32
      %t = arith.addf %acc, %v : f32
      %r = arith.addf %t, %one : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}

// -----

// An online-softmax-shaped state whose second component subtracts.
func.func @two_state_combiner_one_bad_component(%x: tensor<8x32xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %y:2 = motif.kernel "k" threads(32) -> tensor<8xf32>, tensor<8xf32> {
    // expected-error @+1 {{'motif.reduce' op reduces across threads, but its combiner is not commutative}}
    %s:2 = motif.reduce (%x[i, j], %x[i, j]) -> [i] init [0xFF800000 : f32, 0.0 : f32] over [block, lane] : (tensor<8x32xf32>, tensor<8x32xf32>) -> (tensor<8xf32>, tensor<8xf32>) combiner {
    ^bb0(%m1: f32, %s1: f32, %m2: f32, %s2: f32):
      %m = arith.maximumf %m1, %m2 : f32
      %d = arith.subf %s1, %s2 : f32
      motif.yield %m, %d : f32, f32
    }
    %g0 = motif.materialize %s#0 in global : tensor<8xf32>
    %g1 = motif.materialize %s#1 in global : tensor<8xf32>
    motif.yield %g0, %g1 : tensor<8xf32>, tensor<8xf32>
  }
  return %y#0, %y#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

func.func @registers_over_256_slots(%x: tensor<300xf32>) -> tensor<f32> {
  %y = motif.kernel "k" threads(32) -> tensor<f32> {
    %m = motif.map (%x[i]) -> [i] over [seq] : (tensor<300xf32>) -> tensor<300xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{keeps 300 elements per thread in registers; the lowering unrolls at most 256}}
    %r = motif.materialize %m in register : tensor<300xf32>
    %s = motif.reduce <add> (%r[i]) -> [] over [seq] : (tensor<300xf32>) -> tensor<f32>
    %g = motif.materialize %s in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}

// -----

// 58113 floats are one element over the 227 KiB (232448 B) of dynamic shared
// memory a block may opt in to (58112 lower: dynamic-shared.mlir).
func.func @shared_one_element_over_limit(%x: tensor<58113xf32>) -> tensor<f32> {
  // expected-error @+1 {{needs 232452 bytes of shared memory, over the 232448 B a block may use on any supported chip}}
  %y = motif.kernel "k" threads(32) -> tensor<f32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<58113xf32>) -> tensor<58113xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %r = motif.materialize %m in shared : tensor<58113xf32>
    %s = motif.reduce <add> (%r[i]) -> [] over [seq] : (tensor<58113xf32>) -> tensor<f32>
    %g = motif.materialize %s in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}

// -----

// The kernels go into gpu.module @motif_kernels; the name is taken.
// expected-error @+1 {{already holds a symbol 'motif_kernels'}}
module {
  func.func private @motif_kernels()
  func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
    %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
      %g = motif.materialize %x in global : tensor<4xf32>
      motif.yield %g : tensor<4xf32>
    }
    return %y : tensor<4xf32>
  }
}
