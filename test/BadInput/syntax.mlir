// Malformed custom syntax: every case is a parse error located at the token
// that is wrong, and the tool exits non-zero.
// RUN: motif-opt %s -split-input-file -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s | FileCheck %s --check-prefix=EACH
// EACH: 24 cases, 24 refused properly

// A truncated op: the mapping list never comes.
func.func @truncated_mapping(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected '['}}
    %m = motif.map (%x[i]) -> [i] over : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// A truncated op: the result index list is missing.
func.func @truncated_result(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected '['}}
    %m = motif.reduce <add> (%x[i]) -> over [thread] : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @index_list_trailing_comma(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected valid keyword}}
    %m = motif.map (%x[i,]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// Indices are names, not positions.
func.func @index_list_number(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected valid keyword}}
    %m = motif.map (%x[0]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @index_list_no_comma(%x: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected ']'}}
    %t = motif.transpose %x[i j] -> [j, i] over [thread, seq] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  }
  return
}

// -----

func.func @index_list_parens(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected '['}}
    %b = motif.broadcast %x(i) -> [i, j] over [thread, seq] : (tensor<4xf32>) -> tensor<4x4xf32>
  }
  return
}

// -----

// Levels are lower case.
func.func @level_capitalized(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{unknown level 'Thread' (expected block, block.warp, warp, lane, thread or seq)}}
    %m = motif.map (%x[i]) -> [i] over [Thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// block.warp exists; block.lane does not.
func.func @level_block_lane(%x: tensor<4x32xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{unknown level 'block.lane'}}
    %s = motif.reduce <max> (%x[i, j]) -> [i] over [block.lane, lane] : (tensor<4x32xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @level_not_a_list(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected '['}}
    %s = motif.reduce <add> (%x[i]) -> [] over thread : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @residency_capitalized(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{unknown residency 'Register' (expected global, shared or register)}}
    %r = motif.materialize %m in Register : tensor<4xf32>
  }
  return
}

// -----

// The residency is a bare keyword, not a string.
func.func @residency_string(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{expected valid keyword}}
    %r = motif.materialize %m in "shared" : tensor<4xf32>
  }
  return
}

// -----

func.func @residency_local(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{unknown residency 'local' (expected global, shared or register)}}
    %r = motif.materialize %m in local : tensor<4xf32>
  }
  return
}

// -----

// `observable` is a keyword after the residency, nothing else is.
func.func @residency_trailing_word(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{expected ':'}}
    %g = motif.materialize %m in global visible : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

// A materialization without its type.
func.func @missing_materialize_type(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{expected ':'}}
    %r = motif.materialize %m in shared
  }
  return
}

// -----

// A motif without its signature: the attribute dictionary is not a body.
func.func @missing_signature(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected attribute name}}
    %m = motif.map (%x[i]) -> [i] over [thread] {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// A kernel arrow without a result type.
func.func @missing_kernel_result_type(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected non-function type}}
  motif.kernel "k" threads(32) -> {
  }
  return
}

// -----

// An unclosed operand list.
func.func @unbalanced_paren(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected ')'}}
    %s = motif.reduce <add> (%x[i] -> [] over [thread] : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @unbalanced_bracket(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected ']'}}
    %s = motif.reduce <add> (%x[i]) -> [] over [thread : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

// An unclosed combiner kind.
func.func @unbalanced_angle(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{expected '>'}}
    %s = motif.reduce <add (%x[i]) -> [] over [thread] : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @garbage_after_threads(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected '{' to begin a region}}
  motif.kernel "k" threads(32) launch {
  }
  return
}

// -----

func.func @threads_without_parens(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected '('}}
  motif.kernel "k" threads 32 {
  }
  return
}

// -----

// The kernel name is a string.
func.func @kernel_name_bare(%x: tensor<4xf32>) {
  // expected-error @+1 {{expected attribute value}}
  motif.kernel k threads(32) {
  }
  return
}

// -----

// There is no scan motif.
func.func @unknown_op_scan(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{custom op 'motif.scan' is unknown}}
    %s = motif.scan (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

// Barriers come from shared materializations; there is no op to write one.
func.func @unknown_op_barrier(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{custom op 'motif.barrier' is unknown}}
    motif.barrier
  }
  return
}
