// Errors the custom syntax reports while parsing (one case per message).
// RUN: motif-opt %s -split-input-file -verify-diagnostics

func.func @unknown_index(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{index 'q' does not appear in the result}}
    %m = motif.map (%x[q]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @repeated_index(%x: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{index 'i' is repeated}}
    %m = motif.map (%x[i, i]) -> [i, j] over [thread, seq] : (tensor<4x4xf32>) -> tensor<4x4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @unknown_level(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{unknown level 'grid' (expected block, block.warp, warp, lane, thread or seq)}}
    %m = motif.map (%x[i]) -> [i] over [grid] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @unknown_residency(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{unknown residency 'l2' (expected global, shared or register)}}
    %r = motif.materialize %x in l2 : tensor<4xf32>
  }
  return
}

// -----

func.func @unknown_combiner(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{unknown combiner 'avg' (expected add, mul, max or min)}}
    %m = motif.reduce <avg> (%x[i]) -> [] over [thread] : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @reduce_inputs_differ(%x: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{every input of a reduction is indexed alike}}
    %m:2 = motif.reduce (%x[i, j], %x[j, i]) -> [i] init [0.0 : f32, 0.0 : f32] over [thread, seq] : (tensor<4x4xf32>, tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  }
  return
}

// -----

func.func @reduce_result_order(%x: tensor<4x4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{the result keeps the inputs' dims in their order}}
    %m = motif.reduce <add> (%x[i, j, k]) -> [j, i] over [thread, seq, seq] : (tensor<4x4x4xf32>) -> tensor<4x4xf32>
  }
  return
}

// -----

func.func @reduce_no_inputs() {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected at least one input}}
    %m = motif.reduce <add> () -> [] over [] : () -> tensor<f32>
  }
  return
}

// -----

func.func @contract_arity(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{a contraction takes two operands}}
    %m = motif.contract (%x[i]) -> [] over [thread] : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @contract_lonely_index(%x: tensor<4x4xf32>, %y: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{index 'z' appears in one operand only and not in the result}}
    %m = motif.contract (%x[i, z], %y[i]) -> [] over [thread, seq] : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @transpose_drops_index(%x: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{a transpose keeps every index of its input}}
    %t = motif.transpose %x[i, j] -> [j] over [thread] : (tensor<4x4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @signature_arity(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected 1 operand types, got 2}}
    %t = motif.broadcast %x[i] -> [i, j] over [thread, seq] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  }
  return
}
