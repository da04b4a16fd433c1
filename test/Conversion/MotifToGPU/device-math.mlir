// RUN: motif-opt %s --pass-pipeline='builtin.module(gpu.module(motif-device-math,canonicalize))' | FileCheck %s
// RUN: motif-opt %s --pass-pipeline='builtin.module(gpu.module(canonicalize))' | FileCheck %s --check-prefix=HOST

// motif-device-math: before the canonicalizer, the math ops whose device
// result is libdevice's approximation become its calls, so that a constant
// operand is not folded with the host's libm. tanh(0.372678) is 0x3EB66E22
// with libdevice's polynomial (fma.rn for |x| < 0.6) and 0x3EB66E23 with the
// host's tanhf: before this pass the canonicalizer stored the host's.
// Correctly rounded ops (sqrt here) still fold: the host computes their bits.

gpu.module @kernels {
  // CHECK-LABEL: func.func @constant_tanh
  // CHECK: %[[C:.*]] = arith.constant 0.372677982 : f32
  // CHECK: %[[T:.*]] = llvm.call @__nv_tanhf(%[[C]]) : (f32) -> f32
  // CHECK: return %[[T]]
  // HOST-LABEL: func.func @constant_tanh
  // HOST: %[[H:.*]] = arith.constant 0.356331915 : f32
  // HOST: return %[[H]]
  func.func @constant_tanh() -> f32 {
    %c = arith.constant 0.372677982 : f32
    %t = math.tanh %c : f32
    return %t : f32
  }

  // CHECK-LABEL: func.func @each_approximated_op
  // CHECK-SAME: (%[[X:.*]]: f32, %[[I:.*]]: i32)
  // CHECK: llvm.call @__nv_expf(%[[X]])
  // CHECK: llvm.call @__nv_exp2f(%[[X]])
  // CHECK: llvm.call @__nv_logf(%[[X]])
  // CHECK: llvm.call @__nv_sinf(%[[X]])
  // CHECK: llvm.call @__nv_atan2f(%[[X]], %[[X]])
  // CHECK: llvm.call @__nv_erff(%[[X]])
  // CHECK: llvm.call @__nv_powf(%[[X]], %[[X]])
  // CHECK: llvm.call @__nv_powif(%[[X]], %[[I]])
  // CHECK: llvm.call @__nv_rsqrtf(%[[X]])
  // CHECK-NOT: math.
  func.func @each_approximated_op(%x: f32, %i: i32) -> (f32, f32, f32, f32, f32, f32, f32, f32, f32) {
    %a = math.exp %x : f32
    %b = math.exp2 %x : f32
    %c = math.log %x : f32
    %d = math.sin %x : f32
    %e = math.atan2 %x, %x : f32
    %f = math.erf %x : f32
    %g = math.powf %x, %x : f32
    %h = math.fpowi %x, %i : f32, i32
    %r = math.rsqrt %x : f32
    return %a, %b, %c, %d, %e, %f, %g, %h, %r : f32, f32, f32, f32, f32, f32, f32, f32, f32
  }

  // Correctly rounded: left to the folders and to motif-precise-math.
  // CHECK-LABEL: func.func @exact_ops
  // CHECK: %[[S:.*]] = arith.constant 2.23606801 : f32
  // CHECK: math.absf
  // CHECK: math.floor
  // CHECK: math.fma
  // CHECK: return %[[S]]
  func.func @exact_ops(%x: f32) -> (f32, f32, f32, f32) {
    %five = arith.constant 5.0 : f32
    %s = math.sqrt %five : f32
    %a = math.absf %x : f32
    %f = math.floor %x : f32
    %m = math.fma %x, %x, %x : f32
    return %s, %a, %f, %m : f32, f32, f32, f32
  }
}
