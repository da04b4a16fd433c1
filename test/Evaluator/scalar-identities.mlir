// Identities between body ops on random inputs: each function here computes
// what its namesake in Inputs/scalar-identities.mlir computes, through other
// ops. Exact identities are checked bitwise, the others to the tolerance class
// (rel err <= 1e-5 against the f64 reference). Two negatives show the checks
// can fail: atan2's operand order and fmod vs IEEE remainder.
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=exp2 --class=tolerance --seed=1 | FileCheck %s --check-prefix=EXP2
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=log2 --class=tolerance --seed=1 | FileCheck %s --check-prefix=LOG2
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=log10 --class=tolerance --seed=1 | FileCheck %s --check-prefix=LOG10
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=log1p --class=tolerance --seed=1 | FileCheck %s --check-prefix=LOG1P
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=expm1 --class=tolerance --seed=1 | FileCheck %s --check-prefix=EXPM1
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=pythagoras --class=tolerance --seed=1 | FileCheck %s --check-prefix=PYTHAGORAS
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=tan --class=tolerance --seed=1 | FileCheck %s --check-prefix=TAN
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=sinh --class=tolerance --seed=1 | FileCheck %s --check-prefix=SINH
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=cosh --class=tolerance --seed=1 | FileCheck %s --check-prefix=COSH
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=cbrt --class=tolerance --seed=1 | FileCheck %s --check-prefix=CBRT
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=atan --class=tolerance --seed=1 | FileCheck %s --check-prefix=ATAN
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=atan2 --class=tolerance --seed=1 | FileCheck %s --check-prefix=ATAN2
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=erfc --class=tolerance --seed=1 | FileCheck %s --check-prefix=ERFC
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=asin --class=tolerance --seed=1 | FileCheck %s --check-prefix=ASIN
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=acos --class=tolerance --seed=1 | FileCheck %s --check-prefix=ACOS
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=asinh --class=tolerance --seed=1 | FileCheck %s --check-prefix=ASINH
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=acosh --class=tolerance --seed=1 | FileCheck %s --check-prefix=ACOSH
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=atanh --class=tolerance --seed=1 | FileCheck %s --check-prefix=ATANH
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=fpowi --class=tolerance --seed=1 | FileCheck %s --check-prefix=FPOWI
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=copysign --class=bitwise --seed=1 | FileCheck %s --check-prefix=COPYSIGN
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=remf --class=bitwise --seed=1 | FileCheck %s --check-prefix=REMF
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=round --class=bitwise --seed=1 | FileCheck %s --check-prefix=ROUND
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=roundeven --class=bitwise --seed=1 | FileCheck %s --check-prefix=ROUNDEVEN
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=floor_ceil --class=bitwise --seed=1 | FileCheck %s --check-prefix=FLOOR-CEIL
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=fptosi --class=bitwise --seed=1 | FileCheck %s --check-prefix=FPTOSI
// RUN: motif-equiv %S/Inputs/scalar-identities.mlir %s --function=bitcast --class=bitwise --seed=1 | FileCheck %s --check-prefix=BITCAST
// RUN: not motif-equiv %S/Inputs/scalar-identities.mlir %s --function=atan2_swapped --class=tolerance --seed=1 | FileCheck %s --check-prefix=ATAN2-SWAPPED
// RUN: not motif-equiv %S/Inputs/scalar-identities.mlir %s --function=remf_is_not_remainder --class=tolerance --seed=1 | FileCheck %s --check-prefix=REMF-IS-NOT-REMAINDER

// exp2(x) = exp(x ln 2)
// EXP2: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// EXP2-NEXT: @exp2: PASS
func.func @exp2(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "exp2" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.constant 0.693147182 : f32
      %t = arith.mulf %a, %c : f32
      %r = math.exp %t : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// log2(p) = log(p) / ln 2, p = |x| + 1
// LOG2: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// LOG2-NEXT: @log2: PASS
func.func @log2(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "log2" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %pos = math.absf %a : f32
      %one = arith.constant 1.0 : f32
      %p = arith.addf %pos, %one : f32
      %l = math.log %p : f32
      %c = arith.constant 1.44269502 : f32
      %r = arith.mulf %l, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// log10(p) = log(p) / ln 10
// LOG10: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// LOG10-NEXT: @log10: PASS
func.func @log10(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "log10" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %pos = math.absf %a : f32
      %one = arith.constant 1.0 : f32
      %p = arith.addf %pos, %one : f32
      %l = math.log %p : f32
      %c = arith.constant 2.30258512 : f32
      %r = arith.divf %l, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// log1p(|x|) = log(1 + |x|)
// LOG1P: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// LOG1P-NEXT: @log1p: PASS
func.func @log1p(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "log1p" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %pos = math.absf %a : f32
      %one = arith.constant 1.0 : f32
      %p = arith.addf %pos, %one : f32
      %r = math.log %p : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// expm1(x) = exp(x) - 1
// EXPM1: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// EXPM1-NEXT: @expm1: PASS
func.func @expm1(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "expm1" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %e = math.exp %a : f32
      %one = arith.constant 1.0 : f32
      %r = arith.subf %e, %one : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// sin^2 + cos^2 = 1
// PYTHAGORAS: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// PYTHAGORAS-NEXT: @pythagoras: PASS
func.func @pythagoras(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "pythagoras" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.constant 1.0 : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// tan(u) = sin(u) / cos(u), u = tanh(x) in (-1, 1)
// TAN: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// TAN-NEXT: @tan: PASS
func.func @tan(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "tan" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %u = math.tanh %a : f32
      %s = math.sin %u : f32
      %c = math.cos %u : f32
      %r = arith.divf %s, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// sinh(x) = (exp(x) - exp(-x)) / 2
// SINH: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// SINH-NEXT: @sinh: PASS
func.func @sinh(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "sinh" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %e = math.exp %a : f32
      %n = arith.negf %a : f32
      %f = math.exp %n : f32
      %d = arith.subf %e, %f : f32
      %h = arith.constant 0.5 : f32
      %r = arith.mulf %d, %h : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// cosh(x) = (exp(x) + exp(-x)) / 2
// COSH: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// COSH-NEXT: @cosh: PASS
func.func @cosh(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "cosh" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %e = math.exp %a : f32
      %n = arith.negf %a : f32
      %f = math.exp %n : f32
      %d = arith.addf %e, %f : f32
      %h = arith.constant 0.5 : f32
      %r = arith.mulf %d, %h : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// cbrt(x)^3 = x, negative x too
// CBRT: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// CBRT-NEXT: @cbrt: PASS
func.func @cbrt(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "cbrt" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %z = arith.constant 0.0 : f32
      %r = arith.addf %a, %z : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// atan(x) = atan2(x, 1)
// ATAN: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// ATAN-NEXT: @atan: PASS
func.func @atan(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "atan" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %one = arith.constant 1.0 : f32
      %r = math.atan2 %a, %one : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// atan2(y, x) = atan(y/x), plus or minus pi when x < 0 (every quadrant)
// ATAN2: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// ATAN2-NEXT: @atan2: PASS
func.func @atan2(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "atan2" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %q = arith.divf %a, %b : f32
      %t = math.atan %q : f32
      %pi = arith.constant 3.14159274 : f32
      %up = arith.addf %t, %pi : f32
      %down = arith.subf %t, %pi : f32
      %z = arith.constant 0.0 : f32
      %yneg = arith.cmpf olt, %a, %z : f32
      %left = arith.select %yneg, %down, %up : f32
      %xneg = arith.cmpf olt, %b, %z : f32
      %r = arith.select %xneg, %left, %t : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// erfc(x) = 1 - erf(x)
// ERFC: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// ERFC-NEXT: @erfc: PASS
func.func @erfc(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "erfc" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %e = math.erf %a : f32
      %one = arith.constant 1.0 : f32
      %r = arith.subf %one, %e : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// asin(u) = atan2(u, sqrt((1 - u)(1 + u)))
// ASIN: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// ASIN-NEXT: @asin: PASS
func.func @asin(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "asin" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %u = math.tanh %a : f32
      %one = arith.constant 1.0 : f32
      %m = arith.subf %one, %u : f32
      %p = arith.addf %one, %u : f32
      %mp = arith.mulf %m, %p : f32
      %s = math.sqrt %mp : f32
      %r = math.atan2 %u, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// acos(u) = pi/2 - asin(u)
// ACOS: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// ACOS-NEXT: @acos: PASS
func.func @acos(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "acos" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %u = math.tanh %a : f32
      %s = math.asin %u : f32
      %h = arith.constant 1.57079637 : f32
      %r = arith.subf %h, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// asinh(|x|) = log(|x| + sqrt(x^2 + 1))
// ASINH: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// ASINH-NEXT: @asinh: PASS
func.func @asinh(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "asinh" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %pos = math.absf %a : f32
      %one = arith.constant 1.0 : f32
      %sq = arith.mulf %a, %a : f32
      %s1 = arith.addf %sq, %one : f32
      %s = math.sqrt %s1 : f32
      %t = arith.addf %pos, %s : f32
      %r = math.log %t : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// acosh(q) = log(q + sqrt((q - 1)(q + 1))), q = |x| + 1.5 (away from 1,
// where acosh amplifies the rounding of q)
// ACOSH: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// ACOSH-NEXT: @acosh: PASS
func.func @acosh(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "acosh" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %pos = math.absf %a : f32
      %c = arith.constant 1.5 : f32
      %q = arith.addf %pos, %c : f32
      %one = arith.constant 1.0 : f32
      %m = arith.subf %q, %one : f32
      %p = arith.addf %q, %one : f32
      %mp = arith.mulf %m, %p : f32
      %s = math.sqrt %mp : f32
      %t = arith.addf %q, %s : f32
      %r = math.log %t : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// atanh(u) = log((1 + u) / (1 - u)) / 2
// ATANH: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// ATANH-NEXT: @atanh: PASS
func.func @atanh(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "atanh" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %u = math.tanh %a : f32
      %one = arith.constant 1.0 : f32
      %p = arith.addf %one, %u : f32
      %m = arith.subf %one, %u : f32
      %q = arith.divf %p, %m : f32
      %l = math.log %q : f32
      %h = arith.constant 0.5 : f32
      %r = arith.mulf %l, %h : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// fpowi(x, 3) = x x x and fpowi(y, -2) = 1 / (y y)
// FPOWI: #0 tensor<64xf32> tolerance {{yes|no}} {{.*}} PASS
// FPOWI-NEXT: @fpowi: PASS
func.func @fpowi(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "fpowi" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %a2 = arith.mulf %a, %a : f32
      %c = arith.mulf %a2, %a : f32
      %b2 = arith.mulf %b, %b : f32
      %one = arith.constant 1.0 : f32
      %d = arith.divf %one, %b2 : f32
      %r = arith.addf %c, %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// copysign(x, y) = (y < 0 ? -|x| : |x|) (inputs are never zero)
// COPYSIGN: #0 tensor<64xf32> bitwise yes {{.*}} PASS
// COPYSIGN-NEXT: @copysign: PASS
func.func @copysign(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "copysign" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %pos = math.absf %a : f32
      %n = arith.negf %pos : f32
      %z = arith.constant 0.0 : f32
      %neg = arith.cmpf olt, %b, %z : f32
      %r = arith.select %neg, %n, %pos : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// remf(x, y) = x - t y with t = x/y truncated (fmod is exact, and so is the fma)
// REMF: #0 tensor<64xf32> bitwise yes {{.*}} PASS
// REMF-NEXT: @remf: PASS
func.func @remf(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "remf" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %q = arith.divf %a, %b : f32
      %i = arith.fptosi %q : f32 to i32
      %t = arith.sitofp %i : i32 to f32
      %nt = arith.negf %t : f32
      %r = math.fma %nt, %b, %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// round(v) = copysign(floor(|v| + 1/2), v), v = 4x (no ties in random data)
// ROUND: #0 tensor<64xf32> bitwise yes {{.*}} PASS
// ROUND-NEXT: @round: PASS
func.func @round(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "round" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.constant 4.0 : f32
      %v = arith.mulf %a, %c : f32
      %m = math.absf %v : f32
      %h = arith.constant 0.5 : f32
      %s = arith.addf %m, %h : f32
      %f = math.floor %s : f32
      %r = math.copysign %f, %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// roundeven(v) = round(v) away from ties
// ROUNDEVEN: #0 tensor<64xf32> bitwise yes {{.*}} PASS
// ROUNDEVEN-NEXT: @roundeven: PASS
func.func @roundeven(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "roundeven" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.constant 4.0 : f32
      %v = arith.mulf %a, %c : f32
      %r = math.round %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// floor(v) = -ceil(-v)
// FLOOR-CEIL: #0 tensor<64xf32> bitwise yes {{.*}} PASS
// FLOOR-CEIL-NEXT: @floor_ceil: PASS
func.func @floor_ceil(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "floor_ceil" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.constant 4.0 : f32
      %v = arith.mulf %a, %c : f32
      %n = arith.negf %v : f32
      %e = math.ceil %n : f32
      %r = arith.negf %e : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// sitofp(fptosi(v)) = copysign(floor(|v|), v) + 0: truncation toward zero
// (the + 0 makes -0 +0, as the integer round trip does)
// FPTOSI: #0 tensor<64xf32> bitwise yes {{.*}} PASS
// FPTOSI-NEXT: @fptosi: PASS
func.func @fptosi(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "fptosi" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.constant 4.0 : f32
      %v = arith.mulf %a, %c : f32
      %m = math.absf %v : f32
      %f = math.floor %m : f32
      %t = math.copysign %f, %v : f32
      %z = arith.constant 0.0 : f32
      %r = arith.addf %t, %z : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// flipping the sign bit through arith.bitcast is negf
// BITCAST: #0 tensor<64xf32> bitwise yes {{.*}} PASS
// BITCAST-NEXT: @bitcast: PASS
func.func @bitcast(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "bitcast" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.negf %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// negative: atan2(y, x) is not atan2(x, y)
// ATAN2-SWAPPED: #0 tensor<64xf32> tolerance no {{.*}} FAIL
// ATAN2-SWAPPED-NEXT: @atan2_swapped: FAIL
func.func @atan2_swapped(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "atan2_swapped" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = math.atan2 %b, %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// negative: remf is not IEEE remainder x - roundeven(x/y) y
// REMF-IS-NOT-REMAINDER: #0 tensor<64xf32> tolerance no {{.*}} FAIL
// REMF-IS-NOT-REMAINDER-NEXT: @remf_is_not_remainder: FAIL
func.func @remf_is_not_remainder(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "remf_is_not_remainder" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %q = arith.divf %a, %b : f32
      %t = math.roundeven %q : f32
      %nt = arith.negf %t : f32
      %r = math.fma %nt, %b, %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}
