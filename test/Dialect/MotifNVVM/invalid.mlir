// RUN: motif-opt %s -split-input-file -verify-diagnostics

// The verifier of motif_nvvm.wgmma_rs: N a multiple of 8 (8 to 256), four A
// registers, an accumulator of N/2 f32, A and B both bf16 or f16.

!acc8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @n_not_multiple_of_8(%acc: !acc8, %a: i32, %d: i64) -> !acc8 {
  // expected-error @+1 {{n = 12 is not a multiple of 8}}
  %0 = motif_nvvm.wgmma_rs %acc, [%a, %a, %a, %a], %d {n = 12 : i64, elementType = bf16} : !acc8
  return %0 : !acc8
}

// -----

!acc8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @n_too_large(%acc: !acc8, %a: i32, %d: i64) -> !acc8 {
  // expected-error @+1 {{attribute 'n' failed to satisfy constraint}}
  %0 = motif_nvvm.wgmma_rs %acc, [%a, %a, %a, %a], %d {n = 264 : i64, elementType = bf16} : !acc8
  return %0 : !acc8
}

// -----

!acc8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @three_a_registers(%acc: !acc8, %a: i32, %d: i64) -> !acc8 {
  // expected-error @+1 {{takes 4 registers of A (a 64 x 16 tile of 'bf16', 2 per register), not 3}}
  %0 = motif_nvvm.wgmma_rs %acc, [%a, %a, %a], %d {n = 16 : i64, elementType = bf16} : !acc8
  return %0 : !acc8
}

// -----

!acc8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @accumulator_size(%acc: !acc8, %a: i32, %d: i64) -> !acc8 {
  // expected-error @+1 {{accumulator must be a struct of 16 f32 (m64n32 in f32)}}
  %0 = motif_nvvm.wgmma_rs %acc, [%a, %a, %a, %a], %d {n = 32 : i64, elementType = bf16} : !acc8
  return %0 : !acc8
}

// -----

!acc4 = !llvm.struct<(f32, f32, f32, i32)>
func.func @accumulator_type(%acc: !acc4, %a: i32, %d: i64) -> !acc4 {
  // expected-error @+1 {{accumulator must be a struct of 4 f32 (m64n8 in f32)}}
  %0 = motif_nvvm.wgmma_rs %acc, [%a, %a, %a, %a], %d {n = 8 : i64, elementType = f16} : !acc4
  return %0 : !acc4
}

// -----

!acc8 = !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
func.func @element_type(%acc: !acc8, %a: i32, %d: i64) -> !acc8 {
  // expected-error @+1 {{attribute 'elementType' failed to satisfy constraint}}
  %0 = motif_nvvm.wgmma_rs %acc, [%a, %a, %a, %a], %d {n = 16 : i64, elementType = f32} : !acc8
  return %0 : !acc8
}
