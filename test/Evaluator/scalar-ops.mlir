// Every op of ScalarOps.def on chosen operands (edge cases where semantics
// differ: ties, signed zeros, negative operands, quadrants, saturation), each
// an output of its own; the expected values are computed independently
// (Python's math module, rounded to f32; exact ones written out). Each line
// also shows the f32-vs-f64 difference: 0 for exact ops, so f64 mode agrees.
// The literal operands are constants in the body, so the random inputs do not
// matter.
// The program test/Pipeline/scalar-ops-*.test lower (every op, f32 and f64,
// integers, a combiner) is evaluated too: finite, f32 close to f64.
// RUN: motif-equiv --run %S/../Pipeline/Inputs/scalar-ops.mlir --seed=1 | FileCheck %s --check-prefix=ALL
// ALL-LABEL: @scalar_ops: seed 1
// ALL-NEXT: #0 tensor<256xf32> sum {{-?[0-9]}}{{.*}} rel-err f32 vs f64 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// ALL-NEXT: #1 tensor<256xf32> sum {{-?[0-9]}}{{.*}} rel-err f32 vs f64 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// ALL-NEXT: #2 tensor<256xf32> sum {{-?[0-9]}}{{.*}} rel-err f32 vs f64 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}
// ALL-NEXT: #3 tensor<f32> sum {{-?[0-9]}}{{.*}} rel-err f32 vs f64 {{[0-9.]+e-(0[6-9]|[1-9][0-9])}}

// RUN: motif-equiv --run %s --function=round --seed=1 | FileCheck %s --check-prefix=ROUND
// RUN: motif-equiv --run %s --function=roundeven --seed=1 | FileCheck %s --check-prefix=ROUNDEVEN
// RUN: motif-equiv --run %s --function=floor_ceil --seed=1 | FileCheck %s --check-prefix=FLOOR-CEIL
// RUN: motif-equiv --run %s --function=remf --seed=1 | FileCheck %s --check-prefix=REMF
// RUN: motif-equiv --run %s --function=copysign --seed=1 | FileCheck %s --check-prefix=COPYSIGN
// RUN: motif-equiv --run %s --function=atan2 --seed=1 | FileCheck %s --check-prefix=ATAN2
// RUN: motif-equiv --run %s --function=fpowi --seed=1 | FileCheck %s --check-prefix=FPOWI
// RUN: motif-equiv --run %s --function=classify --seed=1 | FileCheck %s --check-prefix=CLASSIFY
// RUN: motif-equiv --run %s --function=exp_log --seed=1 | FileCheck %s --check-prefix=EXP-LOG
// RUN: motif-equiv --run %s --function=exp2_ftz --seed=1 | FileCheck %s --check-prefix=EXP2-FTZ
// RUN: motif-equiv --run %s --function=trig --seed=1 | FileCheck %s --check-prefix=TRIG
// RUN: motif-equiv --run %s --function=hyperbolic --seed=1 | FileCheck %s --check-prefix=HYPERBOLIC
// RUN: motif-equiv --run %s --function=special --seed=1 | FileCheck %s --check-prefix=SPECIAL
// RUN: motif-equiv --run %s --function=older --seed=1 | FileCheck %s --check-prefix=OLDER
// RUN: motif-equiv --run %s --function=f64_math --seed=1 | FileCheck %s --check-prefix=F64-MATH
// RUN: motif-equiv --run %s --function=int_arith --seed=1 | FileCheck %s --check-prefix=INT-ARITH
// RUN: motif-equiv --run %s --function=int_casts --seed=1 | FileCheck %s --check-prefix=INT-CASTS
// RUN: motif-equiv --run %s --function=bitcast_truncf --seed=1 | FileCheck %s --check-prefix=BITCAST-TRUNCF

// math.round: half-way cases away from zero.
// ROUND-LABEL: @round: seed 1
// ROUND-NEXT: #0 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUND-NEXT: #1 tensor<1xf32> sum {{.*}} first [2.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUND-NEXT: #2 tensor<1xf32> sum {{.*}} first [3.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUND-NEXT: #3 tensor<1xf32> sum {{.*}} first [-3.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUND-NEXT: #4 tensor<1xf32> sum {{.*}} first [-0.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUND-NEXT: #5 tensor<1xf32> sum {{.*}} first [3.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUND-NEXT: #6 tensor<1xf32> sum {{.*}} first [-1.0000000e+00] rel-err f32 vs f64 0.00e+00
func.func @round(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5, %o6 = motif.kernel "round" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: round(0.5) = 1.0000000e+00
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0.5 : f32
      %r = math.round %c0 : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: round(1.5) = 2.0000000e+00
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.5 : f32
      %r = math.round %c0 : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: round(2.5) = 3.0000000e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.5 : f32
      %r = math.round %c0 : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: round(-2.5) = -3.0000000e+00
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -2.5 : f32
      %r = math.round %c0 : f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: round(-0.4) = -0.0000000e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -0.4 : f32
      %r = math.round %c0 : f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: round(2.5) in f64 = 3.0000000e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.5 : f64
      %v = math.round %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    // #6: round(-0.5) in f64 = -1.0000000e+00
    %m6 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -0.5 : f64
      %v = math.round %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g6 = motif.materialize %m6 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5, %g6 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// math.roundeven: half-way cases to even.
// ROUNDEVEN-LABEL: @roundeven: seed 1
// ROUNDEVEN-NEXT: #0 tensor<1xf32> sum {{.*}} first [0.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUNDEVEN-NEXT: #1 tensor<1xf32> sum {{.*}} first [2.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUNDEVEN-NEXT: #2 tensor<1xf32> sum {{.*}} first [2.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUNDEVEN-NEXT: #3 tensor<1xf32> sum {{.*}} first [-2.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUNDEVEN-NEXT: #4 tensor<1xf32> sum {{.*}} first [-0.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUNDEVEN-NEXT: #5 tensor<1xf32> sum {{.*}} first [3.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUNDEVEN-NEXT: #6 tensor<1xf32> sum {{.*}} first [2.0000000e+00] rel-err f32 vs f64 0.00e+00
// ROUNDEVEN-NEXT: #7 tensor<1xf32> sum {{.*}} first [4.0000000e+00] rel-err f32 vs f64 0.00e+00
func.func @roundeven(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7 = motif.kernel "roundeven" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: roundeven(0.5) = 0.0000000e+00
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0.5 : f32
      %r = math.roundeven %c0 : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: roundeven(1.5) = 2.0000000e+00
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.5 : f32
      %r = math.roundeven %c0 : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: roundeven(2.5) = 2.0000000e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.5 : f32
      %r = math.roundeven %c0 : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: roundeven(-2.5) = -2.0000000e+00
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -2.5 : f32
      %r = math.roundeven %c0 : f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: roundeven(-0.5) = -0.0000000e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -0.5 : f32
      %r = math.roundeven %c0 : f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: roundeven(2.50000024), just above a tie = 3.0000000e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.50000024 : f32
      %r = math.roundeven %c0 : f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    // #6: roundeven(2.5) in f64 = 2.0000000e+00
    %m6 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.5 : f64
      %v = math.roundeven %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g6 = motif.materialize %m6 in global : tensor<1xf32>
    // #7: roundeven(3.5) in f64 = 4.0000000e+00
    %m7 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 3.5 : f64
      %v = math.roundeven %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g7 = motif.materialize %m7 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5, %g6, %g7 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// math.floor and math.ceil, negative operands and signed zeros.
// FLOOR-CEIL-LABEL: @floor_ceil: seed 1
// FLOOR-CEIL-NEXT: #0 tensor<1xf32> sum {{.*}} first [-2.0000000e+00] rel-err f32 vs f64 0.00e+00
// FLOOR-CEIL-NEXT: #1 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
// FLOOR-CEIL-NEXT: #2 tensor<1xf32> sum {{.*}} first [-0.0000000e+00] rel-err f32 vs f64 0.00e+00
// FLOOR-CEIL-NEXT: #3 tensor<1xf32> sum {{.*}} first [-1.0000000e+00] rel-err f32 vs f64 0.00e+00
// FLOOR-CEIL-NEXT: #4 tensor<1xf32> sum {{.*}} first [2.0000000e+00] rel-err f32 vs f64 0.00e+00
// FLOOR-CEIL-NEXT: #5 tensor<1xf32> sum {{.*}} first [-0.0000000e+00] rel-err f32 vs f64 0.00e+00
// FLOOR-CEIL-NEXT: #6 tensor<1xf32> sum {{.*}} first [-3.0000000e+00] rel-err f32 vs f64 0.00e+00
// FLOOR-CEIL-NEXT: #7 tensor<1xf32> sum {{.*}} first [-2.0000000e+00] rel-err f32 vs f64 0.00e+00
func.func @floor_ceil(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7 = motif.kernel "floor_ceil" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: floor(-1.5) = -2.0000000e+00
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -1.5 : f32
      %r = math.floor %c0 : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: floor(1.5) = 1.0000000e+00
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.5 : f32
      %r = math.floor %c0 : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: floor(-0.0) = -0.0000000e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -0.0 : f32
      %r = math.floor %c0 : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: ceil(-1.5) = -1.0000000e+00
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -1.5 : f32
      %r = math.ceil %c0 : f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: ceil(1.5) = 2.0000000e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.5 : f32
      %r = math.ceil %c0 : f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: ceil(-0.5) = -0.0000000e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -0.5 : f32
      %r = math.ceil %c0 : f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    // #6: floor(-2.5) in f64 = -3.0000000e+00
    %m6 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -2.5 : f64
      %v = math.floor %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g6 = motif.materialize %m6 in global : tensor<1xf32>
    // #7: ceil(-2.5) in f64 = -2.0000000e+00
    %m7 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -2.5 : f64
      %v = math.ceil %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g7 = motif.materialize %m7 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5, %g6, %g7 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// arith.remf is LLVM's frem, C's fmod: the sign of the dividend
// (IEEE remainder would give 5.5 rem 2 = -0.5, 7 rem 2.5 = -0.5).
// REMF-LABEL: @remf: seed 1
// REMF-NEXT: #0 tensor<1xf32> sum {{.*}} first [1.5000000e+00] rel-err f32 vs f64 0.00e+00
// REMF-NEXT: #1 tensor<1xf32> sum {{.*}} first [-1.5000000e+00] rel-err f32 vs f64 0.00e+00
// REMF-NEXT: #2 tensor<1xf32> sum {{.*}} first [1.5000000e+00] rel-err f32 vs f64 0.00e+00
// REMF-NEXT: #3 tensor<1xf32> sum {{.*}} first [-1.5000000e+00] rel-err f32 vs f64 0.00e+00
// REMF-NEXT: #4 tensor<1xf32> sum {{.*}} first [2.0000000e+00] rel-err f32 vs f64 0.00e+00
// REMF-NEXT: #5 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
// REMF-NEXT: #6 tensor<1xf32> sum {{.*}} first [-0.0000000e+00] rel-err f32 vs f64 0.00e+00
// REMF-NEXT: #7 tensor<1xf32> sum {{.*}} first [-2.0000000e+00] rel-err f32 vs f64 0.00e+00
func.func @remf(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7 = motif.kernel "remf" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: remf(5.5, 2) = 1.5000000e+00
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 5.5 : f32
      %c1 = arith.constant 2.0 : f32
      %r = arith.remf %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: remf(-5.5, 2) = -1.5000000e+00
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -5.5 : f32
      %c1 = arith.constant 2.0 : f32
      %r = arith.remf %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: remf(5.5, -2) = 1.5000000e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 5.5 : f32
      %c1 = arith.constant -2.0 : f32
      %r = arith.remf %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: remf(-5.5, -2) = -1.5000000e+00
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -5.5 : f32
      %c1 = arith.constant -2.0 : f32
      %r = arith.remf %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: remf(7, 2.5) = 2.0000000e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 7.0 : f32
      %c1 = arith.constant 2.5 : f32
      %r = arith.remf %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: remf(1, inf) = 1.0000000e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %c1 = arith.constant 0x7F800000 : f32
      %r = arith.remf %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    // #6: remf(-4, 2) = -0.0000000e+00
    %m6 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -4.0 : f32
      %c1 = arith.constant 2.0 : f32
      %r = arith.remf %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g6 = motif.materialize %m6 in global : tensor<1xf32>
    // #7: remf(-7, 2.5) in f64 = -2.0000000e+00
    %m7 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -7.0 : f64
      %c1 = arith.constant 2.5 : f64
      %v = arith.remf %c0, %c1 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g7 = motif.materialize %m7 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5, %g6, %g7 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// math.copysign %a, %b: the magnitude of %a, the sign of %b.
// COPYSIGN-LABEL: @copysign: seed 1
// COPYSIGN-NEXT: #0 tensor<1xf32> sum {{.*}} first [-3.0000000e+00] rel-err f32 vs f64 0.00e+00
// COPYSIGN-NEXT: #1 tensor<1xf32> sum {{.*}} first [3.0000000e+00] rel-err f32 vs f64 0.00e+00
// COPYSIGN-NEXT: #2 tensor<1xf32> sum {{.*}} first [-3.0000000e+00] rel-err f32 vs f64 0.00e+00
// COPYSIGN-NEXT: #3 tensor<1xf32> sum {{.*}} first [0.0000000e+00] rel-err f32 vs f64 0.00e+00
// COPYSIGN-NEXT: #4 tensor<1xf32> sum {{.*}} first [-2.0000000e+00] rel-err f32 vs f64 0.00e+00
// COPYSIGN-NEXT: #5 tensor<1xf32> sum {{.*}} first [-3.0000000e+00] rel-err f32 vs f64 0.00e+00
func.func @copysign(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5 = motif.kernel "copysign" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: copysign(3, -0.0) = -3.0000000e+00
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 3.0 : f32
      %c1 = arith.constant -0.0 : f32
      %r = math.copysign %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: copysign(-3, 1) = 3.0000000e+00
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -3.0 : f32
      %c1 = arith.constant 1.0 : f32
      %r = math.copysign %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: copysign(3, -1) = -3.0000000e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 3.0 : f32
      %c1 = arith.constant -1.0 : f32
      %r = math.copysign %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: copysign(-0.0, 1) = 0.0000000e+00
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -0.0 : f32
      %c1 = arith.constant 1.0 : f32
      %r = math.copysign %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: copysign(2, -inf) = -2.0000000e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.0 : f32
      %c1 = arith.constant 0xFF800000 : f32
      %r = math.copysign %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: copysign(3, -0) in f64 = -3.0000000e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 3.0 : f64
      %c1 = arith.constant -0.0 : f64
      %v = math.copysign %c0, %c1 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// math.atan2 %y, %x: the angle of the point (x, y), in every quadrant and
// on the axes (signed zero picks the side of the cut).
// ATAN2-LABEL: @atan2: seed 1
// ATAN2-NEXT: #0 tensor<1xf32> sum {{.*}} first [7.85398{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// ATAN2-NEXT: #1 tensor<1xf32> sum {{.*}} first [2.35619{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// ATAN2-NEXT: #2 tensor<1xf32> sum {{.*}} first [-2.35619{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// ATAN2-NEXT: #3 tensor<1xf32> sum {{.*}} first [-7.85398{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// ATAN2-NEXT: #4 tensor<1xf32> sum {{.*}} first [3.14159{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// ATAN2-NEXT: #5 tensor<1xf32> sum {{.*}} first [-3.14159{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// ATAN2-NEXT: #6 tensor<1xf32> sum {{.*}} first [1.57079{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// ATAN2-NEXT: #7 tensor<1xf32> sum {{.*}} first [0.0000000e+00] rel-err f32 vs f64 0.00e+00
// ATAN2-NEXT: #8 tensor<1xf32> sum {{.*}} first [-2.35619{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
func.func @atan2(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8 = motif.kernel "atan2" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: atan2(1, 1) = 7.8539819e-01
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %c1 = arith.constant 1.0 : f32
      %r = math.atan2 %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: atan2(1, -1) = 2.3561945e+00
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %c1 = arith.constant -1.0 : f32
      %r = math.atan2 %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: atan2(-1, -1) = -2.3561945e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -1.0 : f32
      %c1 = arith.constant -1.0 : f32
      %r = math.atan2 %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: atan2(-1, 1) = -7.8539819e-01
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -1.0 : f32
      %c1 = arith.constant 1.0 : f32
      %r = math.atan2 %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: atan2(0.0, -1) = 3.1415927e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0.0 : f32
      %c1 = arith.constant -1.0 : f32
      %r = math.atan2 %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: atan2(-0.0, -1) = -3.1415927e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -0.0 : f32
      %c1 = arith.constant -1.0 : f32
      %r = math.atan2 %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    // #6: atan2(1, 0.0) = 1.5707964e+00
    %m6 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %c1 = arith.constant 0.0 : f32
      %r = math.atan2 %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g6 = motif.materialize %m6 in global : tensor<1xf32>
    // #7: atan2(0.0, 1) = 0.0000000e+00
    %m7 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0.0 : f32
      %c1 = arith.constant 1.0 : f32
      %r = math.atan2 %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g7 = motif.materialize %m7 in global : tensor<1xf32>
    // #8: atan2(-1, -1) in f64 = -2.3561945e+00
    %m8 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -1.0 : f64
      %c1 = arith.constant -1.0 : f64
      %v = math.atan2 %c0, %c1 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g8 = motif.materialize %m8 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5, %g6, %g7, %g8 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// math.fpowi: an integer power, negative bases and exponents.
// FPOWI-LABEL: @fpowi: seed 1
// FPOWI-NEXT: #0 tensor<1xf32> sum {{.*}} first [-8.0000000e+00] rel-err f32 vs f64 0.00e+00
// FPOWI-NEXT: #1 tensor<1xf32> sum {{.*}} first [2.5000000e-01] rel-err f32 vs f64 0.00e+00
// FPOWI-NEXT: #2 tensor<1xf32> sum {{.*}} first [-8.0000000e+00] rel-err f32 vs f64 0.00e+00
// FPOWI-NEXT: #3 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
// FPOWI-NEXT: #4 tensor<1xf32> sum {{.*}} first [2.2500000e+00] rel-err f32 vs f64 0.00e+00
// FPOWI-NEXT: #5 tensor<1xf32> sum {{.*}} first [-8.0000000e+00] rel-err f32 vs f64 0.00e+00
func.func @fpowi(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5 = motif.kernel "fpowi" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: fpowi(-2, 3) = -8.0000000e+00
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -2.0 : f32
      %n = arith.constant 3 : i32
      %r = math.fpowi %c0, %n : f32, i32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: fpowi(2, -2) = 2.5000000e-01
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.0 : f32
      %n = arith.constant -2 : i32
      %r = math.fpowi %c0, %n : f32, i32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: fpowi(-0.5, -3) = -8.0000000e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -0.5 : f32
      %n = arith.constant -3 : i32
      %r = math.fpowi %c0, %n : f32, i32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: fpowi(0.0, 0) = 1.0000000e+00
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0.0 : f32
      %n = arith.constant 0 : i32
      %r = math.fpowi %c0, %n : f32, i32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: fpowi(-1.5, 2) = 2.2500000e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -1.5 : f32
      %n = arith.constant 2 : i32
      %r = math.fpowi %c0, %n : f32, i32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: fpowi(-2, 3) in f64 = -8.0000000e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -2.0 : f64
      %n = arith.constant 3 : i32
      %v = math.fpowi %c0, %n : f64, i32
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// math.isnan, isinf, isfinite (1 when true).
// CLASSIFY-LABEL: @classify: seed 1
// CLASSIFY-NEXT: #0 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
// CLASSIFY-NEXT: #1 tensor<1xf32> sum {{.*}} first [0.0000000e+00] rel-err f32 vs f64 0.00e+00
// CLASSIFY-NEXT: #2 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
// CLASSIFY-NEXT: #3 tensor<1xf32> sum {{.*}} first [0.0000000e+00] rel-err f32 vs f64 0.00e+00
// CLASSIFY-NEXT: #4 tensor<1xf32> sum {{.*}} first [0.0000000e+00] rel-err f32 vs f64 0.00e+00
// CLASSIFY-NEXT: #5 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
func.func @classify(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5 = motif.kernel "classify" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: isnan(nan) = 1.0000000e+00
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0x7FC00000 : f32
      %p = math.isnan %c0 : f32
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %r = arith.select %p, %one, %zero : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: isnan(1.0) = 0.0000000e+00
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %p = math.isnan %c0 : f32
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %r = arith.select %p, %one, %zero : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: isinf(-inf) = 1.0000000e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0xFF800000 : f32
      %p = math.isinf %c0 : f32
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %r = arith.select %p, %one, %zero : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: isinf(nan) = 0.0000000e+00
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0x7FC00000 : f32
      %p = math.isinf %c0 : f32
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %r = arith.select %p, %one, %zero : f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: isfinite(inf) = 0.0000000e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0x7F800000 : f32
      %p = math.isfinite %c0 : f32
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %r = arith.select %p, %one, %zero : f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: isfinite(-3.0) = 1.0000000e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -3.0 : f32
      %p = math.isfinite %c0 : f32
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %r = arith.select %p, %one, %zero : f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// exp2, expm1, log2, log10, log1p against Python's math module.
// EXP-LOG-LABEL: @exp_log: seed 1
// EXP-LOG-NEXT: #0 tensor<1xf32> sum {{.*}} first [1.02400{{[0-9]+}}e+03] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// EXP-LOG-NEXT: #1 tensor<1xf32> sum {{.*}} first [3.53553{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// EXP-LOG-NEXT: #2 tensor<1xf32> sum {{.*}} first [1.00000{{[0-9]+}}e-06] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// EXP-LOG-NEXT: #3 tensor<1xf32> sum {{.*}} first [1.71828{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// EXP-LOG-NEXT: #4 tensor<1xf32> sum {{.*}} first [3.00000{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// EXP-LOG-NEXT: #5 tensor<1xf32> sum {{.*}} first [-3.32192{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// EXP-LOG-NEXT: #6 tensor<1xf32> sum {{.*}} first [3.00000{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// EXP-LOG-NEXT: #7 tensor<1xf32> sum {{.*}} first [3.01030{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// EXP-LOG-NEXT: #8 tensor<1xf32> sum {{.*}} first [9.99999{{[0-9]+}}e-08] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// EXP-LOG-NEXT: #9 tensor<1xf32> sum {{.*}} first [-6.93147{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// math.exp2 {motif.ftz} (ScalarOps.h; what ex2.approx.ftz.f32 computes): a
// subnormal result is +0 in f32 mode (the float64 reference keeps it: rel-err
// 1), a normal one is exp2's; without the attribute the subnormal stays.
// EXP2-FTZ-LABEL: @exp2_ftz: seed 1
// EXP2-FTZ-NEXT: #0 tensor<1xf32> sum {{.*}} first [7.34683{{[0-9]+}}e-40] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// EXP2-FTZ-NEXT: #1 tensor<1xf32> sum {{.*}} first [0.0000000e+00] rel-err f32 vs f64 1.00e+00
// EXP2-FTZ-NEXT: #2 tensor<1xf32> sum {{.*}} first [7.52316{{[0-9]+}}e-37] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
func.func @exp2_ftz(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2 = motif.kernel "exp2_ftz" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c = arith.constant -130.0 : f32
      %r = math.exp2 %c : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c = arith.constant -130.0 : f32
      %r = math.exp2 %c {motif.ftz} : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c = arith.constant -120.0 : f32
      %r = math.exp2 %c {motif.ftz} : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

func.func @exp_log(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9 = motif.kernel "exp_log" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: exp2(10.0) = 1.0240000e+03
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 10.0 : f32
      %r = math.exp2 %c0 : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: exp2(-1.5) = 3.5355338e-01
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -1.5 : f32
      %r = math.exp2 %c0 : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: expm1(1e-06) = 1.0000005e-06
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0e-06 : f32
      %r = math.expm1 %c0 : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: expm1(1.0) = 1.7182819e+00
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %r = math.expm1 %c0 : f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: log2(8.0) = 3.0000000e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 8.0 : f32
      %r = math.log2 %c0 : f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: log2(0.1) = -3.3219280e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0.1 : f32
      %r = math.log2 %c0 : f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    // #6: log10(1000.0) = 3.0000000e+00
    %m6 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1000.0 : f32
      %r = math.log10 %c0 : f32
      motif.yield %r : f32
    }
    %g6 = motif.materialize %m6 in global : tensor<1xf32>
    // #7: log10(2.0) = 3.0103001e-01
    %m7 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.0 : f32
      %r = math.log10 %c0 : f32
      motif.yield %r : f32
    }
    %g7 = motif.materialize %m7 in global : tensor<1xf32>
    // #8: log1p(1e-07) = 9.9999994e-08
    %m8 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0e-07 : f32
      %r = math.log1p %c0 : f32
      motif.yield %r : f32
    }
    %g8 = motif.materialize %m8 in global : tensor<1xf32>
    // #9: log1p(-0.5) = -6.9314718e-01
    %m9 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -0.5 : f32
      %r = math.log1p %c0 : f32
      motif.yield %r : f32
    }
    %g9 = motif.materialize %m9 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5, %g6, %g7, %g8, %g9 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// sin, cos, tan, asin, acos, atan.
// TRIG-LABEL: @trig: seed 1
// TRIG-NEXT: #0 tensor<1xf32> sum {{.*}} first [8.41470{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// TRIG-NEXT: #1 tensor<1xf32> sum {{.*}} first [-1.41120{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// TRIG-NEXT: #2 tensor<1xf32> sum {{.*}} first [5.40302{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// TRIG-NEXT: #3 tensor<1xf32> sum {{.*}} first [-9.89992{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// TRIG-NEXT: #4 tensor<1xf32> sum {{.*}} first [1.55740{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// TRIG-NEXT: #5 tensor<1xf32> sum {{.*}} first [5.23598{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// TRIG-NEXT: #6 tensor<1xf32> sum {{.*}} first [2.09439{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// TRIG-NEXT: #7 tensor<1xf32> sum {{.*}} first [7.85398{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// TRIG-NEXT: #8 tensor<1xf32> sum {{.*}} first [-1.47112{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
func.func @trig(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8 = motif.kernel "trig" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: sin(1.0) = 8.4147096e-01
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %r = math.sin %c0 : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: sin(-3.0) = -1.4112000e-01
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -3.0 : f32
      %r = math.sin %c0 : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: cos(1.0) = 5.4030228e-01
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %r = math.cos %c0 : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: cos(-3.0) = -9.8999250e-01
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -3.0 : f32
      %r = math.cos %c0 : f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: tan(1.0) = 1.5574077e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %r = math.tan %c0 : f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: asin(0.5) = 5.2359879e-01
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0.5 : f32
      %r = math.asin %c0 : f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    // #6: acos(-0.5) = 2.0943952e+00
    %m6 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -0.5 : f32
      %r = math.acos %c0 : f32
      motif.yield %r : f32
    }
    %g6 = motif.materialize %m6 in global : tensor<1xf32>
    // #7: atan(1.0) = 7.8539819e-01
    %m7 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %r = math.atan %c0 : f32
      motif.yield %r : f32
    }
    %g7 = motif.materialize %m7 in global : tensor<1xf32>
    // #8: atan(-10.0) = -1.4711276e+00
    %m8 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -10.0 : f32
      %r = math.atan %c0 : f32
      motif.yield %r : f32
    }
    %g8 = motif.materialize %m8 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5, %g6, %g7, %g8 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// sinh, cosh, asinh, acosh, atanh.
// HYPERBOLIC-LABEL: @hyperbolic: seed 1
// HYPERBOLIC-NEXT: #0 tensor<1xf32> sum {{.*}} first [1.17520{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// HYPERBOLIC-NEXT: #1 tensor<1xf32> sum {{.*}} first [-3.62686{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// HYPERBOLIC-NEXT: #2 tensor<1xf32> sum {{.*}} first [1.54308{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// HYPERBOLIC-NEXT: #3 tensor<1xf32> sum {{.*}} first [8.81373{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// HYPERBOLIC-NEXT: #4 tensor<1xf32> sum {{.*}} first [-1.81844{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// HYPERBOLIC-NEXT: #5 tensor<1xf32> sum {{.*}} first [1.31695{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// HYPERBOLIC-NEXT: #6 tensor<1xf32> sum {{.*}} first [5.49306{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// HYPERBOLIC-NEXT: #7 tensor<1xf32> sum {{.*}} first [-1.47221{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
func.func @hyperbolic(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7 = motif.kernel "hyperbolic" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: sinh(1.0) = 1.1752012e+00
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %r = math.sinh %c0 : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: sinh(-2.0) = -3.6268604e+00
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -2.0 : f32
      %r = math.sinh %c0 : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: cosh(1.0) = 1.5430807e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %r = math.cosh %c0 : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: asinh(1.0) = 8.8137358e-01
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %r = math.asinh %c0 : f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: asinh(-3.0) = -1.8184465e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -3.0 : f32
      %r = math.asinh %c0 : f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: acosh(2.0) = 1.3169580e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.0 : f32
      %r = math.acosh %c0 : f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    // #6: atanh(0.5) = 5.4930615e-01
    %m6 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0.5 : f32
      %r = math.atanh %c0 : f32
      motif.yield %r : f32
    }
    %g6 = motif.materialize %m6 in global : tensor<1xf32>
    // #7: atanh(-0.9) = -1.4722195e+00
    %m7 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -0.9 : f32
      %r = math.atanh %c0 : f32
      motif.yield %r : f32
    }
    %g7 = motif.materialize %m7 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5, %g6, %g7 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// cbrt (negative operands too), erf, erfc.
// SPECIAL-LABEL: @special: seed 1
// SPECIAL-NEXT: #0 tensor<1xf32> sum {{.*}} first [-3.00000{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// SPECIAL-NEXT: #1 tensor<1xf32> sum {{.*}} first [1.25992{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// SPECIAL-NEXT: #2 tensor<1xf32> sum {{.*}} first [5.20499{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// SPECIAL-NEXT: #3 tensor<1xf32> sum {{.*}} first [4.67773{{[0-9]+}}e-03] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// SPECIAL-NEXT: #4 tensor<1xf32> sum {{.*}} first [1.84270{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
func.func @special(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4 = motif.kernel "special" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: cbrt(-27.0) = -3.0000000e+00
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -27.0 : f32
      %r = math.cbrt %c0 : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: cbrt(2.0) = 1.2599211e+00
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.0 : f32
      %r = math.cbrt %c0 : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: erf(0.5) = 5.2049989e-01
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0.5 : f32
      %r = math.erf %c0 : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: erfc(2.0) = 4.6777348e-03
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.0 : f32
      %r = math.erfc %c0 : f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: erfc(-1.0) = 1.8427008e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -1.0 : f32
      %r = math.erfc %c0 : f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// The ops evaluated before: exp, log, sqrt, rsqrt, tanh, powf.
// OLDER-LABEL: @older: seed 1
// OLDER-NEXT: #0 tensor<1xf32> sum {{.*}} first [2.71828{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// OLDER-NEXT: #1 tensor<1xf32> sum {{.*}} first [2.30258{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// OLDER-NEXT: #2 tensor<1xf32> sum {{.*}} first [1.41421{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// OLDER-NEXT: #3 tensor<1xf32> sum {{.*}} first [5.00000{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// OLDER-NEXT: #4 tensor<1xf32> sum {{.*}} first [4.62117{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// OLDER-NEXT: #5 tensor<1xf32> sum {{.*}} first [1.41421{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
func.func @older(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5 = motif.kernel "older" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: exp(1.0) = 2.7182817e+00
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0 : f32
      %r = math.exp %c0 : f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: log(10.0) = 2.3025851e+00
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 10.0 : f32
      %r = math.log %c0 : f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: sqrt(2.0) = 1.4142135e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.0 : f32
      %r = math.sqrt %c0 : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: rsqrt(4.0) = 5.0000000e-01
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 4.0 : f32
      %r = math.rsqrt %c0 : f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: tanh(0.5) = 4.6211717e-01
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 0.5 : f32
      %r = math.tanh %c0 : f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: powf(2.0, 0.5) = 1.4142135e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.0 : f32
      %c1 = arith.constant 0.5 : f32
      %r = math.powf %c0, %c1 : f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// The same functions in f64 (double libm), rounded to f32 by the truncf.
// F64-MATH-LABEL: @f64_math: seed 1
// F64-MATH-NEXT: #0 tensor<1xf32> sum {{.*}} first [3.53553{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// F64-MATH-NEXT: #1 tensor<1xf32> sum {{.*}} first [1.00000{{[0-9]+}}e-06] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// F64-MATH-NEXT: #2 tensor<1xf32> sum {{.*}} first [3.01030{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// F64-MATH-NEXT: #3 tensor<1xf32> sum {{.*}} first [9.99999{{[0-9]+}}e-08] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// F64-MATH-NEXT: #4 tensor<1xf32> sum {{.*}} first [-1.41120{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// F64-MATH-NEXT: #5 tensor<1xf32> sum {{.*}} first [-1.47112{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// F64-MATH-NEXT: #6 tensor<1xf32> sum {{.*}} first [-3.62686{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// F64-MATH-NEXT: #7 tensor<1xf32> sum {{.*}} first [-1.47221{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// F64-MATH-NEXT: #8 tensor<1xf32> sum {{.*}} first [-3.00000{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// F64-MATH-NEXT: #9 tensor<1xf32> sum {{.*}} first [1.84270{{[0-9]+}}e+00] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
func.func @f64_math(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9 = motif.kernel "f64_math" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: exp2(-1.5) in f64 = 3.5355338e-01
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -1.5 : f64
      %v = math.exp2 %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: expm1(1e-06) in f64 = 1.0000005e-06
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0e-06 : f64
      %v = math.expm1 %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: log10(2.0) in f64 = 3.0103001e-01
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 2.0 : f64
      %v = math.log10 %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: log1p(1e-07) in f64 = 9.9999994e-08
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant 1.0e-07 : f64
      %v = math.log1p %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: sin(-3.0) in f64 = -1.4112000e-01
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -3.0 : f64
      %v = math.sin %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: atan(-10.0) in f64 = -1.4711276e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -10.0 : f64
      %v = math.atan %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    // #6: sinh(-2.0) in f64 = -3.6268604e+00
    %m6 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -2.0 : f64
      %v = math.sinh %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g6 = motif.materialize %m6 in global : tensor<1xf32>
    // #7: atanh(-0.9) in f64 = -1.4722195e+00
    %m7 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -0.9 : f64
      %v = math.atanh %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g7 = motif.materialize %m7 in global : tensor<1xf32>
    // #8: cbrt(-27.0) in f64 = -3.0000000e+00
    %m8 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -27.0 : f64
      %v = math.cbrt %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g8 = motif.materialize %m8 in global : tensor<1xf32>
    // #9: erfc(-1.0) in f64 = 1.8427008e+00
    %m9 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %c0 = arith.constant -1.0 : f64
      %v = math.erfc %c0 : f64
      %r = arith.truncf %v : f64 to f32
      motif.yield %r : f32
    }
    %g9 = motif.materialize %m9 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5, %g6, %g7, %g8, %g9 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// Integer ops wrap in the width of their type; i1 true is -1 as a signed value.
// INT-ARITH-LABEL: @int_arith: seed 1
// INT-ARITH-NEXT: #0 tensor<1xf32> sum {{.*}} first [-1.2800000e+02] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #1 tensor<1xf32> sum {{.*}} first [1.2700000e+02] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #2 tensor<1xf32> sum {{.*}} first [0.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #3 tensor<1xf32> sum {{.*}} first [8.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #4 tensor<1xf32> sum {{.*}} first [1.4000000e+01] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #5 tensor<1xf32> sum {{.*}} first [6.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #6 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #7 tensor<1xf32> sum {{.*}} first [-1.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #8 tensor<1xf32> sum {{.*}} first [-1.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #9 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #10 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #11 tensor<1xf32> sum {{.*}} first [0.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #12 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-ARITH-NEXT: #13 tensor<1xf32> sum {{.*}} first [-7.0000000e+00] rel-err f32 vs f64 0.00e+00
func.func @int_arith(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9, %o10, %o11, %o12, %o13 = motif.kernel "int_arith" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: addi(127, 1) : i8 = -1.2800000e+02
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 127 : i8
      %b = arith.constant 1 : i8
      %v = arith.addi %a, %b : i8
      %r = arith.sitofp %v : i8 to f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: subi(-128, 1) : i8 = 1.2700000e+02
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -128 : i8
      %b = arith.constant 1 : i8
      %v = arith.subi %a, %b : i8
      %r = arith.sitofp %v : i8 to f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: muli(16, 16) : i8 = 0.0000000e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 16 : i8
      %b = arith.constant 16 : i8
      %v = arith.muli %a, %b : i8
      %r = arith.sitofp %v : i8 to f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: andi(12, 10) = 8.0000000e+00
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 12 : i32
      %b = arith.constant 10 : i32
      %v = arith.andi %a, %b : i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: ori(12, 10) = 1.4000000e+01
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 12 : i32
      %b = arith.constant 10 : i32
      %v = arith.ori %a, %b : i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: xori(12, 10) = 6.0000000e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 12 : i32
      %b = arith.constant 10 : i32
      %v = arith.xori %a, %b : i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    // #6: maxsi(-1, 1) = 1.0000000e+00
    %m6 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -1 : i32
      %b = arith.constant 1 : i32
      %v = arith.maxsi %a, %b : i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g6 = motif.materialize %m6 in global : tensor<1xf32>
    // #7: minsi(-1, 1) = -1.0000000e+00
    %m7 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -1 : i32
      %b = arith.constant 1 : i32
      %v = arith.minsi %a, %b : i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g7 = motif.materialize %m7 in global : tensor<1xf32>
    // #8: maxui(-1, 1): 0xffffffff is the largest = -1.0000000e+00
    %m8 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -1 : i32
      %b = arith.constant 1 : i32
      %v = arith.maxui %a, %b : i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g8 = motif.materialize %m8 in global : tensor<1xf32>
    // #9: minui(-1, 1) = 1.0000000e+00
    %m9 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -1 : i32
      %b = arith.constant 1 : i32
      %v = arith.minui %a, %b : i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g9 = motif.materialize %m9 in global : tensor<1xf32>
    // #10: cmpi slt, -1, 1 = 1.0000000e+00
    %m10 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -1 : i32
      %b = arith.constant 1 : i32
      %p = arith.cmpi slt, %a, %b : i32
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %r = arith.select %p, %one, %zero : f32
      motif.yield %r : f32
    }
    %g10 = motif.materialize %m10 in global : tensor<1xf32>
    // #11: cmpi ult, -1, 1 = 0.0000000e+00
    %m11 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -1 : i32
      %b = arith.constant 1 : i32
      %p = arith.cmpi ult, %a, %b : i32
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %r = arith.select %p, %one, %zero : f32
      motif.yield %r : f32
    }
    %g11 = motif.materialize %m11 in global : tensor<1xf32>
    // #12: cmpi uge, -1, 1 = 1.0000000e+00
    %m12 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -1 : i32
      %b = arith.constant 1 : i32
      %p = arith.cmpi uge, %a, %b : i32
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %r = arith.select %p, %one, %zero : f32
      motif.yield %r : f32
    }
    %g12 = motif.materialize %m12 in global : tensor<1xf32>
    // #13: select on i32 = -7.0000000e+00
    %m13 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %t = arith.constant true
      %a = arith.constant 7 : i32
      %b = arith.constant -7 : i32
      %v = arith.select %t, %b, %a : i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g13 = motif.materialize %m13 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5, %g6, %g7, %g8, %g9, %g10, %g11, %g12, %g13 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9, %o10, %o11, %o12, %o13 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// Casts between floats and integers and between integer widths; fptosi
// and fptoui truncate toward zero and saturate (NaN gives 0), as PTX's cvt.rzi.
// INT-CASTS-LABEL: @int_casts: seed 1
// INT-CASTS-NEXT: #0 tensor<1xf32> sum {{.*}} first [-1.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-CASTS-NEXT: #1 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-CASTS-NEXT: #2 tensor<1xf32> sum {{.*}} first [-2.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-CASTS-NEXT: #3 tensor<1xf32> sum {{.*}} first [2.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-CASTS-NEXT: #4 tensor<1xf32> sum {{.*}} first [2.1474836e+09] rel-err f32 vs f64 4.66e-10
// INT-CASTS-NEXT: #5 tensor<1xf32> sum {{.*}} first [-2.1474836e+09] rel-err f32 vs f64 0.00e+00
// INT-CASTS-NEXT: #6 tensor<1xf32> sum {{.*}} first [0.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-CASTS-NEXT: #7 tensor<1xf32> sum {{.*}} first [0.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-CASTS-NEXT: #8 tensor<1xf32> sum {{.*}} first [1.2700000e+02] rel-err f32 vs f64 0.00e+00
// INT-CASTS-NEXT: #9 tensor<1xf32> sum {{.*}} first [4.4000000e+01] rel-err f32 vs f64 0.00e+00
// INT-CASTS-NEXT: #10 tensor<1xf32> sum {{.*}} first [-1.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-CASTS-NEXT: #11 tensor<1xf32> sum {{.*}} first [2.5500000e+02] rel-err f32 vs f64 0.00e+00
// INT-CASTS-NEXT: #12 tensor<1xf32> sum {{.*}} first [-5.0000000e+00] rel-err f32 vs f64 0.00e+00
// INT-CASTS-NEXT: #13 tensor<1xf32> sum {{.*}} first [4.2949673e+09] rel-err f32 vs f64 1.16e-09
// INT-CASTS-NEXT: #14 tensor<1xf32> sum {{.*}} first [1.8446744e+19] rel-err f32 vs f64 0.00e+00
func.func @int_casts(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9, %o10, %o11, %o12, %o13, %o14 = motif.kernel "int_casts" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: sitofp(true : i1) = -1.0000000e+00
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %t = arith.constant true
      %r = arith.sitofp %t : i1 to f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: uitofp(true : i1) = 1.0000000e+00
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %t = arith.constant true
      %r = arith.uitofp %t : i1 to f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: fptosi(-2.7) = -2.0000000e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -2.7 : f32
      %v = arith.fptosi %a : f32 to i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: fptoui(2.7) = 2.0000000e+00
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 2.7 : f32
      %v = arith.fptoui %a : f32 to i32
      %r = arith.uitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: fptosi(3e9) : i32 saturates (f64 mode: sitofp does not round 2^31 - 1) = 2.1474836e+09
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 3000000000.0 : f32
      %v = arith.fptosi %a : f32 to i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: fptosi(-3e9) : i32 saturates = -2.1474836e+09
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -3000000000.0 : f32
      %v = arith.fptosi %a : f32 to i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    // #6: fptoui(-5) saturates to 0 = 0.0000000e+00
    %m6 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -5.0 : f32
      %v = arith.fptoui %a : f32 to i32
      %r = arith.uitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g6 = motif.materialize %m6 in global : tensor<1xf32>
    // #7: fptosi(NaN) = 0.0000000e+00
    %m7 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 0x7FC00000 : f32
      %v = arith.fptosi %a : f32 to i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g7 = motif.materialize %m7 in global : tensor<1xf32>
    // #8: fptosi(200) : i8 saturates = 1.2700000e+02
    %m8 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 200.0 : f32
      %v = arith.fptosi %a : f32 to i8
      %r = arith.sitofp %v : i8 to f32
      motif.yield %r : f32
    }
    %g8 = motif.materialize %m8 in global : tensor<1xf32>
    // #9: trunci(300 : i32) : i8 = 4.4000000e+01
    %m9 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 300 : i32
      %v = arith.trunci %a : i32 to i8
      %r = arith.sitofp %v : i8 to f32
      motif.yield %r : f32
    }
    %g9 = motif.materialize %m9 in global : tensor<1xf32>
    // #10: extsi(-1 : i8) : i32 = -1.0000000e+00
    %m10 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -1 : i8
      %v = arith.extsi %a : i8 to i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g10 = motif.materialize %m10 in global : tensor<1xf32>
    // #11: extui(-1 : i8) : i32 = 2.5500000e+02
    %m11 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -1 : i8
      %v = arith.extui %a : i8 to i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g11 = motif.materialize %m11 in global : tensor<1xf32>
    // #12: index_cast(-5 : i32) = -5.0000000e+00
    %m12 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -5 : i32
      %i = arith.index_cast %a : i32 to index
      %v = arith.index_cast %i : index to i64
      %r = arith.sitofp %v : i64 to f32
      motif.yield %r : f32
    }
    %g12 = motif.materialize %m12 in global : tensor<1xf32>
    // #13: index_castui(-5 : i32) = 2^32 - 5 (exact in f64 mode: rel-err 5 / (2^32 - 5)) = 4.2949673e+09
    %m13 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -5 : i32
      %i = arith.index_castui %a : i32 to index
      %v = arith.index_cast %i : index to i64
      %r = arith.sitofp %v : i64 to f32
      motif.yield %r : f32
    }
    %g13 = motif.materialize %m13 in global : tensor<1xf32>
    // #14: uitofp(-1 : i64) = 1.8446744e+19
    %m14 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -1 : i64
      %r = arith.uitofp %a : i64 to f32
      motif.yield %r : f32
    }
    %g14 = motif.materialize %m14 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5, %g6, %g7, %g8, %g9, %g10, %g11, %g12, %g13, %g14 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5, %o6, %o7, %o8, %o9, %o10, %o11, %o12, %o13, %o14 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

// arith.bitcast reinterprets the bits; arith.truncf rounds to f32 in f32
// mode and does not round in f64 mode (rel-err 2^-30).
// BITCAST-TRUNCF-LABEL: @bitcast_truncf: seed 1
// BITCAST-TRUNCF-NEXT: #0 tensor<1xf32> sum {{.*}} first [1.0653532e+09] rel-err f32 vs f64 0.00e+00
// BITCAST-TRUNCF-NEXT: #1 tensor<1xf32> sum {{.*}} first [3.1415927e+00] rel-err f32 vs f64 0.00e+00
// BITCAST-TRUNCF-NEXT: #2 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 0.00e+00
// BITCAST-TRUNCF-NEXT: #3 tensor<1xf32> sum {{.*}} first [1.00000{{[0-9]+}}e-01] rel-err f32 vs f64 {{([0-9.]+e-(0[6-9]|[1-9][0-9])|0.00e\+00)}}
// BITCAST-TRUNCF-NEXT: #4 tensor<1xf32> sum {{.*}} first [1.0000000e+00] rel-err f32 vs f64 9.31e-10
// BITCAST-TRUNCF-NEXT: #5 tensor<1xf32> sum {{.*}} first [-1.5000000e+00] rel-err f32 vs f64 0.00e+00
func.func @bitcast_truncf(%x: tensor<1xf32>) -> (tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) {
  %o0, %o1, %o2, %o3, %o4, %o5 = motif.kernel "bitcast_truncf" threads(32) -> tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32> {
    // #0: bitcast(1.0 : f32) : i32 = 1.0653532e+09
    %m0 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 1.0 : f32
      %v = arith.bitcast %a : f32 to i32
      %r = arith.sitofp %v : i32 to f32
      motif.yield %r : f32
    }
    %g0 = motif.materialize %m0 in global : tensor<1xf32>
    // #1: bitcast(0x40490FDB : i32) : f32 = 3.1415927e+00
    %m1 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 1078530011 : i32
      %r = arith.bitcast %a : i32 to f32
      motif.yield %r : f32
    }
    %g1 = motif.materialize %m1 in global : tensor<1xf32>
    // #2: bitcast(-2.0 : f64) : i64 >> sign = 1.0000000e+00
    %m2 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant -2.0 : f64
      %v = arith.bitcast %a : f64 to i64
      %z = arith.constant 0 : i64
      %p = arith.cmpi slt, %v, %z : i64
      %one = arith.constant 1.0 : f32
      %zero = arith.constant 0.0 : f32
      %r = arith.select %p, %one, %zero : f32
      motif.yield %r : f32
    }
    %g2 = motif.materialize %m2 in global : tensor<1xf32>
    // #3: bitcast round trip f64 -> i64 -> f64 = 1.0000000e-01
    %m3 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 0.1 : f64
      %v = arith.bitcast %a : f64 to i64
      %w = arith.bitcast %v : i64 to f64
      %r = arith.truncf %w : f64 to f32
      motif.yield %r : f32
    }
    %g3 = motif.materialize %m3 in global : tensor<1xf32>
    // #4: truncf(1 + 2^-30 : f64) = 1.0000000e+00
    %m4 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 1.0000000009313226 : f64
      %r = arith.truncf %a : f64 to f32
      motif.yield %r : f32
    }
    %g4 = motif.materialize %m4 in global : tensor<1xf32>
    // #5: extf then negf = -1.5000000e+00
    %m5 = motif.map (%x[i]) -> [i] over [thread] : (tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%unused: f32):
      %a = arith.constant 1.5 : f32
      %w = arith.extf %a : f32 to f64
      %n = arith.negf %w : f64
      %r = arith.truncf %n : f64 to f32
      motif.yield %r : f32
    }
    %g5 = motif.materialize %m5 in global : tensor<1xf32>
    motif.yield %g0, %g1, %g2, %g3, %g4, %g5 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
  }
  return %o0, %o1, %o2, %o3, %o4, %o5 : tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>
}

