// WAS A BUG, fixed (lib/Dialect/Motif/IR/MotifOps.cpp and lib/Conversion): a copy
// kernel (`motif.materialize %arg in global`, no motif) escapes every size
// rule, since the extent and instance limits are checked on motifs only:
//   * tensor<0xf32>: accepted by every tool; motif-compile writes a manifest
//     and header with 0-byte buffers, motif-equiv --run exits 0;
//   * tensor<4x0xf32>: `--convert-motif-to-gpu` exits 0; the NVVM lowering
//     (motif-compile, --motif-lower-to-nvvm) then fails with the internal
//     "failed to legalize operation 'gpu.func' that was explicitly marked
//     illegal";
//   * tensor<9223372036854775807xf32>: `--convert-motif-to-gpu` and
//     `--motif-lower-to-nvvm` exit 0 (a 2^63-element grid-stride copy);
//     only motif-compile's manifest refuses it.
// Expected: the verifier's "extent 0" and 2^40 limits apply to copies too,
// a located error on the materialization, exit 1.
// RUN: motif-opt %s -split-input-file --convert-motif-to-gpu -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s --convert-motif-to-gpu

func.func @copy_zero_elements(%x: tensor<0xf32>) -> tensor<0xf32> {
  %y = motif.kernel "k" threads(4) -> tensor<0xf32> {
    // expected-error @+1 {{extent 0}}
    %g = motif.materialize %x in global : tensor<0xf32>
    motif.yield %g : tensor<0xf32>
  }
  return %y : tensor<0xf32>
}

// -----

func.func @copy_zero_inner_extent(%x: tensor<4x0xf32>) -> tensor<4x0xf32> {
  %y = motif.kernel "k" threads(4) -> tensor<4x0xf32> {
    // expected-error @+1 {{extent 0}}
    %g = motif.materialize %x in global : tensor<4x0xf32>
    motif.yield %g : tensor<4x0xf32>
  }
  return %y : tensor<4x0xf32>
}

// -----

func.func @copy_2_to_the_63(%x: tensor<9223372036854775807xf32>) -> tensor<9223372036854775807xf32> {
  %y = motif.kernel "k" threads(4) -> tensor<9223372036854775807xf32> {
    // expected-error @+1 {{1099511627776}}
    %g = motif.materialize %x in global : tensor<9223372036854775807xf32>
    motif.yield %g : tensor<9223372036854775807xf32>
  }
  return %y : tensor<9223372036854775807xf32>
}
