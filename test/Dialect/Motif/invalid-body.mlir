// What a motif body may not hold: one case per reason verifyScalarBodyOp
// (lib/Dialect/Motif/IR/ScalarOps.cpp, the list in ScalarOps.def) gives.
// The dialect verifier (verifyScalarBody in MotifOps.cpp) calls it on every
// body op.
// RUN: motif-opt %s -split-input-file -verify-diagnostics

func.func @not_arith_or_math(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{'tensor.extract' op is not supported in a motif body: bodies hold scalar arith/math ops only}}
      %e = tensor.extract %x[%c0] : tensor<4xf32>
      motif.yield %e : f32
    }
  }
  return
}

// -----

func.func @not_in_the_list(%x: tensor<4xf32>) {
  %v = arith.constant 1.0 : f4E2M1FN
  %s = arith.constant 1.0 : f8E8M0FNU
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      // expected-error @+1 {{'arith.scaling_extf' op is not supported in a motif body: it is not in the list of body ops (ScalarOps.def, docs/dialect.md)}}
      %r = arith.scaling_extf %v, %s : f4E2M1FN, f8E8M0FNU to f32
      motif.yield %r : f32
    }
  }
  return
}

// -----

func.func @no_nvvm_lowering(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      // expected-error @+1 {{'math.trunc' op is not supported in a motif body: convert-gpu-to-nvvm has no lowering for it (it would reach the PTX translation unconverted)}}
      %r = math.trunc %a : f32
      motif.yield %r : f32
    }
  }
  return
}

// -----

func.func @lowered_for_i32_only(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %i = arith.fptosi %a : f32 to i32
      // expected-error @+1 {{'math.absi' op is not supported in a motif body: convert-gpu-to-nvvm lowers it for i32 only}}
      %b = math.absi %i : i32
      %r = arith.sitofp %b : i32 to f32
      motif.yield %r : f32
    }
  }
  return
}

// -----

func.func @undefined_for_some_operands(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %i = arith.fptosi %a : f32 to i32
      // expected-error @+1 {{'arith.divsi' op is not supported in a motif body: its result is undefined for some operands (a zero divisor, an overflowing quotient, a shift by the bit width or more), which the evaluator cannot define}}
      %q = arith.divsi %i, %i : i32
      %r = arith.sitofp %q : i32 to f32
      motif.yield %r : f32
    }
  }
  return
}

// -----

func.func @several_results(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      // expected-error @+1 {{'math.sincos' op is not supported in a motif body: it has several results; the evaluator runs single-result ops}}
      %s, %c = math.sincos %a : f32
      %r = arith.addf %s, %c : f32
      motif.yield %r : f32
    }
  }
  return
}

// -----

func.func @result_type(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      // expected-error @+1 {{'arith.truncf' op is not supported in a motif body: result #0 has type 'f8E5M2'; body values are f32, f16, bf16, f64, integers of 1 to 64 bits or index}}
      %h = arith.truncf %a : f32 to f8E5M2
      %r = arith.extf %h : f8E5M2 to f32
      motif.yield %r : f32
    }
  }
  return
}

// -----

func.func @vector_constant(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      // expected-error @+1 {{'arith.constant' op is not supported in a motif body: result #0 has type 'vector<4xf32>'; body values are f32, f16, bf16, f64, integers of 1 to 64 bits or index}}
      %v = arith.constant dense<1.0> : vector<4xf32>
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @wide_integer(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      // expected-error @+1 {{'arith.fptosi' op is not supported in a motif body: result #0 has type 'i128'; body values are f32, f16, bf16, f64, integers of 1 to 64 bits or index}}
      %i = arith.fptosi %a : f32 to i128
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @operand_type(%x: tensor<4xf32>) {
  %h = arith.constant 1.0 : f8E5M2
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      // expected-error @+1 {{'arith.extf' op is not supported in a motif body: operand #0 has type 'f8E5M2'; body values are f32, f16, bf16, f64, integers of 1 to 64 bits or index}}
      %r = arith.extf %h : f8E5M2 to f32
      motif.yield %r : f32
    }
  }
  return
}

// -----

func.func @defined_outside(%x: tensor<4xf32>) {
  %c = arith.constant 2.0 : f32
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      // expected-error @+1 {{'arith.mulf' op is not supported in a motif body: operand #1 is defined outside the body; a body is self-contained scalar code}}
      %r = arith.mulf %a, %c : f32
      motif.yield %r : f32
    }
  }
  return
}

// -----

func.func @yield_defined_outside(%x: tensor<4xf32>) {
  %c = arith.constant 2.0 : f32
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      // expected-error @+1 {{'motif.yield' op is not supported in a motif body: operand #0 is defined outside the body; a body is self-contained scalar code}}
      motif.yield %c : f32
    }
  }
  return
}

// -----

func.func @rounding_mode(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %w = arith.extf %a : f32 to f64
      // expected-error @+1 {{'arith.truncf' op is not supported in a motif body: rounding mode 'upward'; the evaluator rounds to nearest even only}}
      %r = arith.truncf %w upward : f64 to f32
      motif.yield %r : f32
    }
  }
  return
}

// -----

func.func @fpowi_exponent(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %n = arith.fptosi %a : f32 to i64
      // expected-error @+1 {{'math.fpowi' op is not supported in a motif body: the exponent is 'i64'; libdevice's __nv_powif and __nv_powi take an i32 exponent}}
      %r = math.fpowi %a, %n : f32, i64
      motif.yield %r : f32
    }
  }
  return
}

// -----

func.func @combiner(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %s = motif.reduce (%x[i]) -> [] init [0.0 : f32] over [thread] : (tensor<4xf32>) -> tensor<f32> combiner {
    ^bb0(%acc: f32, %v: f32):
      %i = arith.fptosi %v : f32 to i32
      // expected-error @+1 {{'arith.remsi' op is not supported in a motif body: its result is undefined for some operands}}
      %q = arith.remsi %i, %i : i32
      %f = arith.sitofp %q : i32 to f32
      %r = arith.addf %acc, %f : f32
      motif.yield %r : f32
    }
  }
  return
}

// -----

// motif.ftz (ScalarOps.h) is honored on an f32 math.exp2 only.
func.func @ftz_not_on_exp2(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      // expected-error @+1 {{'math.exp' op is not supported in a motif body: 'motif.ftz' applies to an f32 math.exp2 only}}
      %r = math.exp %a {motif.ftz} : f32
      motif.yield %r : f32
    }
  }
  return
}

// -----

func.func @ftz_not_f32(%x: tensor<4xbf16>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xbf16>) -> tensor<4xbf16> {
    ^bb0(%a: bf16):
      // expected-error @+1 {{'math.exp2' op is not supported in a motif body: 'motif.ftz' applies to an f32 math.exp2 only}}
      %r = math.exp2 %a {motif.ftz} : bf16
      motif.yield %r : bf16
    }
  }
  return
}

// -----

func.func @ftz_not_unit(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      // expected-error @+1 {{'math.exp2' op is not supported in a motif body: 'motif.ftz' is a unit attribute}}
      %r = math.exp2 %a {motif.ftz = 1 : i32} : f32
      motif.yield %r : f32
    }
  }
  return
}
