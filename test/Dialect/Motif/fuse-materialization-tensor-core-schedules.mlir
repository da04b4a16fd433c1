// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance register-budget=160 mma-min-grid=0" --split-input-file --mlir-print-op-on-diagnostic=false 2>%t.remarks | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t.remarks
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance register-budget=160" --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=GRID
// RUN: motif-opt %s --fuse-materialization --split-input-file --mlir-print-op-on-diagnostic=false 2>%t.bitwise | FileCheck %s --check-prefix=BITWISE
// RUN: FileCheck %s --check-prefix=BITWISER < %t.bitwise
// RUN: not motif-opt %s --fuse-materialization="mma-min-grid=-2" --split-input-file 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance chip=sm_80" --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=SM80
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance mma-min-grid=0 shared-budget=32768" --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=BUDGET2
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance mma-min-grid=0 shared-budget=16384" --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=BUDGET1
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance mma-min-grid=0 shared-budget=1024" --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=BUDGET0
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance shared-budget=24576" --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=KBUDGET
// Default schedules on tensor cores (docs/tiles.md, "Default schedules"): an
// f16/bf16 matrix product that states no tiles and whose shape divides
// 16x8x16 gets the mma.sync accumulator layout of examples/gemm_bf16.mlir in
// a block tile from 128x128 down to 16x8, `mma m16n8k16 stages(3)` and 32 to
// 128 threads, when the cap admits tolerance: the largest tile that leaves
// mma-min-grid blocks (default 132, an H100's SMs), else the one with the
// most; mma-min-grid=0 takes the largest that divides. Its epilogue map takes
// the same tiles and the fusion keeps the product in registers (with a
// register budget of 128 accumulators). M x N not a multiple of 16x8 takes
// a tile within 1/8 of the least padding, the last block partial (masked).
// Under the bitwise cap, with k not a multiple of 16, or with rows of B
// [k, j] that are not 16-byte multiples, a remark says why and the fma
// schedule applies (its partial tiles too).

// CHECK: remark: default schedule: the contraction of kernel 'mm' (256x256x128) runs on tensor cores: [block, thread, seq] -> [block x thread(4) x seq(4) x thread(8), block x seq(16) x thread(4) x seq(2), seq x seq(32)] mma m16n8k16 stages(3), threads(128); a 128x128 tile a block, 4 blocks (the largest tile that divides); class tolerance
// CHECK: remark: the contraction of kernel 'mm' runs on tensor cores: mma.sync m16n8k16, bf16 x bf16 -> f32 (nvvm.mma.sync); 4 warps of 2 x 16 m16n8 accumulator tiles
// CHECK: remark: 'mm'#0 (tensor<256x256xf32>): global -> register
// CHECK: 3 stages (cp.async pipeline), 16-byte chunks XOR-swizzled within each 128-byte line (tensor cores: each ldmatrix row in its own banks)
// CHECK: remark: default schedule: the contraction of kernel 'small' (64x256x128) runs on tensor cores: [block, thread, seq] -> [block x thread(4) x seq(2) x thread(8), block x seq(16) x thread(4) x seq(2), seq x seq(32)] mma m16n8k16 stages(3), threads(128); a 64x128 tile a block, 2 blocks (the largest tile that divides)
// CHECK: remark: default schedule: the contraction of kernel 'k48' (96x40x48) runs on tensor cores: [block, thread, seq] -> [block x thread(2) x seq(2) x thread(8), block x thread(4) x seq(2), seq x seq(16)] mma m16n8k16 stages(3), threads(64); a 32x8 tile a block, 15 blocks (the largest tile that divides)
// CHECK: remark: default schedule: the contraction of kernel 'odd' (100x256x128) runs on tensor cores: {{.*}} threads(32); a 16x128 tile a block, 14 blocks (the largest tile within 1/8 of the least padding; the last block of a dim partial, its rows and columns past 100x256 masked)
// CHECK: remark: not on tensor cores: the contraction of kernel 'oddk': its contracted extent 120 is not a multiple of the tensor-core step of k, 16 (partial k steps are not supported)
// CHECK: remark: not on tensor cores: the contraction of kernel 'oddn': its second operand is indexed [k, j] with rows of 100 elements, not a multiple of 16 bytes (8 elements), which cp.async copies at a time
// CHECK: remark: default schedule: the contraction of kernel 'oddn' (64x100x128) states no tiles: {{.*}} the last block of a dim partial, its rows and columns past 64x100 masked; bitwise
// IR-LABEL: func.func @mm
// IR-SAME: motif.equivalence = #motif<equivalence tolerance>
// IR: motif.kernel "mm_round" threads(128)
// IR: motif.contract {{.*}} mma m16n8k16 stages(3)
// IR: motif.materialize %{{.*}} in register
// A 16x16 tile walks k in steps of 128, the largest that divides K whose three
// stages fit 48 KiB (3 x 32 x 128 x 2 B = 24 KiB; the 128x128 tile above keeps 32).
// GRID: remark: default schedule: the contraction of kernel 'mm' (256x256x128) runs on tensor cores: [block, thread, seq] -> [block x seq(2) x thread(8), block x seq(2) x thread(4) x seq(2), seq x seq(128)] mma m16n8k16 stages(3), threads(32); a 16x16 tile a block, 256 blocks (the largest tile that leaves mma-min-grid=132); class tolerance
// GRID: remark: default schedule: the contraction of kernel 'small' (64x256x128) runs on tensor cores: {{.*}} threads(32); a 16x8 tile a block, 128 blocks (no tile leaves mma-min-grid=132 blocks: the one with the most)
// GRID: remark: default schedule: the contraction of kernel 'odd' (100x256x128) runs on tensor cores: {{.*}} threads(32); a 16x8 tile a block, 224 blocks (the largest tile within 1/8 of the least padding that leaves mma-min-grid=132; the last block of a dim partial, its rows and columns past 100x256 masked)
// NEG: error: fuse-materialization: mma-min-grid -2 is below -1 (-1: the chip's SMs; 0 takes the largest tile that divides)
// The default (-1) is the chip's SMs: 108 on sm_80 (A100), where 256x256 takes
// 32x16 tiles (128 blocks) instead of sm_90's 16x16 (256).
// SM80: remark: default schedule: the contraction of kernel 'mm' (256x256x128) runs on tensor cores: {{.*}} threads(64); a 32x16 tile a block, 128 blocks (the largest tile that leaves mma-min-grid=108)
// Three cp.async stages where they fit the shared budget (48 KiB: 3 x 16 KiB
// at 128x128 with k steps of 32), else two, else one; a tile one stage of
// which does not fit is no candidate, and with none a remark says so.
// BUDGET2: (256x256x128) runs on tensor cores: {{.*}} mma m16n8k16 stages(2), threads(128); a 128x128 tile a block
// BUDGET1: (256x256x128) runs on tensor cores: {{.*}} mma m16n8k16 stages(1), threads(128); a 128x128 tile a block
// BUDGET0: remark: not on tensor cores: the contraction of kernel 'mm': one stage of its smallest operand tiles (16x32 and 32x8) takes 1536 shared bytes, over the budget (1024)
// BITWISER: remark: not on tensor cores: the contraction of kernel 'mm' could run as mma.sync m16n8k16, which sums each 16-wide step of k its own way (class tolerance), and the equivalence cap is 'bitwise'
// BITWISER: remark: default schedule: the contraction of kernel 'mm' (256x256x128) states no tiles
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

// 64 rows: a 64x128 tile, B indexed [j, k].
// IR-LABEL: func.func @rows64
// IR: mma m16n8k16
func.func @rows64(%a: tensor<64x128xf16>, %b: tensor<256x128xf16>) -> tensor<64x256xf32> {
  %c = motif.kernel "small" threads(256) -> tensor<64x256xf32> {
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j] over [block, thread, seq]
           : (tensor<64x128xf16>, tensor<256x128xf16>) -> tensor<64x256xf32>
    %g = motif.materialize %p in global : tensor<64x256xf32>
    motif.yield %g : tensor<64x256xf32>
  }
  return %c : tensor<64x256xf32>
}

// -----

// k in steps of 16 (32 does not divide 48); 40 columns take n8 tiles.
// IR-LABEL: func.func @k48
// IR: mma m16n8k16
func.func @k48(%a: tensor<96x48xbf16>, %b: tensor<48x40xbf16>) -> tensor<96x40xf32> {
  %c = motif.kernel "k48" threads(256) -> tensor<96x40xf32> {
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<96x48xbf16>, tensor<48x40xbf16>) -> tensor<96x40xf32>
    %g = motif.materialize %p in global : tensor<96x40xf32>
    motif.yield %g : tensor<96x40xf32>
  }
  return %c : tensor<96x40xf32>
}

// -----

// 100 rows are no multiple of 16: the last block of 'i' is partial (rows
// 100..111 masked). Only 16-row tiles pad within 1/8 of the least (112 rows
// against 128 for the others); mma-min-grid=0 takes the largest of them.
// IR-LABEL: func.func @partial_rows
// IR: motif.contract {{.*}} over [block x seq(2) x thread(8), block x seq(16) x thread(4) x seq(2), seq x seq(32)] mma m16n8k16 stages(3)
func.func @partial_rows(%a: tensor<100x128xf16>, %b: tensor<256x128xf16>) -> tensor<100x256xf32> {
  %c = motif.kernel "odd" threads(256) -> tensor<100x256xf32> {
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j] over [block, thread, seq]
           : (tensor<100x128xf16>, tensor<256x128xf16>) -> tensor<100x256xf32>
    %g = motif.materialize %p in global : tensor<100x256xf32>
    motif.yield %g : tensor<100x256xf32>
  }
  return %c : tensor<100x256xf32>
}

// -----

// negative: k = 120 is no multiple of 16 (no partial k steps); the fma
// schedule applies.
// IR-LABEL: func.func @negative_k
// IR-NOT: mma m16n8k16
func.func @negative_k(%a: tensor<64x120xbf16>, %b: tensor<120x64xbf16>) -> tensor<64x64xf32> {
  %c = motif.kernel "oddk" threads(256) -> tensor<64x64xf32> {
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<64x120xbf16>, tensor<120x64xbf16>) -> tensor<64x64xf32>
    %g = motif.materialize %p in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %c : tensor<64x64xf32>
}

// -----

// negative: B [k, j] rows of 100 bf16 (200 bytes) are not 16-byte aligned
// for cp.async; the fma schedule applies, its last block of columns partial.
// IR-LABEL: func.func @negative_rows
// IR-NOT: mma m16n8k16
func.func @negative_rows(%a: tensor<64x128xbf16>, %b: tensor<128x100xbf16>) -> tensor<64x100xf32> {
  %c = motif.kernel "oddn" threads(256) -> tensor<64x100xf32> {
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<64x128xbf16>, tensor<128x100xbf16>) -> tensor<64x100xf32>
    %g = motif.materialize %p in global : tensor<64x100xf32>
    motif.yield %g : tensor<64x100xf32>
  }
  return %c : tensor<64x100xf32>
}

// -----

// A GEMV (M = 1): one 16x16 tile a block (a block per SM), k in steps of 256,
// the largest whose three stages fit 48 KiB (3 x 32 x 256 x 2 B); with a
// 24 KiB budget 128 (docs/results/kstep-variants-h100-session25.txt: 0.064 ms
// at 32, 0.030 at 256 on an H100).
// GRID: remark: default schedule: the contraction of kernel 'gemv' (1x4096x4096) runs on tensor cores: {{.*}} seq x seq(256)] mma m16n8k16 stages(3), threads(32); a 16x16 tile a block, 256 blocks
// KBUDGET: remark: default schedule: the contraction of kernel 'gemv' (1x4096x4096) runs on tensor cores: {{.*}} seq x seq(128)] mma m16n8k16 stages(3), threads(32); a 16x16 tile a block
// With mma-min-grid=0 the tile is 16x128, whose three stages of 64-wide steps
// would take 54 KiB: it keeps 32.
// IR-LABEL: func.func @gemv
// IR: seq x seq(32)] mma m16n8k16 stages(3)
func.func @gemv(%a: tensor<1x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<1x4096xf32> {
  %c = motif.kernel "gemv" threads(256) -> tensor<1x4096xf32> {
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<1x4096xbf16>, tensor<4096x4096xbf16>) -> tensor<1x4096xf32>
    %g = motif.materialize %p in global : tensor<1x4096xf32>
    motif.yield %g : tensor<1x4096xf32>
  }
  return %c : tensor<1x4096xf32>
}
