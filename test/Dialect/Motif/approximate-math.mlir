// Fast forms of exp and of divisions by a row statistic (docs/residency.md,
// "Approximate math"), class mathematical.
// RUN: motif-opt %s --motif-approximate-math --mlir-print-op-on-diagnostic=false -o %t 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s < %t
// RUN: motif-equiv --class=mathematical %s %t | FileCheck %s --check-prefix=EQUIV
// RUN: motif-opt %s --fuse-materialization=equivalence-cap=tolerance --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOL
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=mathematical approximate-math=false" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOL
// RUN: motif-opt %s --fuse-materialization=equivalence-cap=mathematical --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// REMARK: remark: approximate math (class mathematical) in kernel 'exp': 1 exp as exp2 with log2(e) folded in, 1 exp2 of x minus its row's max with subnormal results flushed to zero (ex2.ftz: the row's max gives 1)
// REMARK: remark: approximate math (class mathematical) in kernel 'div': 1 division(s) by a broadcast operand as a multiplication by its reciprocal
// REMARK-NOT: in kernel 'negative_
// TOL-NOT: approximate math

// CHECK-LABEL: func.func @softmax
// CHECK-SAME: motif.equivalence = #motif<equivalence mathematical>
// CHECK: motif.kernel "exp"
// CHECK: %[[C:.*]] = arith.constant 1.44269502 : f32
// CHECK: %[[S:.*]] = arith.mulf %{{.*}}, %[[C]] : f32
// exp(x - max) of x's own row max: the row holds exp(0) = 1, so a subnormal
// result may flush to zero (motif.ftz: ex2.approx.ftz.f32).
// CHECK: math.exp2 %[[S]] {motif.ftz} : f32
// CHECK-NOT: math.exp %
// CHECK: motif.kernel "div"
// CHECK: ^bb0(%[[E:.*]]: f32, %[[L:.*]]: f32):
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK: %[[INV:.*]] = arith.divf %[[ONE]], %[[L]] : f32
// CHECK: arith.mulf %[[E]], %[[INV]] : f32
// An element-wise division (both operands full) keeps its IEEE form.
// CHECK: motif.kernel "negative_elementwise_div"
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK-NOT: arith.mulf
// CHECK: return
func.func @softmax(%x: tensor<64x1000xf32>, %w: tensor<64x1000xf32>) -> (tensor<64x1000xf32>, tensor<64x1000xf32>) {
  %max = motif.kernel "max" threads(128) -> tensor<64xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<64x1000xf32>) -> tensor<64xf32>
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %exp = motif.kernel "exp" threads(128) -> tensor<64x1000xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread] : (tensor<64x1000xf32>, tensor<64xf32>) -> tensor<64x1000xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<64x1000xf32>
    motif.yield %g : tensor<64x1000xf32>
  }
  %sum = motif.kernel "sum" threads(128) -> tensor<64xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread] : (tensor<64x1000xf32>) -> tensor<64xf32>
    %g = motif.materialize %s in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %y = motif.kernel "div" threads(128) -> tensor<64x1000xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread] : (tensor<64x1000xf32>, tensor<64xf32>) -> tensor<64x1000xf32> {
    ^bb0(%e: f32, %l: f32):
      %q = arith.divf %e, %l : f32
      motif.yield %q : f32
    }
    %g = motif.materialize %p in global : tensor<64x1000xf32>
    motif.yield %g : tensor<64x1000xf32>
  }
  %z = motif.kernel "negative_elementwise_div" threads(128) -> tensor<64x1000xf32> {
    %q = motif.map (%x[i, j], %w[i, j]) -> [i, j] over [block, thread] : (tensor<64x1000xf32>, tensor<64x1000xf32>) -> tensor<64x1000xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %q in global : tensor<64x1000xf32>
    motif.yield %g : tensor<64x1000xf32>
  }
  return %y, %z : tensor<64x1000xf32>, tensor<64x1000xf32>
}

// exp2 without flushing: of x minus the max of another tensor, minus a
// min, and of x alone (nothing bounds the row below 1 there: a flushed
// subnormal could be all the row holds).
// REMARK: in kernel 'other_max_exp': 1 exp as exp2 with log2(e) folded in{{$}}
// REMARK: in kernel 'min_exp': 1 exp as exp2 with log2(e) folded in{{$}}
// REMARK: in kernel 'plain_exp': 1 exp as exp2 with log2(e) folded in{{$}}
// CHECK-LABEL: func.func @not_its_row_max
// CHECK-NOT: motif.ftz
// CHECK: return
func.func @not_its_row_max(%x: tensor<64x1000xf32>, %w: tensor<64x1000xf32>) -> (tensor<64x1000xf32>, tensor<64x1000xf32>, tensor<64x1000xf32>) {
  %max = motif.kernel "max_of_x" threads(128) -> tensor<64xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<64x1000xf32>) -> tensor<64xf32>
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %min = motif.kernel "min_of_x" threads(128) -> tensor<64xf32> {
    %m = motif.reduce <min> (%x[i, j]) -> [i] over [block, thread] : (tensor<64x1000xf32>) -> tensor<64xf32>
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %e1 = motif.kernel "other_max_exp" threads(128) -> tensor<64x1000xf32> {
    %e = motif.map (%w[i, j], %max[i]) -> [i, j] over [block, thread] : (tensor<64x1000xf32>, tensor<64xf32>) -> tensor<64x1000xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<64x1000xf32>
    motif.yield %g : tensor<64x1000xf32>
  }
  %e2 = motif.kernel "min_exp" threads(128) -> tensor<64x1000xf32> {
    %e = motif.map (%x[i, j], %min[i]) -> [i, j] over [block, thread] : (tensor<64x1000xf32>, tensor<64xf32>) -> tensor<64x1000xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<64x1000xf32>
    motif.yield %g : tensor<64x1000xf32>
  }
  %e3 = motif.kernel "plain_exp" threads(128) -> tensor<64x1000xf32> {
    %e = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x1000xf32>) -> tensor<64x1000xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<64x1000xf32>
    motif.yield %g : tensor<64x1000xf32>
  }
  return %e1, %e2, %e3 : tensor<64x1000xf32>, tensor<64x1000xf32>, tensor<64x1000xf32>
}

// The CPU evaluator, unfused against rewritten: both within the mathematical
// class's bound of float64.
// EQUIV: @softmax: PASS
// EQUIV: @not_its_row_max: PASS
