// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance" --split-input-file --verify-diagnostics --mlir-print-op-on-diagnostic=false | FileCheck %s
// tf32 is an opt-in contraction precision (docs/dialect.md, "tf32"): an f32
// product runs on tensor cores only where it states `mma m16n8k8`, and the
// remark names the instruction and the rounding. The same mapping without
// `mma`, and an f32 product that states no tiles (the default schedules,
// even under a tolerance cap), stay on fma and say so.

// CHECK-LABEL: func.func @on_tf32
// CHECK: motif.contract {{.*}} mma m16n8k8
func.func @on_tf32(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = motif.kernel "mm" threads(64) -> tensor<64x64xf32> {
    %as = motif.materialize %a in shared : tensor<64x64xf32>
    %bs = motif.materialize %b in shared : tensor<64x64xf32>
    // expected-remark @+1 {{the contraction of kernel 'mm' runs on tensor cores: mma.sync m16n8k8, tf32 x tf32 -> f32 (nvgpu.mma.sync tf32Enabled, the operands rounded by cvt.rna.tf32.f32); 2 warps of 1 x 4 m16n8 accumulator tiles (16 f32 registers per thread), a 32x32 tile per block; k in 4 steps of 16 staged by cp.async through 3 stages, A fragments by ldmatrix, B by 32-bit loads (B [k, j]); class tolerance against the fma form (the instruction sums each 8-wide step of k its own way and multiplies the operands rounded to tf32, 2^-10 relative per product)}}
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(2) x seq(2) x thread(8), block x seq(4) x thread(4) x seq(2), seq x seq(16)]
           mma m16n8k8
           : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %p in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %c : tensor<64x64xf32>
}

// -----

// negative: the accumulator layout without `mma m16n8k8` stays on fma.
// CHECK-LABEL: func.func @negative_tf32_not_opted_in
// CHECK-NOT: mma m16n8k8
func.func @negative_tf32_not_opted_in(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %c = motif.kernel "mm" threads(64) -> tensor<64x64xf32> {
    %as = motif.materialize %a in shared : tensor<64x64xf32>
    %bs = motif.materialize %b in shared : tensor<64x64xf32>
    // expected-remark @+1 {{the contraction of kernel 'mm' maps its result in the mma.sync m16n8k8 accumulator layout but does not state `mma m16n8k8`: its f32 operands stay on fma (tf32 is opt-in: it rounds the operands to 10-bit significands and changes the sum over each 8-wide step of k, class tolerance)}}
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(2) x seq(2) x thread(8), block x seq(4) x thread(4) x seq(2), seq x seq(16)]
           : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %p in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %c : tensor<64x64xf32>
}

// -----

// negative: the default schedules never pick tf32 for an f32 product, even
// under a tolerance cap and at a shape the bf16 tensor-core tile divides.
// CHECK-LABEL: func.func @negative_default_f32
// CHECK-NOT: mma
func.func @negative_default_f32(%a: tensor<256x128xf32>, %b: tensor<128x256xf32>) -> tensor<256x256xf32> {
  // expected-remark @+2 {{argument #0 (tensor<256x128xf32>): global -> shared}}
  // expected-remark @+1 {{argument #1 (tensor<128x256xf32>): global -> shared}}
  %c = motif.kernel "mm" threads(256) -> tensor<256x256xf32> {
    // expected-remark @+1 {{default schedule: the contraction of kernel 'mm' (256x256x128) states no tiles: [block, thread, seq] -> [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4), seq x seq(32)], threads(256); bitwise (the contracted dim still folds k = 0, 1, ...); a mapping with a tile nest is never changed; f32 operands stay on fma: tf32 tensor cores (`mma m16n8k8`) round them and are opt-in only}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<256x128xf32>, tensor<128x256xf32>) -> tensor<256x256xf32>
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %p in global : tensor<256x256xf32>
    motif.yield %g : tensor<256x256xf32>
  }
  return %c : tensor<256x256xf32>
}
