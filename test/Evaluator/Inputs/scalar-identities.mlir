// The left-hand sides of test/Evaluator/scalar-identities.mlir.

// exp2(x) = exp(x ln 2)
func.func @exp2(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "exp2" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = math.exp2 %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// log2(p) = log(p) / ln 2, p = |x| + 1
func.func @log2(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "log2" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %pos = math.absf %a : f32
      %one = arith.constant 1.0 : f32
      %p = arith.addf %pos, %one : f32
      %r = math.log2 %p : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// log10(p) = log(p) / ln 10
func.func @log10(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "log10" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %pos = math.absf %a : f32
      %one = arith.constant 1.0 : f32
      %p = arith.addf %pos, %one : f32
      %r = math.log10 %p : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// log1p(|x|) = log(1 + |x|)
func.func @log1p(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "log1p" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %pos = math.absf %a : f32
      %r = math.log1p %pos : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// expm1(x) = exp(x) - 1
func.func @expm1(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "expm1" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = math.expm1 %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// sin^2 + cos^2 = 1
func.func @pythagoras(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "pythagoras" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %s = math.sin %a : f32
      %c = math.cos %a : f32
      %s2 = arith.mulf %s, %s : f32
      %c2 = arith.mulf %c, %c : f32
      %r = arith.addf %s2, %c2 : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// tan(u) = sin(u) / cos(u), u = tanh(x) in (-1, 1)
func.func @tan(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "tan" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %u = math.tanh %a : f32
      %r = math.tan %u : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// sinh(x) = (exp(x) - exp(-x)) / 2
func.func @sinh(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "sinh" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = math.sinh %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// cosh(x) = (exp(x) + exp(-x)) / 2
func.func @cosh(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "cosh" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = math.cosh %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// cbrt(x)^3 = x, negative x too
func.func @cbrt(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "cbrt" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = math.cbrt %a : f32
      %c2 = arith.mulf %c, %c : f32
      %r = arith.mulf %c2, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// atan(x) = atan2(x, 1)
func.func @atan(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "atan" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = math.atan %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// atan2(y, x) = atan(y/x), plus or minus pi when x < 0 (every quadrant)
func.func @atan2(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "atan2" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = math.atan2 %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// erfc(x) = 1 - erf(x)
func.func @erfc(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "erfc" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = math.erfc %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// asin(u) = atan2(u, sqrt((1 - u)(1 + u)))
func.func @asin(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "asin" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %u = math.tanh %a : f32
      %r = math.asin %u : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// acos(u) = pi/2 - asin(u)
func.func @acos(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "acos" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %u = math.tanh %a : f32
      %r = math.acos %u : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// asinh(|x|) = log(|x| + sqrt(x^2 + 1))
func.func @asinh(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "asinh" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %pos = math.absf %a : f32
      %r = math.asinh %pos : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// acosh(q) = log(q + sqrt((q - 1)(q + 1))), q = |x| + 1.5 (away from 1,
// where acosh amplifies the rounding of q)
func.func @acosh(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "acosh" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %pos = math.absf %a : f32
      %c = arith.constant 1.5 : f32
      %q = arith.addf %pos, %c : f32
      %r = math.acosh %q : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// atanh(u) = log((1 + u) / (1 - u)) / 2
func.func @atanh(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "atanh" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %u = math.tanh %a : f32
      %r = math.atanh %u : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// fpowi(x, 3) = x x x and fpowi(y, -2) = 1 / (y y)
func.func @fpowi(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "fpowi" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %n3 = arith.constant 3 : i32
      %c = math.fpowi %a, %n3 : f32, i32
      %nm2 = arith.constant -2 : i32
      %d = math.fpowi %b, %nm2 : f32, i32
      %r = arith.addf %c, %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// copysign(x, y) = (y < 0 ? -|x| : |x|) (inputs are never zero)
func.func @copysign(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "copysign" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = math.copysign %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// remf(x, y) = x - t y with t = x/y truncated (fmod is exact, and so is the fma)
func.func @remf(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "remf" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.remf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// round(v) = copysign(floor(|v| + 1/2), v), v = 4x (no ties in random data)
func.func @round(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "round" threads(64) -> tensor<64xf32> {
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

// roundeven(v) = round(v) away from ties
func.func @roundeven(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "roundeven" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.constant 4.0 : f32
      %v = arith.mulf %a, %c : f32
      %r = math.roundeven %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// floor(v) = -ceil(-v)
func.func @floor_ceil(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "floor_ceil" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.constant 4.0 : f32
      %v = arith.mulf %a, %c : f32
      %r = math.floor %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// sitofp(fptosi(v)) = copysign(floor(|v|), v) + 0: truncation toward zero
// (the + 0 makes -0 +0, as the integer round trip does)
func.func @fptosi(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "fptosi" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %c = arith.constant 4.0 : f32
      %v = arith.mulf %a, %c : f32
      %i = arith.fptosi %v : f32 to i32
      %r = arith.sitofp %i : i32 to f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// flipping the sign bit through arith.bitcast is negf
func.func @bitcast(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "bitcast" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %i = arith.bitcast %a : f32 to i32
      %s = arith.constant -2147483648 : i32
      %j = arith.xori %i, %s : i32
      %r = arith.bitcast %j : i32 to f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// negative: atan2(y, x) is not atan2(x, y)
func.func @atan2_swapped(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "atan2_swapped" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = math.atan2 %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}

// negative: remf is not IEEE remainder x - roundeven(x/y) y
func.func @remf_is_not_remainder(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %o = motif.kernel "remf_is_not_remainder" threads(64) -> tensor<64xf32> {
    %m = motif.map (%x[i], %y[i]) -> [i] over [thread] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.remf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %o : tensor<64xf32>
}
