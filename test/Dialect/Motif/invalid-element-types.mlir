// RUN: motif-opt %s -split-input-file -verify-diagnostics
//
// What the element-type rules refuse (docs/dialect.md, "Element types").

func.func @integer_tensor(%x: tensor<8xi32>) -> tensor<8xi32> {
  %y = motif.kernel "k" threads(8) -> tensor<8xi32> {
    // expected-error @+1 {{'motif.map' op operand #0 holds 'i32': motif tensors hold f32, f16 or bf16 elements}}
    %v = motif.map (%x[i]) -> [i] over [thread] : (tensor<8xi32>) -> tensor<8xi32> {
    ^bb0(%a: i32):
      motif.yield %a : i32
    }
    %g = motif.materialize %v in global : tensor<8xi32>
    motif.yield %g : tensor<8xi32>
  }
  return %y : tensor<8xi32>
}

// -----

func.func @f64_result(%x: tensor<8xf32>) -> tensor<8xf64> {
  %y = motif.kernel "k" threads(8) -> tensor<8xf64> {
    // expected-error @+1 {{'motif.map' op result #0 holds 'f64': motif tensors hold f32, f16 or bf16 elements}}
    %v = motif.map (%x[i]) -> [i] over [thread] : (tensor<8xf32>) -> tensor<8xf64> {
    ^bb0(%a: f32):
      %e = arith.extf %a : f32 to f64
      motif.yield %e : f64
    }
    %g = motif.materialize %v in global : tensor<8xf64>
    motif.yield %g : tensor<8xf64>
  }
  return %y : tensor<8xf64>
}

// -----

func.func @reduce_into_bf16(%x: tensor<4x32xbf16>) -> tensor<4xbf16> {
  %y = motif.kernel "k" threads(32) -> tensor<4xbf16> {
    // expected-error @+1 {{'motif.reduce' op result #0 holds 'bf16': a reduction accumulates in f32, its result type (round it in a motif.map)}}
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<4x32xbf16>) -> tensor<4xbf16>
    %g = motif.materialize %m in global : tensor<4xbf16>
    motif.yield %g : tensor<4xbf16>
  }
  return %y : tensor<4xbf16>
}

// -----

func.func @reduce_f32_into_f16(%x: tensor<4x32xf32>) -> tensor<4xf16> {
  %y = motif.kernel "k" threads(32) -> tensor<4xf16> {
    // expected-error @+1 {{'motif.reduce' op result #0 holds 'f16': a reduction accumulates in f32}}
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<4x32xf32>) -> tensor<4xf16>
    %g = motif.materialize %m in global : tensor<4xf16>
    motif.yield %g : tensor<4xf16>
  }
  return %y : tensor<4xf16>
}

// -----

func.func @combiner_region_on_bf16(%x: tensor<4x32xbf16>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4xf32> {
    // expected-error @+1 {{'motif.reduce' op input #0 holds 'bf16': a combiner region folds f32 states (extend the input to f32 in a motif.map first)}}
    %m = motif.reduce (%x[i, j]) -> [i] init [0.0 : bf16] over [block, thread]
           : (tensor<4x32xbf16>) -> tensor<4xf32> combiner {
    ^bb0(%a: bf16, %b: bf16):
      %s = arith.addf %a, %b : bf16
      motif.yield %s : bf16
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @contract_mixed(%a: tensor<4x32xbf16>, %b: tensor<4x32xf16>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4xf32> {
    // expected-error @+1 {{'motif.contract' op multiplies 'bf16' by 'f16': both operands of a contraction hold the same type}}
    %s = motif.contract (%a[i, j], %b[i, j]) -> [i] over [block, thread]
           : (tensor<4x32xbf16>, tensor<4x32xf16>) -> tensor<4xf32>
    %g = motif.materialize %s in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @contract_into_bf16(%a: tensor<4x32xbf16>) -> tensor<4xbf16> {
  %y = motif.kernel "k" threads(32) -> tensor<4xbf16> {
    // expected-error @+1 {{'motif.contract' op accumulates into 'bf16': a contraction accumulates in f32, its result type (round it in a motif.map)}}
    %s = motif.contract (%a[i, j], %a[i, j]) -> [i] over [block, thread]
           : (tensor<4x32xbf16>, tensor<4x32xbf16>) -> tensor<4xbf16>
    %g = motif.materialize %s in global : tensor<4xbf16>
    motif.yield %g : tensor<4xbf16>
  }
  return %y : tensor<4xbf16>
}

// -----

func.func @transpose_converts(%x: tensor<4x32xf32>) -> tensor<32x4xbf16> {
  %y = motif.kernel "k" threads(32) -> tensor<32x4xbf16> {
    // expected-error @+1 {{'motif.transpose' op moves 'f32' elements into a tensor of 'bf16': data movement keeps the element type (convert in a motif.map)}}
    %t = motif.transpose %x[i, j] -> [j, i] over [seq, thread]
           : (tensor<4x32xf32>) -> tensor<32x4xbf16>
    %g = motif.materialize %t in global : tensor<32x4xbf16>
    motif.yield %g : tensor<32x4xbf16>
  }
  return %y : tensor<32x4xbf16>
}

// -----

func.func @broadcast_converts(%x: tensor<32xf16>) -> tensor<4x32xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4x32xf32> {
    // expected-error @+1 {{'motif.broadcast' op moves 'f16' elements into a tensor of 'f32'}}
    %t = motif.broadcast %x[j] -> [i, j] over [seq, thread]
           : (tensor<32xf16>) -> tensor<4x32xf32>
    %g = motif.materialize %t in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  return %y : tensor<4x32xf32>
}

// -----

func.func @materialize_integer(%x: tensor<8xi16>) -> tensor<8xi16> {
  %y = motif.kernel "k" threads(8) -> tensor<8xi16> {
    // expected-error @+1 {{'motif.materialize' op holds 'i16': motif tensors hold f32, f16 or bf16 elements}}
    %g = motif.materialize %x in global : tensor<8xi16>
    motif.yield %g : tensor<8xi16>
  }
  return %y : tensor<8xi16>
}

// -----

func.func @body_arg_mismatch(%x: tensor<8xbf16>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(8) -> tensor<8xf32> {
    // expected-error @+1 {{'motif.map' op body must take 1 scalar arguments (bf16)}}
    %v = motif.map (%x[i]) -> [i] over [thread] : (tensor<8xbf16>) -> tensor<8xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %v in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}
