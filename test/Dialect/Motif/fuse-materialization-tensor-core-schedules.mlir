// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance register-budget=160" --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s
// RUN: motif-opt %s --fuse-materialization --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=BITWISE
// Default schedules on tensor cores (docs/tiles.md, "Default schedules"): an
// f16/bf16 matrix product that states no tiles and whose shape divides
// 128x128x32 gets the mma.sync accumulator layout of examples/gemm_bf16.mlir,
// `mma m16n8k16 stages(2)` and threads(128), when the cap admits tolerance;
// its epilogue map takes the same tiles and the fusion keeps the product in
// registers (with a register budget of 128 accumulators). Under the bitwise
// cap, or with a shape that does not divide, a remark says why and the fma
// schedule applies.

// CHECK: remark: default schedule: the contraction of kernel 'mm' (256x256x128) runs on tensor cores: [block, thread, seq] -> [block x thread(4) x seq(4) x thread(8), block x seq(16) x thread(4) x seq(2), seq x seq(32)] mma m16n8k16 stages(2), threads(128); class tolerance
// CHECK: remark: the contraction of kernel 'mm' runs on tensor cores: mma.sync m16n8k16, bf16 x bf16 -> f32 (nvvm.mma.sync); 4 warps of 2 x 16 m16n8 accumulator tiles
// CHECK: remark: 'mm'#0 (tensor<256x256xf32>): global -> register
// CHECK: 2 stages (cp.async pipeline), 16-byte chunks XOR-swizzled within each 128-byte line (tensor cores: each ldmatrix row in its own banks)
// (stderr before stdout: the second case's remarks, then both outputs)
// CHECK: remark: not on tensor cores: the contraction of kernel 'small': 64x256x128 is not a multiple of the tensor-core tile 128x128x32 (masked partial tiles are not supported)
// CHECK: remark: default schedule: the contraction of kernel 'small' (64x256x128) states no tiles
// CHECK-LABEL: func.func @mm
// CHECK-SAME: motif.equivalence = #motif<equivalence tolerance>
// CHECK: motif.kernel "mm_round" threads(128)
// CHECK: motif.contract {{.*}} mma m16n8k16 stages(2)
// CHECK: motif.materialize %{{.*}} in register
// BITWISE: remark: not on tensor cores: the contraction of kernel 'mm' could run as mma.sync m16n8k16, which sums each 16-wide step of k its own way (class tolerance), and the equivalence cap is 'bitwise'
// BITWISE: remark: default schedule: the contraction of kernel 'mm' (256x256x128) states no tiles
// BITWISE-LABEL: func.func @mm
// BITWISE-NOT: mma m16n8k16
func.func @mm(%a: tensor<256x128xbf16>, %b: tensor<128x256xbf16>) -> tensor<256x256xbf16> {
  %c = motif.kernel "mm" threads(256) -> tensor<256x256xf32> {
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<256x128xbf16>, tensor<128x256xbf16>) -> tensor<256x256xf32>
    %g = motif.materialize %p in global : tensor<256x256xf32>
    motif.yield %g : tensor<256x256xf32>
  }
  %t = motif.kernel "round" threads(256) -> tensor<256x256xbf16> {
    %r = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (tensor<256x256xf32>) -> tensor<256x256xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %r in global : tensor<256x256xbf16>
    motif.yield %g : tensor<256x256xbf16>
  }
  return %t : tensor<256x256xbf16>
}

// -----

// negative: 64 rows do not fill a 128-row tile; the fma schedule applies.
// CHECK-LABEL: func.func @negative_shape
// CHECK-NOT: mma m16n8k16
func.func @negative_shape(%a: tensor<64x128xf16>, %b: tensor<256x128xf16>) -> tensor<64x256xf32> {
  %c = motif.kernel "small" threads(256) -> tensor<64x256xf32> {
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j] over [block, thread, seq]
           : (tensor<64x128xf16>, tensor<256x128xf16>) -> tensor<64x256xf32>
    %g = motif.materialize %p in global : tensor<64x256xf32>
    motif.yield %g : tensor<64x256xf32>
  }
  return %c : tensor<64x256xf32>
}
