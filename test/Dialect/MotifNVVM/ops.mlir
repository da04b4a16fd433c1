// RUN: motif-opt %s | motif-opt | FileCheck %s
// RUN: motif-opt %s --convert-nvvm-to-llvm | FileCheck %s --check-prefix=LLVM

// motif_nvvm.wgmma_rs round-trips, and upstream's convert-nvvm-to-llvm lowers
// it through BasicPtxBuilderOpInterface to one inline-assembly wgmma with A in
// registers: the N/2 accumulator outputs, their tied inputs, the four A
// registers, B's descriptor, then scale-d (a predicate), the two operand
// scales and trans-b as immediates.

!acc = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>

// CHECK-LABEL: func @rs
// CHECK: motif_nvvm.wgmma_rs %{{.*}}, [%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %{{.*}} {accumulate, elementType = bf16, n = 16 : i64, transposeB} : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK: motif_nvvm.wgmma_rs %{{.*}} {elementType = f16, n = 16 : i64}
// LLVM-LABEL: func @rs
// Operands $0-$7 the results, $8-$15 tied to them, $16-$19 A, $20 B's
// descriptor, $21 scale-d, $22-$24 the immediates: 1 1 1 with accumulate and
// transposeB, 0 1 1 0 without.
// LLVM: %[[S:.*]] = llvm.mlir.constant(1 : i32) : i32
// LLVM-NEXT: %[[SA:.*]] = llvm.mlir.constant(1 : i32) : i32
// LLVM-NEXT: %[[SB:.*]] = llvm.mlir.constant(1 : i32) : i32
// LLVM-NEXT: %[[T:.*]] = llvm.mlir.constant(1 : i32) : i32
// LLVM: llvm.inline_asm has_side_effects asm_dialect = att "{\0A.reg .pred p;\0Asetp.ne.b32 p, $21, 0;\0Awgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16 {$0, $1, $2, $3, $4, $5, $6, $7}, {$16, $17, $18, $19}, $20, p, $22, $23, $24;\0A}\0A", "=f,=f,=f,=f,=f,=f,=f,=f,0,1,2,3,4,5,6,7,r,r,r,r,l,n,n,n,n" {{.*}}, %arg1, %arg2, %arg3, %arg4, %arg5, %[[S]], %[[SA]], %[[SB]], %[[T]] :
// LLVM: %[[S2:.*]] = llvm.mlir.constant(0 : i32) : i32
// LLVM-NEXT: %[[SA2:.*]] = llvm.mlir.constant(1 : i32) : i32
// LLVM-NEXT: %[[SB2:.*]] = llvm.mlir.constant(1 : i32) : i32
// LLVM-NEXT: %[[T2:.*]] = llvm.mlir.constant(0 : i32) : i32
// LLVM: llvm.inline_asm {{.*}}m64n16k16.f32.f16.f16 {{.*}}, %arg1, %arg2, %arg3, %arg4, %arg5, %[[S2]], %[[SA2]], %[[SB2]], %[[T2]] :
// LLVM-NOT: motif_nvvm
func.func @rs(%acc: !acc, %a0: i32, %a1: i32, %a2: i32, %a3: i32, %desc: i64) -> !acc {
  %0 = motif_nvvm.wgmma_rs %acc, [%a0, %a1, %a2, %a3], %desc {n = 16 : i64, elementType = bf16, accumulate, transposeB} : !acc
  %1 = motif_nvvm.wgmma_rs %0, [%a0, %a1, %a2, %a3], %desc {n = 16 : i64, elementType = f16} : !acc
  return %1 : !acc
}
