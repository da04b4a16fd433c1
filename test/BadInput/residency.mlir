// Illegal residencies and structure the verifier refuses: what a kernel
// yields, where materializations may sit and what they may name, observable
// values, grids, thread levels and block sizes. Each is a located error and a
// non-zero exit.
// RUN: motif-opt %s -split-input-file -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s | FileCheck %s --check-prefix=EACH
// EACH: 25 cases, 25 refused properly

// A kernel result is never a value from outside the kernel.
func.func @yield_argument(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'motif.kernel' op result #0 must be yielded from a 'motif.materialize ... in global' of this kernel: kernel results live in global memory}}
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    motif.yield %x : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @yield_earlier_kernel_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = motif.kernel "a" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  // expected-error @+1 {{'motif.kernel' op result #0 must be yielded from a 'motif.materialize ... in global' of this kernel}}
  %b = motif.kernel "b" threads(4) -> tensor<4xf32> {
    motif.yield %a : tensor<4xf32>
  }
  return %b : tensor<4xf32>
}

// -----

func.func @yield_shared(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{'motif.materialize' op in shared is yielded: kernel results live in global memory}}
    %s = motif.materialize %m in shared : tensor<4xf32>
    motif.yield %s : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @global_read_by_reduce(%x: tensor<4xf32>) -> tensor<f32> {
  %y = motif.kernel "k" threads(4) -> tensor<f32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{'motif.materialize' op in global is used inside its kernel by 'motif.reduce'}}
    %g = motif.materialize %m in global : tensor<4xf32>
    %s = motif.reduce <add> (%g[i]) -> [] over [thread] : (tensor<4xf32>) -> tensor<f32>
    %h = motif.materialize %s in global : tensor<f32>
    motif.yield %h : tensor<f32>
  }
  return %y : tensor<f32>
}

// -----

// Global, then register: a global value is only yielded.
func.func @global_rematerialized(%x: tensor<4xf32>) {
  motif.kernel "k" threads(4) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{'motif.materialize' op in global is used inside its kernel by 'motif.materialize'}}
    %g = motif.materialize %m in global : tensor<4xf32>
    %r = motif.materialize %g in register : tensor<4xf32>
  }
  return
}

// -----

func.func @observable_register(%x: tensor<4xf32>) {
  motif.kernel "k" threads(4) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{'motif.materialize' op marks an observable value 'register': an observable value must stay in global memory}}
    %r = motif.materialize %m in register observable : tensor<4xf32>
  }
  return
}

// -----

// The same through the attribute dictionary of the generic form.
func.func @observable_shared_generic(%x: tensor<4xf32>) {
  motif.kernel "k" threads(4) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{an observable value must stay in global memory}}
    %r = "motif.materialize"(%m) <{residency = #motif<residency shared>, observable}> : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @register_of_argument(%x: tensor<4xf32>) {
  motif.kernel "k" threads(4) {
    // expected-error @+1 {{'motif.materialize' op in register names a value no motif of this kernel computes: values from outside the kernel live in global memory}}
    %r = motif.materialize %x in register : tensor<4xf32>
  }
  return
}

// -----

// The rule follows chains of materializations back to their origin (a
// tensor from outside staged in shared memory is an operand tile; keeping
// that in registers is not).
func.func @register_of_shared_of_argument(%x: tensor<4xf32>) {
  motif.kernel "k" threads(4) {
    %s = motif.materialize %x in shared : tensor<4xf32>
    // expected-error @+1 {{'motif.materialize' op in register names a value no motif of this kernel computes}}
    %r = motif.materialize %s in register : tensor<4xf32>
  }
  return
}

// -----

func.func @operand_not_materialized_contract(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>) {
  motif.kernel "k" threads(4) {
    %m = motif.map (%q[i, j]) -> [i, j] over [thread, seq] : (tensor<4x4xf32>) -> tensor<4x4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{'motif.contract' op operand #1 is computed in this kernel but not materialized}}
    %c = motif.contract (%k[i, d], %m[j, d]) -> [i, j] over [thread, seq, seq] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  }
  return
}

// -----

// One motif on a grid of 4 blocks, the next on a single block.
func.func @grid_block_vs_none(%x: tensor<4x32xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<4x32xf32>) -> tensor<4xf32>
    %r = motif.materialize %m in register : tensor<4xf32>
    // expected-error @+1 {{'motif.map' op maps [] to blocks but 'motif.reduce' in the same kernel maps [4]: every motif of a kernel runs on the same grid}}
    %n = motif.map (%x[i, j]) -> [i, j] over [seq, thread] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// Two block dims give a two-dimensional grid.
func.func @grid_two_block_dims(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(1) {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, block] : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %r = motif.materialize %m in register : tensor<4x8xf32>
    // expected-error @+1 {{'motif.map' op maps [4] to blocks but 'motif.map' in the same kernel maps [4, 8]}}
    %n = motif.map (%x[i, j]) -> [i, j] over [block, seq] : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// 64 rows over 2 warps per block is 32 blocks; one row per block is 64.
func.func @grid_block_warp_vs_block(%x: tensor<64x32xf32>) {
  motif.kernel "k" threads(64) {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block.warp, lane] : (tensor<64x32xf32>) -> tensor<64xf32>
    %r = motif.materialize %m in register : tensor<64xf32>
    // expected-error @+1 {{'motif.reduce' op maps [64] to blocks but 'motif.reduce' in the same kernel maps [32]}}
    %n = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<64x32xf32>) -> tensor<64xf32>
  }
  return
}

// -----

func.func @two_lane_dims(%x: tensor<4x32xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.map' op maps more than one iteration dim to the same thread level}}
    %m = motif.map (%x[i, j]) -> [i, j] over [lane, lane] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @warp_and_warp(%x: tensor<4x32xf32>) {
  motif.kernel "k" threads(128) {
    // expected-error @+1 {{'motif.reduce' op maps more than one iteration dim to the same thread level}}
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [warp, warp] : (tensor<4x32xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @thread_and_lane(%x: tensor<4x32xf32>) {
  motif.kernel "k" threads(128) {
    // expected-error @+1 {{'motif.map' op mixes 'thread' with 'warp'/'lane': 'thread' already spans every warp and lane of the block}}
    %m = motif.map (%x[i, j]) -> [i, j] over [thread, lane] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @thread_and_block_warp(%x: tensor<4x32xf32>) {
  motif.kernel "k" threads(128) {
    // expected-error @+1 {{'motif.map' op mixes 'thread' with 'warp'/'lane'}}
    %m = motif.map (%x[i, j]) -> [i, j] over [block.warp, thread] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @threads_zero() {
  // expected-error @+1 {{'motif.kernel' op threads must be in [1, 1024], got 0}}
  motif.kernel "k" threads(0) {
  }
  return
}

// -----

func.func @threads_negative() {
  // expected-error @+1 {{'motif.kernel' op threads must be in [1, 1024], got}}
  motif.kernel "k" threads(-32) {
  }
  return
}

// -----

func.func @threads_just_over(%x: tensor<4xf32>) {
  // expected-error @+1 {{'motif.kernel' op threads must be in [1, 1024], got 1025}}
  motif.kernel "k" threads(1025) {
  }
  return
}

// -----

// 40 threads are one full warp and part of another: no shuffle tree fits.
func.func @warp_reduction_odd_block(%x: tensor<4x2xf32>) {
  motif.kernel "k" threads(40) {
    // expected-error @+1 {{'motif.reduce' op reduces across lanes with threads(40): the shuffle butterfly needs a power of two up to 32 or a multiple of 32}}
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [seq, thread] : (tensor<4x2xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @lane_reduction_three_threads(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(3) {
    // expected-error @+1 {{'motif.reduce' op reduces across lanes with threads(3)}}
    %s = motif.reduce <max> (%x[i, j]) -> [i] over [seq, lane] : (tensor<4x8xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @kernel_inside_kernel(%x: tensor<4xf32>) {
  motif.kernel "outer" threads(4) {
    // expected-error @+1 {{'motif.kernel' op is not allowed directly in a motif.kernel: only motifs and materializations}}
    motif.kernel "inner" threads(4) {
    }
  }
  return
}

// -----

func.func @tensor_op_in_kernel(%x: tensor<4xf32>) {
  motif.kernel "k" threads(4) {
    // expected-error @+1 {{'tensor.empty' op is not allowed directly in a motif.kernel}}
    %e = tensor.empty() : tensor<4xf32>
  }
  return
}

// -----

// Motifs sit directly in a kernel, not in another motif's body.
func.func @motif_in_map_body(%x: tensor<4xf32>) {
  motif.kernel "k" threads(4) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      // expected-error @+1 {{'motif.reduce' op expects parent op 'motif.kernel'}}
      %s = motif.reduce <add> (%x[j]) -> [] over [seq] : (tensor<4xf32>) -> tensor<f32>
      motif.yield %a : f32
    }
  }
  return
}
