// RUN: motif-opt %s --pass-pipeline='builtin.module(gpu.module(motif-precise-math))' | FileCheck %s
// RUN: motif-opt %s --pass-pipeline='builtin.module(gpu.module(motif-precise-math,convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true}))' | FileCheck %s --check-prefix=NVVM

// motif-precise-math: an f32 math.sqrt calls the NVPTX intrinsic of the
// correctly rounded square root (sqrt.rn.f32); f16 and bf16 take it between
// an extension and a rounding; f64 stays for libdevice (__nv_sqrt, itself
// sqrt.rn.f64), and math.rsqrt is left alone. An f16 or bf16 math.fma
// becomes llvm.intr.fma of its type (one rounding); f32 stays (__nv_fmaf is
// fma.rn.f32).

gpu.module @kernels {
  // CHECK-LABEL: func.func @roots
  // CHECK-SAME: (%[[A:.*]]: f32, %[[B:.*]]: f16, %[[C:.*]]: bf16, %[[D:.*]]: f64)
  func.func @roots(%a: f32, %b: f16, %c: bf16, %d: f64) -> (f32, f16, bf16, f64, f32) {
    // CHECK: %[[RA:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%[[A]]) : (f32) -> f32
    %ra = math.sqrt %a : f32
    // CHECK: %[[XB:.*]] = arith.extf %[[B]] : f16 to f32
    // CHECK: %[[SB:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%[[XB]]) : (f32) -> f32
    // CHECK: %[[RB:.*]] = arith.truncf %[[SB]] : f32 to f16
    %rb = math.sqrt %b : f16
    // CHECK: %[[XC:.*]] = arith.extf %[[C]] : bf16 to f32
    // CHECK: %[[SC:.*]] = llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"(%[[XC]]) : (f32) -> f32
    // CHECK: %[[RC:.*]] = arith.truncf %[[SC]] : f32 to bf16
    %rc = math.sqrt %c : bf16
    // CHECK: %[[RD:.*]] = math.sqrt %[[D]] : f64
    %rd = math.sqrt %d : f64
    // CHECK: %[[RR:.*]] = math.rsqrt %[[A]] : f32
    %rr = math.rsqrt %a : f32
    // CHECK: return %[[RA]], %[[RB]], %[[RC]], %[[RD]], %[[RR]]
    return %ra, %rb, %rc, %rd, %rr : f32, f16, bf16, f64, f32
  }

  // CHECK-LABEL: func.func @fmas
  func.func @fmas(%a: f16, %b: bf16, %c: f32) -> (f16, bf16, f32) {
    // CHECK: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (f16, f16, f16) -> f16
    %x = math.fma %a, %a, %a : f16
    // CHECK: llvm.intr.fma(%{{.*}}, %{{.*}}, %{{.*}}) : (bf16, bf16, bf16) -> bf16
    %y = math.fma %b, %b, %b : bf16
    // CHECK: math.fma %{{.*}}, %{{.*}}, %{{.*}} : f32
    %z = math.fma %c, %c, %c : f32
    return %x, %y, %z : f16, bf16, f32
  }
}

// After it, convert-gpu-to-nvvm calls libdevice only for f64 and rsqrt:
// NVVM-NOT: @__nv_sqrtf
// NVVM-DAG: llvm.call_intrinsic "llvm.nvvm.sqrt.rn.f"
// NVVM-DAG: llvm.call @__nv_sqrt(
// NVVM-DAG: llvm.call @__nv_rsqrtf(
// NVVM-DAG: llvm.intr.fma({{.*}}) : (f16, f16, f16) -> f16
// NVVM-DAG: llvm.intr.fma({{.*}}) : (bf16, bf16, bf16) -> bf16
// NVVM-DAG: llvm.call @__nv_fmaf(
// NVVM-NOT: @__nv_sqrtf
