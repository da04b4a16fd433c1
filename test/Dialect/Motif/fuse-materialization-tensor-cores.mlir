// RUN: motif-opt %s --fuse-materialization --split-input-file --verify-diagnostics --mlir-print-op-on-diagnostic=false | FileCheck %s
// --fuse-materialization says which contraction runs on tensor cores, with
// which instruction and tiling, and why a product the instruction could take
// does not (tensor cores are opt-in: `mma m16n8k16`, class tolerance). The
// program's mapping and `mma` are kept; the product stays in registers for
// the bf16 truncation.

// CHECK-LABEL: func.func @on_tensor_cores
// CHECK: motif.contract {{.*}} mma m16n8k16
// CHECK: motif.materialize %{{.*}} in register
func.func @on_tensor_cores(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  %c = motif.kernel "mm" threads(64) -> tensor<64x64xbf16> {
    %as = motif.materialize %a in shared : tensor<64x64xbf16>
    %bs = motif.materialize %b in shared : tensor<64x64xbf16>
    // expected-remark @+1 {{the contraction of kernel 'mm' runs on tensor cores: mma.sync m16n8k16, bf16 x bf16 -> f32 (nvvm.mma.sync); 2 warps of 1 x 4 m16n8 accumulator tiles (16 f32 registers per thread), a 32x32 tile per block; k in 2 steps of 32 staged by cp.async through 2 stages, fragments by ldmatrix (B [k, j], .trans); class tolerance against the fma form (the instruction sums each 16-wide step of k its own way)}}
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(2) x seq(2) x thread(8), block x seq(4) x thread(4) x seq(2), seq x seq(32)]
           mma m16n8k16
           : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xf32>
    %pr = motif.materialize %p in register : tensor<64x64xf32>
    %t = motif.map (%pr[i, j]) -> [i, j]
           over [block x thread(2) x seq(2) x thread(8), block x seq(4) x thread(4) x seq(2)]
           : (tensor<64x64xf32>) -> tensor<64x64xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %t in global : tensor<64x64xbf16>
    motif.yield %g : tensor<64x64xbf16>
  }
  return %c : tensor<64x64xbf16>
}

// -----

// negative: the same mapping without `mma` stays on fma, and says so.
// CHECK-LABEL: func.func @negative_not_opted_in
// CHECK-NOT: mma m16n8k16
func.func @negative_not_opted_in(%a: tensor<64x64xf16>, %b: tensor<64x64xf16>) -> tensor<64x64xf32> {
  %c = motif.kernel "mm" threads(64) -> tensor<64x64xf32> {
    %as = motif.materialize %a in shared : tensor<64x64xf16>
    %bs = motif.materialize %b in shared : tensor<64x64xf16>
    // expected-remark @+1 {{the contraction of kernel 'mm' maps its result in the mma.sync m16n8k16 accumulator layout but does not state `mma m16n8k16`: it runs on fma (tensor cores are opt-in: they change the sum over each 16-wide step of k, class tolerance)}}
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(2) x seq(2) x thread(8), block x seq(4) x thread(4) x seq(2), seq x seq(32)]
           : (tensor<64x64xf16>, tensor<64x64xf16>) -> tensor<64x64xf32>
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %p in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %c : tensor<64x64xf32>
}
