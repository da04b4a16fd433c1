// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance chip=sm_90a" --split-input-file --mlir-print-op-on-diagnostic=false 2>%t.remarks | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s < %t.remarks
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance chip=sm_90" --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=SM90
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance chip=sm_90a shared-budget=65536" --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=BUDGET
// RUN: motif-opt %s --fuse-materialization="chip=sm_90a" --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=BITWISE
// The default schedule on wgmma (sm_90a; docs/tiles.md, "Default schedules"):
// a bf16/f16 product with B indexed [j, k] (an nn.Linear weight) and K a
// multiple of 64 that states no tiles takes the wgmma tile of
// examples/linear_bf16.mlir's grammar -- 64 or 128 rows (one or two
// warpgroups of an m64 tile) by 64, 128 or 256 columns, k in staged steps of
// 64 -- the largest that leaves mma-min-grid blocks, with 4 stages where they
// fit the per-block opt-in maximum (dynamic shared memory), else 3 or 2.
// Where none applies a remark says why and mma.sync takes it. The product's
// accumulators stay in registers through the epilogue whatever the register
// budget (default 64): the contraction holds them across its k loop anyway.

// CHECK: remark: default schedule: the contraction of kernel 'big' (4096x4096x256) runs on tensor cores: [block, thread, seq] -> [block x thread(8) x seq(2) x thread(8), block x seq(32) x thread(4) x seq(2), seq x seq(64)] mma m64n256k16 stages(4), threads(256); a 128x256 tile a block, 512 blocks (the largest tile that leaves mma-min-grid=132); on wgmma (sm_90a): 2 warpgroups of one m64 tile, k in steps of 64 through 4 stages of 128-byte swizzled tiles in dynamic shared memory; class tolerance
// CHECK: remark: the contraction of kernel 'big' runs on tensor cores: wgmma.mma_async m64n256k16, bf16 x bf16 -> f32 (nvvm.wgmma.mma_async, sm_90a); 2 warpgroups of one m64 x 256 tile (128 f32 registers per thread)
// CHECK: remark: 'big'#0 (tensor<4096x4096xf32>): global -> register (rule 1: not observable, same thread; the contraction's 128 accumulators per thread, registers across its k loop anyway (over the register budget, 64, which counts values a kernel adds)
// CHECK: argument #0 (tensor<4096x256xbf16>): global -> shared (rule 3: operand tile 128x64 {{.*}} 4 stages (cp.async pipeline)
// CHECK: argument #1 (tensor<4096x256xbf16>): global -> shared (rule 3: operand tile 256x64 {{.*}} 4 stages (cp.async pipeline)
// IR-LABEL: func.func @big
// IR: motif.kernel "big_big_round" threads(256)
// IR: motif.contract {{.*}} mma m64n256k16 stages(4)
// IR-NEXT: motif.materialize %{{.*}} in register {
// IR-NOT: shared_tail
// SM90: remark: default schedule: the contraction of kernel 'big' (4096x4096x256) runs on tensor cores: {{.*}} mma m16n8k16 stages(3), threads(128); a 128x128 tile a block, 1024 blocks
// SM90-NOT: {{on wgmma|wgmma.mma_async}}
// SM90: remark: 'big'#0 (tensor<4096x4096xf32>): global -> register (rule 1: not observable, same thread; the contraction's 128 accumulators per thread
// BUDGET: remark: default schedule: the contraction of kernel 'big' (4096x4096x256) runs on tensor cores: {{.*}} mma m64n64k16 stages(2), threads(256); a 128x64 tile a block, 2048 blocks
// BITWISE: remark: not on tensor cores: the contraction of kernel 'big' could run as wgmma.mma_async m64n256k16, which sums each 16-wide step of k its own way (class tolerance), and the equivalence cap is 'bitwise'
func.func @big(%a: tensor<4096x256xbf16>, %b: tensor<4096x256xbf16>) -> tensor<4096x4096xbf16> {
  %c = motif.kernel "big" threads(256) -> tensor<4096x4096xf32> {
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j] over [block, thread, seq]
           : (tensor<4096x256xbf16>, tensor<4096x256xbf16>) -> tensor<4096x4096xf32>
    %g = motif.materialize %p in global : tensor<4096x4096xf32>
    motif.yield %g : tensor<4096x4096xf32>
  }
  %r = motif.kernel "big_round" threads(256) -> tensor<4096x4096xbf16> {
    %t = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (tensor<4096x4096xf32>) -> tensor<4096x4096xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %t in global : tensor<4096x4096xbf16>
    motif.yield %g : tensor<4096x4096xbf16>
  }
  return %r : tensor<4096x4096xbf16>
}

// -----

// A partial last block (1000 x 1000): 64x64 tiles of one warpgroup.
// CHECK: remark: default schedule: the contraction of kernel 'odd' (1000x1000x1024) runs on tensor cores: {{.*}} mma m64n64k16 stages(4), threads(128); a 64x64 tile a block, 256 blocks (the largest tile within 1/8 of the least padding that leaves mma-min-grid=132; the last block of a dim partial, its rows and columns past 1000x1000 masked); on wgmma (sm_90a): 1 warpgroup of one m64 tile
func.func @odd(%a: tensor<1000x1024xbf16>, %b: tensor<1000x1024xbf16>) -> tensor<1000x1000xbf16> {
  %c = motif.kernel "odd" threads(256) -> tensor<1000x1000xf32> {
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j] over [block, thread, seq]
           : (tensor<1000x1024xbf16>, tensor<1000x1024xbf16>) -> tensor<1000x1000xf32>
    %g = motif.materialize %p in global : tensor<1000x1000xf32>
    motif.yield %g : tensor<1000x1000xf32>
  }
  %r = motif.kernel "odd_round" threads(256) -> tensor<1000x1000xbf16> {
    %t = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (tensor<1000x1000xf32>) -> tensor<1000x1000xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %t in global : tensor<1000x1000xbf16>
    motif.yield %g : tensor<1000x1000xbf16>
  }
  return %r : tensor<1000x1000xbf16>
}

// -----

// B indexed [k, j] (MN-major): wgmma too, B read transposed from 64-column
// atoms; the same tile as B [j, k] would take.
// CHECK: remark: default schedule: the contraction of kernel 'nn' (4096x4096x256) runs on tensor cores: {{.*}} mma m64n256k16 stages(4), threads(256); a 128x256 tile a block, 512 blocks {{.*}}; on wgmma (sm_90a)
// CHECK: remark: the contraction of kernel 'nn' runs on tensor cores: wgmma.mma_async m64n256k16, {{.*}} read by matrix descriptors (A [i, k], B [k, j] transposed, in 64-column atoms)
func.func @nn(%a: tensor<4096x256xbf16>, %b: tensor<256x4096xbf16>) -> tensor<4096x4096xbf16> {
  %c = motif.kernel "nn" threads(256) -> tensor<4096x4096xf32> {
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<4096x256xbf16>, tensor<256x4096xbf16>) -> tensor<4096x4096xf32>
    %g = motif.materialize %p in global : tensor<4096x4096xf32>
    motif.yield %g : tensor<4096x4096xf32>
  }
  %r = motif.kernel "nn_round" threads(256) -> tensor<4096x4096xbf16> {
    %t = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (tensor<4096x4096xf32>) -> tensor<4096x4096xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %t in global : tensor<4096x4096xbf16>
    motif.yield %g : tensor<4096x4096xbf16>
  }
  return %r : tensor<4096x4096xbf16>
}

// -----

// K = 96: not a multiple of wgmma's step of 64.
// CHECK: remark: default schedule: the contraction of kernel 'k96' (4096x4096x96) runs on tensor cores: {{.*}} mma m16n8k16 stages(3), {{.*}}; not on wgmma: its contracted extent 96 is not a multiple of wgmma's staged step of k, 64
func.func @k96(%a: tensor<4096x96xbf16>, %b: tensor<4096x96xbf16>) -> tensor<4096x4096xbf16> {
  %c = motif.kernel "k96" threads(256) -> tensor<4096x4096xf32> {
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j] over [block, thread, seq]
           : (tensor<4096x96xbf16>, tensor<4096x96xbf16>) -> tensor<4096x4096xf32>
    %g = motif.materialize %p in global : tensor<4096x4096xf32>
    motif.yield %g : tensor<4096x4096xf32>
  }
  %r = motif.kernel "k96_round" threads(256) -> tensor<4096x4096xbf16> {
    %t = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (tensor<4096x4096xf32>) -> tensor<4096x4096xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %t in global : tensor<4096x4096xbf16>
    motif.yield %g : tensor<4096x4096xbf16>
  }
  return %r : tensor<4096x4096xbf16>
}

// -----

// A small product: no wgmma tile leaves 132 blocks; mma.sync's smaller tiles do.
// CHECK: remark: default schedule: the contraction of kernel 'small' (256x256x128) runs on tensor cores: {{.*}} mma m16n8k16 stages(3), {{.*}}; not on wgmma: no wgmma tile (64 or 128 rows by 64, 128 or 256 columns) within 1/8 of the least padding leaves mma-min-grid=132 blocks with two stages in 232448 shared bytes
func.func @small(%a: tensor<256x128xbf16>, %b: tensor<256x128xbf16>) -> tensor<256x256xbf16> {
  %c = motif.kernel "small" threads(256) -> tensor<256x256xf32> {
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j] over [block, thread, seq]
           : (tensor<256x128xbf16>, tensor<256x128xbf16>) -> tensor<256x256xf32>
    %g = motif.materialize %p in global : tensor<256x256xf32>
    motif.yield %g : tensor<256x256xf32>
  }
  %r = motif.kernel "small_round" threads(256) -> tensor<256x256xbf16> {
    %t = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (tensor<256x256xf32>) -> tensor<256x256xbf16> {
    ^bb0(%x: f32):
      %y = arith.truncf %x : f32 to bf16
      motif.yield %y : bf16
    }
    %g = motif.materialize %t in global : tensor<256x256xbf16>
    motif.yield %g : tensor<256x256xbf16>
  }
  return %r : tensor<256x256xbf16>
}
