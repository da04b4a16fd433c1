// The generic form with attributes of the wrong kind, missing or out of
// range: each is a located verifier error (never a crash on a bad attribute).
// RUN: motif-opt %s -split-input-file -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s | FileCheck %s --check-prefix=EACH
// EACH: 18 cases, 18 refused properly

func.func @kernel_name_integer() {
  // expected-error @+1 {{invalid properties {sym_name = 1 : i64, threads = 32 : i64} for op motif.kernel: Invalid attribute `sym_name` in property conversion: 1 : i64}}
  "motif.kernel"() <{sym_name = 1 : i64, threads = 32 : i64}> ({
    "motif.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @kernel_threads_i32() {
  // expected-error @+1 {{'motif.kernel' op attribute 'threads' failed to satisfy constraint: 64-bit signless integer attribute}}
  "motif.kernel"() <{sym_name = "k", threads = 32 : i32}> ({
    "motif.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @kernel_threads_string() {
  // expected-error @+1 {{Invalid attribute `threads` in property conversion: "32"}}
  "motif.kernel"() <{sym_name = "k", threads = "32"}> ({
    "motif.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @kernel_threads_missing() {
  // expected-error @+1 {{'motif.kernel' op requires attribute 'threads'}}
  "motif.kernel"() <{sym_name = "k"}> ({
    "motif.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @kernel_without_block() {
  // expected-error @+1 {{'motif.kernel' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  "motif.kernel"() <{sym_name = "k", threads = 32 : i64}> ({
  }) : () -> ()
  return
}

// -----

func.func @residency_integer(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{Invalid attribute `residency` in property conversion: 1 : i32}}
    %r = "motif.materialize"(%m) <{residency = 1 : i32}> : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @residency_of_another_enum(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{Invalid attribute `residency` in property conversion: #motif<level thread>}}
    %r = "motif.materialize"(%m) <{residency = #motif<level thread>}> : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @materialize_changes_type(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{'motif.materialize' op failed to verify that all of {input, result} have same type}}
    %r = "motif.materialize"(%m) <{residency = #motif<residency shared>}> : (tensor<4xf32>) -> tensor<8xf32>
  }
  return
}

// -----

func.func @mapping_integers(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.map' op attribute 'mapping' failed to satisfy constraint: mapping of iteration dims}}
    %m = "motif.map"(%x) <{indexing = [array<i64: 0>], mapping = [3 : i32]}> ({
    ^bb0(%a: f32):
      motif.yield %a : f32
    }) : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @mapping_not_an_array(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{Invalid attribute `mapping` in property conversion: #motif<level thread>}}
    %m = "motif.map"(%x) <{indexing = [array<i64: 0>], mapping = #motif<level thread>}> ({
    ^bb0(%a: f32):
      motif.yield %a : f32
    }) : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @indexing_nested_array(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.map' op indexing #0 must be an i64 array}}
    %m = "motif.map"(%x) <{indexing = [[0]], mapping = [#motif<level thread>]}> ({
    ^bb0(%a: f32):
      motif.yield %a : f32
    }) : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @indexing_negative(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.map' op indexing #0 must name distinct result dims in [0, 1)}}
    %m = "motif.map"(%x) <{indexing = [array<i64: -1>], mapping = [#motif<level thread>]}> ({
    ^bb0(%a: f32):
      motif.yield %a : f32
    }) : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @reduction_dims_array_attr(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{Invalid attribute `reduction_dims` in property conversion: [0]}}
    %s = "motif.reduce"(%x) <{kind = #motif<combiner add>, mapping = [#motif<level thread>], reduction_dims = [0]}> ({
    }) : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @reduction_dims_negative(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.reduce' op reduction_dims must be sorted, unique and in [0, 1)}}
    %s = "motif.reduce"(%x) <{kind = #motif<combiner add>, mapping = [#motif<level thread>], reduction_dims = array<i64: -1>}> ({
    }) : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @combiner_kind_string(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{Invalid attribute `kind` in property conversion: "add"}}
    %s = "motif.reduce"(%x) <{kind = "add", mapping = [#motif<level thread>], reduction_dims = array<i64: 0>}> ({
    }) : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @reduce_without_inputs() {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.reduce' op needs at least one input}}
    %s = "motif.reduce"() <{kind = #motif<combiner add>, mapping = [], reduction_dims = array<i64: 0>}> ({
    }) : () -> tensor<f32>
  }
  return
}

// -----

func.func @permutation_out_of_range(%x: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.transpose' op permutation is not a permutation of [0, 2)}}
    %t = "motif.transpose"(%x) <{permutation = array<i64: 5, 0>, mapping = [#motif<level thread>, #motif<level seq>]}> : (tensor<4x4xf32>) -> tensor<4x4xf32>
  }
  return
}

// -----

func.func @map_with_two_results(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.map' op requires one result}}
    %m:2 = "motif.map"(%x) <{indexing = [array<i64: 0>], mapping = [#motif<level thread>]}> ({
    ^bb0(%a: f32):
      motif.yield %a : f32
    }) : (tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  }
  return
}
