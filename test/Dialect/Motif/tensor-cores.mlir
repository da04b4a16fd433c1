// RUN: motif-opt %s | FileCheck %s
// RUN: motif-opt %s | motif-opt | FileCheck %s
// RUN: motif-opt %s --mlir-print-op-generic | motif-opt | FileCheck %s
// RUN: motif-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// Contractions on tensor cores (docs/dialect.md, "Tensor cores"): `mma
// m16n8k16` after the mapping, which is the accumulator layout of mma.sync
// m16n8k16; printed as written, and in the generic form as the `mma`
// attribute (and `stages(n)`, the cp.async pipeline's buffers, as
// `mma_stages`).

// CHECK-LABEL: func.func @bf16_k_major
// CHECK: motif.contract (%{{.*}}[i, k], %{{.*}}[k, j]) -> [i, j] over [block x thread(2) x seq(2) x thread(8), block x seq(4) x thread(4) x seq(2), seq x seq(32)] mma m16n8k16 :
// GENERIC: mma = #motif<mma_shape m16n8k16>
func.func @bf16_k_major(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %c = motif.kernel "mm" threads(64) -> tensor<64x64xf32> {
    %as = motif.materialize %a in shared : tensor<64x64xbf16>
    %bs = motif.materialize %b in shared : tensor<64x64xbf16>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(2) x seq(2) x thread(8), block x seq(4) x thread(4) x seq(2), seq x seq(32)]
           mma m16n8k16
           : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xf32>
    %g = motif.materialize %p in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %c : tensor<64x64xf32>
}

// One warp, no block level, B indexed [j, k] (an N x K matrix), f16.
// CHECK-LABEL: func.func @f16_n_major
// CHECK: motif.contract (%{{.*}}[i, k], %{{.*}}[j, k]) -> [i, j] over [seq(2) x thread(8), thread(4) x seq(2), seq(1) x seq(16)] mma m16n8k16 stages(1) :
// GENERIC: mma_stages = 1 : i64
func.func @f16_n_major(%a: tensor<16x16xf16>, %b: tensor<8x16xf16>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    %as = motif.materialize %a in shared : tensor<16x16xf16>
    %bs = motif.materialize %b in shared : tensor<8x16xf16>
    %p = motif.contract (%as[i, k], %bs[j, k]) -> [i, j]
           over [seq(2) x thread(8), thread(4) x seq(2), seq(1) x seq(16)] mma m16n8k16 stages(1)
           : (tensor<16x16xf16>, tensor<8x16xf16>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// tf32: f32 operands, `mma m16n8k8` (mma.sync m16n8k8, the operands rounded
// to tf32); the accumulator layout is m16n8k16's, k in steps of 8.
// CHECK-LABEL: func.func @tf32_k_major
// CHECK: motif.contract (%{{.*}}[i, k], %{{.*}}[k, j]) -> [i, j] over [block x thread(2) x seq(2) x thread(8), block x seq(4) x thread(4) x seq(2), seq x seq(8)] mma m16n8k8 stages(2) :
// GENERIC: mma = #motif<mma_shape m16n8k8>
func.func @tf32_k_major(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = motif.kernel "mm" threads(64) -> tensor<64x64xf32> {
    %as = motif.materialize %a in shared : tensor<64x64xf32>
    %bs = motif.materialize %b in shared : tensor<64x64xf32>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(2) x seq(2) x thread(8), block x seq(4) x thread(4) x seq(2), seq x seq(8)]
           mma m16n8k8 stages(2)
           : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %g = motif.materialize %p in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %c : tensor<64x64xf32>
}
