// The L2 eviction policy motif-ptx-l2-load-policy writes into the PTX of a
// gpu.binary (include/motif/Conversion/Passes.td): every ld.global.nc (the
// plain, predicated, L1-qualified, scalar and vector forms, one in a nested
// scope) takes the policy register, created once at the top of each function
// body that has such a load; ld.global (not read-only), ld.shared and stores
// are left alone; a function without one gets no policy; an old target and a
// cubin are left alone with a remark. The PTX is the assembly string of the
// #gpu.object ("\0A" is a newline, "\09" a tab).

// RUN: motif-opt %s --motif-ptx-l2-load-policy -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s
// RUN: motif-opt %s --motif-ptx-l2-load-policy=policy=evict_first -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=FIRST
// RUN: motif-opt %s --motif-ptx-l2-load-policy=policy=none -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not motif-opt %s --motif-ptx-l2-load-policy=policy=evict_soon 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK: remark: kernel k1: L2::evict_last cache policy on 5 read-only global load(s)
// CHECK: remark: kernel k2: no read-only global load (ld.global.nc) to give the L2 policy
// CHECK: remark: L2 load policy not applied to @old: createpolicy needs sm_80 and PTX ISA 7.4 (the PTX targets sm_75, ISA 7.0)
// CHECK: remark: L2 load policy not applied: an object of @cubin is not PTX (format isa)
// CHECK: gpu.binary @motif_kernels
// CHECK-SAME: .maxntid 256, 1, 1\0A{{[{]}}\0A\09.reg .b64 \09%motif_l2_policy;\0A\09createpolicy.fractional.L2::evict_last.b64 \09%motif_l2_policy, 1.0;\0A\09.reg .pred
// CHECK-SAME: ld.global.nc.L2::cache_hint.v4.b32 \09{{[{]}}%r1, %r2, %r3, %r4}, [%rd1], %motif_l2_policy;
// CHECK-SAME: ld.global.nc.L2::cache_hint.b16 \09%rs1, [%rd1+64], %motif_l2_policy;
// CHECK-SAME: @%p1 ld.global.nc.L2::cache_hint.v2.f32 \09{{[{]}}%r5, %r6}, [%rd1+128], %motif_l2_policy;
// CHECK-SAME: ld.global.nc.L1::no_allocate.L2::cache_hint.v4.b32 \09{{[{]}}%r1, %r2, %r3, %r4}, [%rd1+256], %motif_l2_policy;
// CHECK-SAME: ld.global.b32 \09%r7, [%rd2];
// CHECK-SAME: ld.shared.b32 \09%r8, [%rd3];
// CHECK-SAME: st.global.v4.b32 \09[%rd2], {{[{]}}%r1, %r2, %r3, %r4};
// CHECK-SAME: ld.global.nc.L2::cache_hint.b32 \09%inner, [%rd1+512], %motif_l2_policy;
// CHECK-SAME: .visible .entry k2(
// CHECK-SAME: )\0A{{[{]}}\0A\09.reg .b32 \09%r<2>;
// CHECK-SAME: ld.global.b32 \09%r1, [%rd1];
// CHECK: gpu.binary @old
// CHECK-NOT: cache_hint
// CHECK: gpu.binary @cubin

// FIRST: createpolicy.fractional.L2::evict_first.b64 \09%motif_l2_policy, 1.0;
// FIRST: ld.global.nc.L2::cache_hint.v4.b32

// NONE-NOT: remark
// NONE-NOT: cache_hint
// NONE: ld.global.nc.v4.b32 \09{{[{]}}%r1, %r2, %r3, %r4}, [%rd1];
// NONE-NOT: cache_hint

// BAD: motif-ptx-l2-load-policy: policy='evict_soon' is not one of evict_last, evict_first, evict_normal, none

module attributes {gpu.container_module} {
  gpu.binary @motif_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 7.8\0A.target sm_90\0A.address_size 64\0A\0A.visible .entry k1(\0A\09.param .u64 .ptr .align 1 k1_param_0,\0A\09.param .u64 .ptr .align 1 k1_param_1\0A)\0A.maxntid 256, 1, 1\0A{\0A\09.reg .pred \09%p<2>;\0A\09.reg .b32 \09%r<9>;\0A\09.reg .b64 \09%rd<4>;\0A\09ld.param.b64 \09%rd1, [k1_param_0];\0A\09ld.global.nc.v4.b32 \09{%r1, %r2, %r3, %r4}, [%rd1];\0A\09ld.global.nc.b16 \09%rs1, [%rd1+64];\0A\09@%p1 ld.global.nc.v2.f32 \09{%r5, %r6}, [%rd1+128];\0A\09ld.global.nc.L1::no_allocate.v4.b32 \09{%r1, %r2, %r3, %r4}, [%rd1+256];\0A\09ld.global.b32 \09%r7, [%rd2];\0A\09ld.shared.b32 \09%r8, [%rd3];\0A\09st.global.v4.b32 \09[%rd2], {%r1, %r2, %r3, %r4};\0A\09{\0A\09.reg .b32 \09%inner;\0A\09ld.global.nc.b32 \09%inner, [%rd1+512];\0A\09}\0A\09ret;\0A}\0A\09// .globl\09k2\0A.visible .entry k2(\0A\09.param .u64 .ptr .align 1 k2_param_0\0A)\0A{\0A\09.reg .b32 \09%r<2>;\0A\09.reg .b64 \09%rd<2>;\0A\09ld.global.b32 \09%r1, [%rd1];\0A\09st.global.b32 \09[%rd1], %r1;\0A\09ret;\0A}\0A">]
  gpu.binary @old [#gpu.object<#nvvm.target<chip = "sm_75">, assembly = ".version 7.0\0A.target sm_75\0A.address_size 64\0A\0A.visible .entry k1(\0A\09.param .u64 .ptr .align 1 k1_param_0,\0A\09.param .u64 .ptr .align 1 k1_param_1\0A)\0A.maxntid 256, 1, 1\0A{\0A\09.reg .pred \09%p<2>;\0A\09.reg .b32 \09%r<9>;\0A\09.reg .b64 \09%rd<4>;\0A\09ld.param.b64 \09%rd1, [k1_param_0];\0A\09ld.global.nc.v4.b32 \09{%r1, %r2, %r3, %r4}, [%rd1];\0A\09ld.global.nc.b16 \09%rs1, [%rd1+64];\0A\09@%p1 ld.global.nc.v2.f32 \09{%r5, %r6}, [%rd1+128];\0A\09ld.global.nc.L1::no_allocate.v4.b32 \09{%r1, %r2, %r3, %r4}, [%rd1+256];\0A\09ld.global.b32 \09%r7, [%rd2];\0A\09ld.shared.b32 \09%r8, [%rd3];\0A\09st.global.v4.b32 \09[%rd2], {%r1, %r2, %r3, %r4};\0A\09{\0A\09.reg .b32 \09%inner;\0A\09ld.global.nc.b32 \09%inner, [%rd1+512];\0A\09}\0A\09ret;\0A}\0A\09// .globl\09k2\0A.visible .entry k2(\0A\09.param .u64 .ptr .align 1 k2_param_0\0A)\0A{\0A\09.reg .b32 \09%r<2>;\0A\09.reg .b64 \09%rd<2>;\0A\09ld.global.b32 \09%r1, [%rd1];\0A\09st.global.b32 \09[%rd1], %r1;\0A\09ret;\0A}\0A">]
  gpu.binary @cubin [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "not PTX">]
}
