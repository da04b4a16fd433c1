// RUN: motif-opt %s -split-input-file -verify-diagnostics
// Verifier rules that keep a program inside what the schedule model and the
// lowering mean (docs/schedule.md): sizes, self-contained bodies, residencies
// only of motif results, and cross-thread trees the block can combine.

// A zero extent: nothing to compute, and no launch shape for it.
func.func @zero_extent(%x: tensor<0x4xf32>) -> tensor<0x4xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<0x4xf32> {
    // expected-error @+1 {{iteration dim 'i' has extent 0: every extent must be at least 1}}
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<0x4xf32>) -> tensor<0x4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<0x4xf32>
    motif.yield %g : tensor<0x4xf32>
  }
  return %y : tensor<0x4xf32>
}

// -----

// ../shared/repro/crash_equiv_huge_extent.mlir: INT64_MAX elements overflowed
// every byte count (motif-equiv aborted, the manifest said "bytes": -4).
func.func @huge_extent(%x: tensor<9223372036854775807xf32>) -> tensor<9223372036854775807xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<9223372036854775807xf32> {
    // expected-error @+1 {{has more than 1099511627776 iteration instances (2^40): sizes past that limit are not supported}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<9223372036854775807xf32>) -> tensor<9223372036854775807xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<9223372036854775807xf32>
    motif.yield %g : tensor<9223372036854775807xf32>
  }
  return %y : tensor<9223372036854775807xf32>
}

// -----

// The product of the extents overflows even though each one is small.
func.func @instances_overflow(%x: tensor<4194304x4194304xf32>) -> tensor<4194304xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<4194304xf32> {
    // expected-error @+1 {{has more than 1099511627776 iteration instances}}
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<4194304x4194304xf32>) -> tensor<4194304xf32>
    %g = motif.materialize %r in global : tensor<4194304xf32>
    motif.yield %g : tensor<4194304xf32>
  }
  return %y : tensor<4194304xf32>
}

// -----

func.func @grid_too_large(%x: tensor<65536x65536xf32>) -> tensor<65536x65536xf32> {
  %y = motif.kernel "k" threads(1) -> tensor<65536x65536xf32> {
    // expected-error @+1 {{launches more than 2147483647 blocks (the grid limit, 2^31-1)}}
    %m = motif.map (%x[i, j]) -> [i, j] over [block, block] : (tensor<65536x65536xf32>) -> tensor<65536x65536xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<65536x65536xf32>
    motif.yield %g : tensor<65536x65536xf32>
  }
  return %y : tensor<65536x65536xf32>
}

// -----

// ../shared/repro/crash_body_reads_outer_tensor.mlir: the lowering cloned the
// extract with a dangling operand and the verifier segfaulted.
func.func @body_reads_outer_tensor(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4x32xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%v: f32):
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'tensor.extract' op is not supported in a motif body: bodies hold scalar arith/math ops only}}
      %e = tensor.extract %x[%c0, %c0] : tensor<4x32xf32>
      %r = arith.addf %v, %e : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  return %y : tensor<4x32xf32>
}

// -----

func.func @combiner_reads_outer_scalar(%x: tensor<4x32xf32>) -> tensor<4xf32> {
  %c = arith.constant 2.0 : f32
  %y = motif.kernel "k" threads(32) -> tensor<4xf32> {
    %r = motif.reduce (%x[i, j]) -> [i] init [0.0 : f32] over [block, thread] : (tensor<4x32xf32>) -> tensor<4xf32> combiner {
    ^bb0(%a: f32, %b: f32):
      // expected-error @+1 {{'arith.mulf' op is not supported in a motif body: operand #1 is defined outside the body; a body is self-contained scalar code}}
      %s = arith.mulf %b, %c : f32
      %t = arith.addf %a, %s : f32
      motif.yield %t : f32
    }
    %g = motif.materialize %r in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @register_of_an_argument(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4x32xf32> {
    // expected-error @+1 {{in register names a value no motif of this kernel computes: values from outside the kernel live in global memory}}
    %r = motif.materialize %x in register : tensor<4x32xf32>
    %m = motif.map (%r[i, j]) -> [i, j] over [block, thread] : (tensor<4x32xf32>) -> tensor<4x32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  return %y : tensor<4x32xf32>
}

// -----

// threads(100): the lanes of the last warp are not a power of two, so no
// shuffle butterfly combines them (was a late lowering error).
func.func @lanes_not_combinable(%x: tensor<4x100xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(100) -> tensor<4xf32> {
    // expected-error @+1 {{reduces across lanes with threads(100): the shuffle butterfly needs a power of two up to 32 or a multiple of 32}}
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<4x100xf32>) -> tensor<4xf32>
    %g = motif.materialize %r in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @lanes_of_a_small_block(%x: tensor<4x24xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(24) -> tensor<4xf32> {
    // expected-error @+1 {{reduces across lanes with threads(24)}}
    %r = motif.reduce <max> (%x[i, j]) -> [i] over [block, lane] : (tensor<4x24xf32>) -> tensor<4xf32>
    %g = motif.materialize %r in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

// The same block size is fine for a sequential fold (no tree).
func.func @seq_fold_in_any_block(%x: tensor<4x24xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(24) -> tensor<4xf32> {
    %r = motif.reduce <max> (%x[i, j]) -> [i] over [block, seq] : (tensor<4x24xf32>) -> tensor<4xf32>
    %g = motif.materialize %r in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @nested_region_in_body(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %t = arith.constant true
      // expected-error @+1 {{'scf.if' op is not supported in a motif body: bodies hold scalar arith/math ops only}}
      %r = scf.if %t -> f32 {
        scf.yield %a : f32
      } else {
        scf.yield %a : f32
      }
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

// Found by motif-fuzz (program seed 6851792094213408377): threads(100) has a
// last warp of 4 lanes, so lanes 4..7 of the rows on warp 3 were never
// computed (the schedule-faithful evaluator reported them unstored).
func.func @warp_and_lane_in_a_partial_warp(%x: tensor<7x8xf32>) -> tensor<8x7xf32> {
  %y = motif.kernel "k" threads(100) -> tensor<8x7xf32> {
    // expected-error @+1 {{maps dims to both a warp level and 'lane' with threads(100): the last warp has only 4 of its 32 lanes; use a multiple of 32}}
    %r = motif.transpose %x[i, j] -> [j, i] over [lane, block.warp] : (tensor<7x8xf32>) -> tensor<8x7xf32>
    %g = motif.materialize %r in global : tensor<8x7xf32>
    motif.yield %g : tensor<8x7xf32>
  }
  return %y : tensor<8x7xf32>
}
