// Wrong arity and indices: operand and index counts, indices that name no
// dim, repeated indices, mappings of the wrong length, ranks and extents that
// disagree. Each is a located error and a non-zero exit.
// RUN: motif-opt %s -split-input-file -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s | FileCheck %s --check-prefix=EACH
// EACH: 27 cases, 27 refused properly

func.func @map_more_operands_than_types(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected 2 operand types, got 1}}
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @contract_three_operands(%x: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{a contraction takes two operands}}
    %c = motif.contract (%x[i, k], %x[k, j], %x[i, j]) -> [i, j] over [thread, seq, seq] : (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  }
  return
}

// -----

func.func @map_operand_index_not_in_result(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{index 'j' does not appear in the result}}
    %m = motif.map (%x[i], %y[j]) -> [i] over [thread] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @broadcast_index_not_in_result(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{index 'k' does not appear in the result}}
    %b = motif.broadcast %x[k] -> [i, j] over [thread, seq] : (tensor<4xf32>) -> tensor<4x4xf32>
  }
  return
}

// -----

func.func @transpose_index_not_in_input(%x: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{index 'k' does not appear in the input}}
    %t = motif.transpose %x[i, j] -> [j, k] over [thread, seq] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  }
  return
}

// -----

func.func @reduce_result_index_not_in_inputs(%x: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{index 'z' does not appear in the inputs}}
    %s = motif.reduce <add> (%x[i, j]) -> [z] over [thread, seq] : (tensor<4x4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @map_result_index_repeated(%x: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{index 'i' is repeated}}
    %m = motif.map (%x[i, j]) -> [i, i] over [thread, seq] : (tensor<4x4xf32>) -> tensor<4x4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @reduce_input_index_repeated(%x: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{index 'j' is repeated}}
    %s = motif.reduce <max> (%x[j, j]) -> [j] over [thread, seq] : (tensor<4x4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @contract_index_repeated(%q: tensor<4x4xf32>, %k: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{index 'd' is repeated}}
    %c = motif.contract (%q[d, d], %k[j, d]) -> [j] over [thread, seq] : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

// The kept dims [k, i] are out of the inputs' order [i, j, k].
func.func @reduce_kept_dims_out_of_order(%x: tensor<2x3x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{the result keeps the inputs' dims in their order}}
    %s = motif.reduce <add> (%x[i, j, k]) -> [k, i] over [thread, seq, seq] : (tensor<2x3x4xf32>) -> tensor<4x2xf32>
  }
  return
}

// -----

func.func @reduce_inputs_indexed_differently(%x: tensor<4x4xf32>, %y: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{every input of a reduction is indexed alike}}
    %s:2 = motif.reduce (%x[i, j], %y[i, k]) -> [i] init [0.0 : f32, 0.0 : f32] over [thread, seq] : (tensor<4x4xf32>, tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  }
  return
}

// -----

// 'e' indexes the right operand only and is no result index.
func.func @contract_index_in_rhs_only(%q: tensor<4x8xf32>, %k: tensor<8x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{index 'e' appears in one operand only and not in the result}}
    %c = motif.contract (%q[i, d], %k[d, e]) -> [i] over [thread, seq, seq] : (tensor<4x8xf32>, tensor<8x4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @mapping_too_long(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.map' op mapping has 2 levels but the iteration space has 1 dims}}
    %m = motif.map (%x[i]) -> [i] over [block, thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @mapping_empty(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.reduce' op mapping has 0 levels but the iteration space has 1 dims}}
    %s = motif.reduce <add> (%x[i]) -> [] over [] : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

// A contraction's iteration space also holds the contracted dim.
func.func @contract_mapping_misses_contracted_dim(%q: tensor<4x8xf32>, %k: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.contract' op mapping has 2 levels but the iteration space has 3 dims}}
    %c = motif.contract (%q[i, d], %k[j, d]) -> [i, j] over [block, thread] : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x4xf32>
  }
  return
}

// -----

func.func @operand_rank_exceeds_indices(%x: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.map' op operand #0 has rank 2 but is indexed by 1 dims}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4x4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// The result names two dims but its type has one.
func.func @result_rank_below_indices(%x: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.map' op indexing #0 must name distinct result dims in [0, 1)}}
    %m = motif.map (%x[i, j]) -> [i, j] over [thread] : (tensor<4x4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @contract_extents_disagree(%q: tensor<4x8xf32>, %k: tensor<4x16xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.contract' op operand #1 dim 1 has extent 16 but iteration dim 'k' has extent 8}}
    %c = motif.contract (%q[i, d], %k[j, d]) -> [i, j] over [thread, seq, seq] : (tensor<4x8xf32>, tensor<4x16xf32>) -> tensor<4x4xf32>
  }
  return
}

// -----

func.func @transpose_result_not_transposed(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.transpose' op operand #0 dim 0 has extent 4 but iteration dim 'j' has extent 8}}
    %t = motif.transpose %x[i, j] -> [j, i] over [thread, seq] : (tensor<4x8xf32>) -> tensor<4x8xf32>
  }
  return
}

// -----

func.func @broadcast_extents_disagree(%m: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.broadcast' op operand #0 dim 0 has extent 4 but iteration dim 'i' has extent 8}}
    %b = motif.broadcast %m[i] -> [i, j] over [thread, seq] : (tensor<4xf32>) -> tensor<8x4xf32>
  }
  return
}

// -----

func.func @reduce_result_extent(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.reduce' op result #0 dim 0 has extent 8 but iteration dim 'i' has extent 4}}
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [thread, seq] : (tensor<4x8xf32>) -> tensor<8xf32>
  }
  return
}

// -----

func.func @reduce_more_results_than_inputs(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.reduce' op has 1 inputs but 2 results}}
    %s:2 = motif.reduce (%x[i, j]) -> [i] init [0.0 : f32] over [thread, seq] : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) combiner {
    ^bb0(%a: f32, %b: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// A combiner over two inputs takes two states of two scalars.
func.func @combiner_arity_two_inputs(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.reduce' op combiner must take 4 scalar arguments (f32, f32, f32, f32)}}
    %s:2 = motif.reduce (%x[i, j], %y[i, j]) -> [i] init [0.0 : f32, 0.0 : f32] over [thread, seq] : (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) combiner {
    ^bb0(%a: f32, %b: f32):
      motif.yield %a, %b : f32, f32
    }
  }
  return
}

// -----

func.func @init_count_two_inputs(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.reduce' op a combiner region needs 'init' with one identity per input (2)}}
    %s:2 = motif.reduce (%x[i, j], %y[i, j]) -> [i] init [0.0 : f32] over [thread, seq] : (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>) combiner {
    ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
      motif.yield %a, %b : f32, f32
    }
  }
  return
}

// -----

func.func @kernel_yields_more_than_results(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'motif.kernel' op yields 2 values but has 1 results}}
  %y = motif.kernel "k" threads(32) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g, %g : tensor<4xf32>, tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @map_body_yields_two(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.map' op body must yield 1 value(s) of type (f32)}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a, %a : f32, f32
    }
  }
  return
}

// -----

func.func @materialize_type_differs_from_value(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-note @+1 {{prior use here}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{use of value '%m' expects different type than prior uses: 'tensor<8xf32>' vs 'tensor<4xf32>'}}
    %r = motif.materialize %m in register : tensor<8xf32>
  }
  return
}
