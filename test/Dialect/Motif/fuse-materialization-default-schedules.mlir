// RUN: motif-opt %s --fuse-materialization --split-input-file --verify-diagnostics --mlir-print-op-on-diagnostic=false | FileCheck %s
// RUN: motif-opt %s --fuse-materialization="default-schedules=false" --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=OFF

// Default schedules (docs/residency.md): a contraction that states no tiles
// gets the register-blocked tiled schedule sized to its shape; the maps that
// read its product element for element take the same tiles, so the fusion
// keeps the product in registers and stages the operand tiles.

// GEMM + bias + GELU, unfused and untiled (examples/gemm_bias_gelu.mlir):
// one kernel after fusion, the product and the biased product in registers.
// CHECK-LABEL: func.func @gemm_bias_gelu
// CHECK: motif.kernel "gemm_to_gelu" threads(256)
// CHECK-DAG: motif.materialize %arg0 in shared
// CHECK-DAG: motif.materialize %arg1 in shared
// CHECK: motif.contract (%{{.*}}[i, k], %{{.*}}[k, j]) -> [i, j] over [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4), seq x seq(32)]
// CHECK: motif.materialize %{{.*}} in register
// CHECK: motif.map (%{{.*}}[i, j], %{{.*}}[j]) -> [i, j] over [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4)]
// CHECK: motif.materialize %{{.*}} in register
// CHECK: math.erf
// CHECK: motif.materialize %{{.*}} in global
// CHECK-NOT: motif.kernel
// OFF-LABEL: func.func @gemm_bias_gelu
// OFF: motif.contract (%arg0[i, k], %arg1[k, j]) -> [i, j] over [block, thread, seq]
// OFF-NOT: remark: default schedule
func.func @gemm_bias_gelu(%x: tensor<256x384xf32>, %w: tensor<384x512xf32>,
                          %b: tensor<512xf32>) -> tensor<256x512xf32> {
  %t = motif.kernel "gemm" threads(128) -> tensor<256x512xf32> {
    // expected-remark @+1 {{default schedule: the contraction of kernel 'gemm' (256x512x384) states no tiles: [block, thread, seq] -> [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4), seq x seq(32)], threads(256); bitwise (the contracted dim still folds k = 0, 1, ...); a mapping with a tile nest is never changed}}
    %p = motif.contract (%x[i, k], %w[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<256x384xf32>, tensor<384x512xf32>) -> tensor<256x512xf32>
    // expected-remark @+1 {{global -> register}}
    %g = motif.materialize %p in global : tensor<256x512xf32>
    motif.yield %g : tensor<256x512xf32>
  }
  %u = motif.kernel "bias" threads(256) -> tensor<256x512xf32> {
    // expected-remark @+1 {{default schedule: the map of kernel 'bias' reads the tiled product element for element; it takes the product's tiles [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4)] and threads(256) (so the fusion can keep the product in registers)}}
    %s = motif.map (%t[i, j], %b[j]) -> [i, j] over [block, thread]
           : (tensor<256x512xf32>, tensor<512xf32>) -> tensor<256x512xf32> {
    ^bb0(%a: f32, %c: f32):
      %r = arith.addf %a, %c : f32
      motif.yield %r : f32
    }
    // expected-remark @+1 {{global -> register}}
    %g = motif.materialize %s in global : tensor<256x512xf32>
    motif.yield %g : tensor<256x512xf32>
  }
  // The merged kernel then stages both operand tiles and the bias row (rule 3).
  // expected-remark @+3 {{argument #0 (tensor<256x384xf32>): global -> shared (rule 3: operand tile 128x32 per block per step of the reduction loop (12 steps), 16896 B; each element read by 16 threads, 128 times in all; rows padded by one word}}
  // expected-remark @+2 {{argument #1 (tensor<384x512xf32>): global -> shared (rule 3: operand tile 32x128 per block per step of the reduction loop (12 steps), 16384 B}}
  // expected-remark @+1 {{argument #2 (tensor<512xf32>): global -> shared}}
  %y = motif.kernel "gelu" threads(256) -> tensor<256x512xf32> {
    // expected-remark @+1 {{default schedule: the map of kernel 'gelu' reads the tiled product element for element}}
    %o = motif.map (%u[i, j]) -> [i, j] over [block, thread]
           : (tensor<256x512xf32>) -> tensor<256x512xf32> {
    ^bb0(%a: f32):
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %rsqrt2 = arith.constant 0.707106769 : f32
      %z = arith.mulf %a, %rsqrt2 : f32
      %e = math.erf %z : f32
      %e1 = arith.addf %e, %one : f32
      %h = arith.mulf %a, %half : f32
      %r = arith.mulf %h, %e1 : f32
      motif.yield %r : f32
    }
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %o in global : tensor<256x512xf32>
    motif.yield %g : tensor<256x512xf32>
  }
  return %y : tensor<256x512xf32>
}

// -----

// Smaller shapes take smaller runs: 32 x 48 outputs (2 x 1 per thread), K = 24
// (steps of 8).
// CHECK-LABEL: func.func @small
// CHECK: motif.contract {{.*}} over [block x thread(16) x seq(2), block x thread(16), seq x seq(8)]
func.func @small(%a: tensor<32x24xf32>, %b: tensor<24x48xf32>) -> tensor<32x48xf32> {
  // expected-remark @+2 {{argument #0 (tensor<32x24xf32>): global -> shared (rule 3: operand tile 32x8 per block per step of the reduction loop (3 steps)}}
  // expected-remark @+1 {{argument #1 (tensor<24x48xf32>): global -> shared (rule 3: operand tile 8x16 per block per step of the reduction loop (3 steps)}}
  %c = motif.kernel "mm" threads(64) -> tensor<32x48xf32> {
    // expected-remark @+1 {{default schedule: the contraction of kernel 'mm' (32x48x24) states no tiles}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<32x24xf32>, tensor<24x48xf32>) -> tensor<32x48xf32>
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %p in global : tensor<32x48xf32>
    motif.yield %g : tensor<32x48xf32>
  }
  return %c : tensor<32x48xf32>
}

// -----

// A mapping with a tile nest is the user's: no default schedule, no remark
// about one (the staging of its tiles is rule 3's).
// CHECK-LABEL: func.func @user_tiles
// CHECK: over [block x thread(16) x seq(2), block x thread(16) x seq(2), seq]
func.func @user_tiles(%a: tensor<64x16xf32>, %b: tensor<16x64xf32>) -> tensor<64x64xf32> {
  // expected-remark @+2 {{argument #0 (tensor<64x16xf32>): global -> shared}}
  // expected-remark @+1 {{argument #1 (tensor<16x64xf32>): global -> shared}}
  %c = motif.kernel "mm" threads(256) -> tensor<64x64xf32> {
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [block x thread(16) x seq(2), block x thread(16) x seq(2), seq]
           : (tensor<64x16xf32>, tensor<16x64xf32>) -> tensor<64x64xf32>
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %p in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %c : tensor<64x64xf32>
}

// -----

// 40 rows are not a multiple of the 16-thread grid: 16-row tiles (3 blocks,
// 48 rows, against 64 for runs of 2), the last block partial, rows 40..47
// masked (docs/dialect.md, "Partial last tiles"); the 64 columns take runs
// of 4.
// CHECK-LABEL: func.func @partial_rows
// CHECK: over [block x thread(16), block x thread(16) x seq(4), seq]
func.func @partial_rows(%a: tensor<40x8xf32>, %b: tensor<8x64xf32>) -> tensor<40x64xf32> {
  // The operand tiles of a block are staged as for whole tiles (the last
  // block's copy of A clamps its rows to the tensor's last).
  // expected-remark @+2 {{argument #0 (tensor<40x8xf32>): global -> shared (rule 3: operand tile 16x8 per block, 512 B}}
  // expected-remark @+1 {{argument #1 (tensor<8x64xf32>): global -> shared (rule 3: operand tile 8x64 per block, 2048 B}}
  %c = motif.kernel "mm" threads(64) -> tensor<40x64xf32> {
    // expected-remark @+1 {{default schedule: the contraction of kernel 'mm' (40x64x8) states no tiles: [block, thread, seq] -> [block x thread(16), block x thread(16) x seq(4), seq], threads(256); the last block of a dim partial, its rows and columns past 40x64 masked; bitwise (the contracted dim still folds k = 0, 1, ...)}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<40x8xf32>, tensor<8x64xf32>) -> tensor<40x64xf32>
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %p in global : tensor<40x64xf32>
    motif.yield %g : tensor<40x64xf32>
  }
  return %c : tensor<40x64xf32>
}

// -----

// negative_: a matrix-vector product has no output tile to reuse across: not
// a candidate, so no remark at all (verify-diagnostics fails on any).
// CHECK-LABEL: func.func @negative_matvec
// CHECK: over [block, seq]
func.func @negative_matvec(%a: tensor<64x32xf32>, %v: tensor<32xf32>) -> tensor<64xf32> {
  %c = motif.kernel "mv" threads(64) -> tensor<64xf32> {
    %p = motif.contract (%a[i, k], %v[k]) -> [i] over [block, seq]
           : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64xf32>
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %p in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %c : tensor<64xf32>
}

// -----

// negative_: the contraction shares its kernel (and block size) with a map.
// CHECK-LABEL: func.func @negative_shared_kernel
// CHECK: over [block, thread, seq]
func.func @negative_shared_kernel(%a: tensor<32x16xf32>, %b: tensor<16x32xf32>) -> tensor<32x32xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<32x32xf32> {
    // expected-remark @+1 {{default schedule not applied to the contraction of kernel 'mm': kernel 'mm' holds other motifs (its block size is theirs too)}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<32x16xf32>, tensor<16x32xf32>) -> tensor<32x32xf32>
    %r = motif.materialize %p in register : tensor<32x32xf32>
    %s = motif.map (%r[i, j]) -> [i, j] over [block, thread] : (tensor<32x32xf32>) -> tensor<32x32xf32> {
    ^bb0(%x: f32):
      %two = arith.constant 2.0 : f32
      %y = arith.mulf %x, %two : f32
      motif.yield %y : f32
    }
    // expected-remark @+1 {{stays global}}
    %g = motif.materialize %s in global : tensor<32x32xf32>
    motif.yield %g : tensor<32x32xf32>
  }
  return %c : tensor<32x32xf32>
}
