// RUN: motif-opt %s -split-input-file -verify-diagnostics
// One case per message of the runtime-row-count rules (docs/dialect.md,
// "Runtime row counts").

func.func @rows_on_threads(%x: tensor<?xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{maps iteration dim 'i', whose extent is dynamic, to 'thread': a dynamic extent (the row count, known at launch) must be mapped to 'block'}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @rows_per_warp(%x: tensor<?x32xf32>) {
  motif.kernel "k" threads(64) {
    // expected-error @+1 {{maps iteration dim 'i', whose extent is dynamic, to 'block.warp': a dynamic extent (the row count, known at launch) must be mapped to 'block'}}
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block.warp, lane] : (tensor<?x32xf32>) -> tensor<?xf32>
  }
  return
}

// -----

func.func @rows_in_a_tile_nest(%x: tensor<?x32xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{maps iteration dim 'i', whose extent is dynamic, to 'a tile nest': a dynamic extent (the row count, known at launch) must be mapped to 'block'}}
    %m = motif.map (%x[i, j]) -> [i, j] over [block x seq(2), thread]
           : (tensor<?x32xf32>) -> tensor<?x32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @rows_reduced(%x: tensor<?x32xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{reduces over iteration dim 'i', whose extent is dynamic: a dynamic extent (the row count) is only mapped to 'block', never reduced}}
    %s = motif.reduce <add> (%x[i, j]) -> [j] over [seq, thread] : (tensor<?x32xf32>) -> tensor<32xf32>
  }
  return
}

// -----

func.func @rows_inside_the_grid(%x: tensor<4x?xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{operand #0 must be variadic of tensor static in every dim but the leading one, but got 'tensor<4x?xf32>'}}
    %m = motif.map (%x[i, j]) -> [i, j] over [block, block] : (tensor<4x?xf32>) -> tensor<4x?xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// A transposed result moves the row count inward: the dynamic iteration dim
// is then not the outermost grid dim.
func.func @rows_after_another_grid_dim(%x: tensor<?x8xf32>) {
  motif.kernel "k" threads(1) {
    // expected-error @+1 {{'motif.transpose' op result #0 must be tensor static in every dim but the leading one, but got 'tensor<8x?xf32>'}}
    %t = motif.transpose %x[i, j] -> [j, i] over [block, block] : (tensor<?x8xf32>) -> tensor<8x?xf32>
  }
  return
}

// -----

func.func @rows_against_a_static_extent(%x: tensor<?x8xf32>, %y: tensor<4x8xf32>) {
  motif.kernel "k" threads(8) {
    // expected-error @+1 {{operand #1 dim 0 has extent 4 but iteration dim 'i' has extent ?}}
    %m = motif.map (%x[i, j], %y[i, j]) -> [i, j] over [block, thread]
           : (tensor<?x8xf32>, tensor<4x8xf32>) -> tensor<?x8xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      motif.yield %s : f32
    }
  }
  return
}

// -----

// The grid message prints the row count as `?`.
func.func @rows_then_no_grid(%x: tensor<?x8xf32>, %w: tensor<8xf32>) {
  motif.kernel "k" threads(8) {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<?x8xf32>) -> tensor<?xf32>
    // expected-error @+1 {{maps [] to blocks but 'motif.reduce' in the same kernel maps [?]: every motif of a kernel runs on the same grid}}
    %s = motif.reduce <add> (%w[i]) -> [] over [thread] : (tensor<8xf32>) -> tensor<f32>
  }
  return
}
