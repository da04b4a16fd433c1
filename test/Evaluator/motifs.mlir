// Each function computes what its namesake in Inputs/motifs.mlir computes,
// through another motif; the verdicts pin down the evaluation order.
//
// A general combiner folds each element in as combine(acc, element) from
// `init`, in the same order as a built-in one: acc - x == acc + (-x) bitwise
// (a sequential fold: 'acc - x' is not associative, so it may not be mapped
// to a parallel level; see test/Conversion/MotifToGPU/combiner-laws.mlir).
// RUN: motif-equiv %S/Inputs/motifs.mlir %s --function=combiner --seed=2 | FileCheck %s --check-prefix=COMBINER
// A contraction is a chain of fmaf, so mul-then-add differs in the bits but
// not beyond the tolerance class.
// RUN: not motif-equiv %S/Inputs/motifs.mlir %s --function=contract --seed=2 | FileCheck %s --check-prefix=CONTRACT-BITWISE
// RUN: motif-equiv %S/Inputs/motifs.mlir %s --function=contract --class=tolerance --seed=2 | FileCheck %s --check-prefix=CONTRACT-TOL
// RUN: motif-equiv %S/Inputs/motifs.mlir %s --function=transpose --seed=2 | FileCheck %s --check-prefix=TRANSPOSE
// RUN: motif-equiv %S/Inputs/motifs.mlir %s --function=broadcast --seed=2 | FileCheck %s --check-prefix=BROADCAST
// Online softmax's (max, sum) state: the max keeps its bits, the sum does not.
// RUN: not motif-equiv %S/Inputs/motifs.mlir %s --function=online --seed=2 | FileCheck %s --check-prefix=ONLINE-BITWISE
// RUN: motif-equiv %S/Inputs/motifs.mlir %s --function=online --class=tolerance --seed=2 | FileCheck %s --check-prefix=ONLINE-TOL
// Softmax rows sum to one: a check of the evaluator against arithmetic, not
// against itself.
// RUN: motif-equiv %S/Inputs/motifs.mlir %s --function=rows_sum_to_one --class=tolerance --seed=2 | FileCheck %s --check-prefix=ONE

// COMBINER:   #0 tensor<8xf32> bitwise yes 0 0 {{.*}} PASS
// COMBINER:   @combiner: PASS

// CONTRACT-BITWISE: #0 tensor<4x6xf32> bitwise no {{[1-9][0-9]*}} {{.*}} FAIL
// CONTRACT-TOL:     #0 tensor<4x6xf32> tolerance no {{.*}} PASS

// TRANSPOSE:  #0 tensor<8x4xf32> bitwise yes 0 {{.*}} PASS
// BROADCAST:  #0 tensor<8x4xf32> bitwise yes 0 {{.*}} PASS

// ONLINE-BITWISE:      #0 tensor<8xf32> bitwise yes 0 0 {{.*}} PASS
// ONLINE-BITWISE-NEXT: #1 tensor<8xf32> bitwise no {{[1-9][0-9]*}} {{.*}} FAIL
// ONLINE-BITWISE-NEXT: @online: FAIL
// ONLINE-TOL:          #0 {{.*}} PASS
// ONLINE-TOL-NEXT:     #1 {{.*}} PASS
// ONLINE-TOL-NEXT:     @online: PASS

// ONE:        #0 tensor<8xf32> tolerance {{.*}} PASS
// ONE:        @rows_sum_to_one: PASS

func.func @combiner(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8xf32> {
    %s = motif.reduce (%x[i, j]) -> [i] init [0.0 : f32] over [block, seq] : (tensor<8x16xf32>) -> tensor<8xf32> combiner {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.subf %acc, %v : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}

func.func @contract(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>) -> tensor<4x6xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4x6xf32> {
    %p = motif.map (%q[i, d], %k[j, d]) -> [i, j, d] over [block, thread, seq] : (tensor<4x8xf32>, tensor<6x8xf32>) -> tensor<4x6x8xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.mulf %a, %b : f32
      motif.yield %r : f32
    }
    %pr = motif.materialize %p in register : tensor<4x6x8xf32>
    %s = motif.reduce <add> (%pr[i, j, d]) -> [i, j] over [block, thread, seq] : (tensor<4x6x8xf32>) -> tensor<4x6xf32>
    %g = motif.materialize %s in global : tensor<4x6xf32>
    motif.yield %g : tensor<4x6xf32>
  }
  return %y : tensor<4x6xf32>
}

func.func @transpose(%x: tensor<8x4xf32>, %w: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8x4xf32> {
    %t = motif.transpose %w[a, b] -> [b, a] over [thread, seq] : (tensor<4x8xf32>) -> tensor<8x4xf32>
    %tr = motif.materialize %t in shared : tensor<8x4xf32>
    %z = motif.map (%x[i, j], %tr[i, j]) -> [i, j] over [thread, seq] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.mulf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %z in global : tensor<8x4xf32>
    motif.yield %g : tensor<8x4xf32>
  }
  return %y : tensor<8x4xf32>
}

func.func @broadcast(%x: tensor<8x4xf32>, %b: tensor<4xf32>) -> tensor<8x4xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8x4xf32> {
    %bb = motif.broadcast %b[j] -> [i, j] over [block, thread] : (tensor<4xf32>) -> tensor<8x4xf32>
    %br = motif.materialize %bb in register : tensor<8x4xf32>
    %z = motif.map (%x[i, j], %br[i, j]) -> [i, j] over [block, thread] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32> {
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %z in global : tensor<8x4xf32>
    motif.yield %g : tensor<8x4xf32>
  }
  return %y : tensor<8x4xf32>
}

func.func @online(%x: tensor<8x32xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %m, %l = motif.kernel "k" threads(32) -> tensor<8xf32>, tensor<8xf32> {
    %one = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<8x32xf32>) -> tensor<8x32xf32> {
    ^bb0(%a: f32):
      %c = arith.constant 1.0 : f32
      motif.yield %c : f32
    }
    %oner = motif.materialize %one in register : tensor<8x32xf32>
    %m, %l = motif.reduce (%x[i, j], %oner[i, j]) -> [i] init [0xFF800000 : f32, 0.0 : f32] over [block, thread] : (tensor<8x32xf32>, tensor<8x32xf32>) -> (tensor<8xf32>, tensor<8xf32>) combiner {
    ^bb0(%m1: f32, %l1: f32, %m2: f32, %l2: f32):
      %mx = arith.maximumf %m1, %m2 : f32
      %d1 = arith.subf %m1, %mx : f32
      %e1 = math.exp %d1 : f32
      %d2 = arith.subf %m2, %mx : f32
      %e2 = math.exp %d2 : f32
      %s1 = arith.mulf %l1, %e1 : f32
      %s = math.fma %l2, %e2, %s1 : f32
      motif.yield %mx, %s : f32, f32
    }
    %mg = motif.materialize %m in global : tensor<8xf32>
    %lg = motif.materialize %l in global : tensor<8xf32>
    motif.yield %mg, %lg : tensor<8xf32>, tensor<8xf32>
  }
  return %m, %l : tensor<8xf32>, tensor<8xf32>
}

func.func @rows_sum_to_one(%x: tensor<8x32xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<8x32xf32>) -> tensor<8xf32>
    %mr = motif.materialize %m in register : tensor<8xf32>
    %one = motif.map (%mr[i]) -> [i] over [block] : (tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%a: f32):
      %c = arith.constant 1.0 : f32
      motif.yield %c : f32
    }
    %g = motif.materialize %one in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}
