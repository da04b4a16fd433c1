// Row blocks (docs/residency.md, "Row blocks"): a row kernel whose block is
// larger than its rows need gets a smaller one before the fusion decides:
// [block, thread] rows 16 elements a thread (class tolerance where the row is
// reduced), [block.warp, lane] rows four a block (bitwise).
// RUN: motif-opt %s --fuse-materialization=equivalence-cap=tolerance --split-input-file --mlir-print-op-on-diagnostic=false -o %t.tol 2>%t.tol.remarks
// RUN: FileCheck %s --check-prefix=TOL < %t.tol
// RUN: FileCheck %s --check-prefix=TOL-REMARK < %t.tol.remarks
// RUN: motif-opt %s --fuse-materialization --split-input-file --mlir-print-op-on-diagnostic=false -o %t.bit 2>%t.bit.remarks
// RUN: FileCheck %s --check-prefix=BIT < %t.bit
// RUN: FileCheck %s --check-prefix=BIT-REMARK < %t.bit.remarks
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance row-blocks=false" --split-input-file --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=OFF
// The re-blocked, fused programs against the written ones, on random inputs,
// through the GPU's reduction trees (the schedule model): within tolerance;
// the warp rows bit for bit.
// RUN: motif-opt %S/Inputs/row-blocks-one.mlir --fuse-materialization=equivalence-cap=tolerance -o %t.one 2>/dev/null
// RUN: motif-equiv --class=tolerance --rtol=1e-5 --trials=2 %S/Inputs/row-blocks-one.mlir %t.one | FileCheck %s --check-prefix=EQUIV
// RUN: motif-opt %S/Inputs/row-blocks-one.mlir --fuse-materialization -o %t.one.bit 2>/dev/null
// RUN: motif-equiv --class=bitwise --function=warp_rows --trials=2 %S/Inputs/row-blocks-one.mlir %t.one.bit | FileCheck %s --check-prefix=EQUIV
// Its @block_rows reduces with a max: re-blocked under the bitwise cap too, bit for bit.
// RUN: FileCheck %s --check-prefix=ONE-BIT < %t.one.bit
// RUN: motif-equiv --class=bitwise --function=block_rows --trials=2 %S/Inputs/row-blocks-one.mlir %t.one.bit | FileCheck %s --check-prefix=EQUIV
// ONE-BIT-LABEL: func.func @block_rows
// ONE-BIT: motif.kernel "max_div" threads(64)
// EQUIV-NOT: FAIL
// EQUIV: PASS

// OFF-NOT: row blocks
// OFF: motif.kernel "sum_div" threads(256)

// One row a block, 1024 f32 a row over 256 threads: 64 threads, 16 each.
// TOL-LABEL: func.func @block_rows
// TOL-SAME: motif.equivalence = #motif<equivalence tolerance>
// TOL: motif.kernel "sum_div" threads(64)
// TOL-NOT: motif.kernel
// TOL-REMARK: remark: row blocks: kernel 'sum' (one row a block, rows of 1024 element(s): threads(256) -> threads(64)): each thread walks 16 element(s) of its row; class 'tolerance': the reductions over the rows of these kernels combine in another tree
// TOL-REMARK: remark: row blocks: kernel 'div' (one row a block, rows of 1024 element(s): threads(256) -> threads(64))
// Under the bitwise cap: one remark for the group, the blocks as written.
// BIT-LABEL: func.func @block_rows
// BIT: motif.kernel "sum_div" threads(256)
// BIT-REMARK: remark: row blocks: kernel 'sum' (one row a block, rows of 1024 element(s): threads(256) -> threads(64), with the 1 kernel(s) it exchanges values with): declined: the reduction over the row would combine in another tree (class 'tolerance', above the cap 'bitwise')
// BIT-REMARK-NOT: row blocks: kernel 'div'
func.func @block_rows(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %sum = motif.kernel "sum" threads(256) -> tensor<64xf32> {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<64x1024xf32>) -> tensor<64xf32>
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %y = motif.kernel "div" threads(256) -> tensor<64x1024xf32> {
    %p = motif.map (%x[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<64x1024xf32>, tensor<64xf32>) -> tensor<64x1024xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<64x1024xf32>
    motif.yield %g : tensor<64x1024xf32>
  }
  return %y : tensor<64x1024xf32>
}

// -----

// One row a warp: four rows a block, bitwise, under either cap.
// TOL-LABEL: func.func @warp_rows
// TOL-SAME: motif.equivalence = #motif<equivalence bitwise>
// TOL: motif.kernel "wsum_wscale" threads(128)
// BIT-LABEL: func.func @warp_rows
// BIT: motif.kernel "wsum_wscale" threads(128)
// BIT-REMARK: remark: row blocks: kernel 'wsum' (one row a warp, rows of 256 element(s): threads(512) -> threads(128)): 4 rows a block; bitwise (each row keeps its warp and lanes)
// BIT-REMARK: remark: row blocks: kernel 'wscale' (one row a warp
func.func @warp_rows(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %s = motif.kernel "wsum" threads(512) -> tensor<64xf32> {
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block.warp, lane]
           : (tensor<64x256xf32>) -> tensor<64xf32>
    %g = motif.materialize %r in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %y = motif.kernel "wscale" threads(512) -> tensor<64x256xf32> {
    %p = motif.map (%x[i, j], %s[i]) -> [i, j] over [block.warp, lane]
           : (tensor<64x256xf32>, tensor<64xf32>) -> tensor<64x256xf32> {
    ^bb0(%a: f32, %t: f32):
      %d = arith.mulf %a, %t : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<64x256xf32>
    motif.yield %g : tensor<64x256xf32>
  }
  return %y : tensor<64x256xf32>
}

// -----

// Rows that need the written block keep it (4096 f32 over 256 threads is 16
// a thread already), and so does a block already small (threads(64)); no
// remark for either. A row of 1000 (not a power of two) gets 64 threads.
// TOL-LABEL: func.func @negative_long_rows
// TOL: motif.kernel "long_sum" threads(256)
// TOL: motif.kernel "small_sum" threads(64)
// TOL: motif.kernel "odd_sum" threads(64)
// TOL-REMARK-NOT: kernel 'long_sum'
// TOL-REMARK-NOT: kernel 'small_sum'
// TOL-REMARK: remark: row blocks: kernel 'odd_sum' (one row a block, rows of 1000 element(s): threads(512) -> threads(64)): each thread walks 16 element(s) of its row
func.func @negative_long_rows(%x: tensor<8x4096xf32>, %z: tensor<8x512xf32>, %w: tensor<8x1000xf32>)
    -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %a = motif.kernel "long_sum" threads(256) -> tensor<8xf32> {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<8x4096xf32>) -> tensor<8xf32>
    %g = motif.materialize %m in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %b = motif.kernel "small_sum" threads(64) -> tensor<8xf32> {
    %m = motif.reduce <add> (%z[i, j]) -> [i] over [block, thread]
           : (tensor<8x512xf32>) -> tensor<8xf32>
    %g = motif.materialize %m in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %c = motif.kernel "odd_sum" threads(512) -> tensor<8xf32> {
    %m = motif.reduce <add> (%w[i, j]) -> [i] over [block, thread]
           : (tensor<8x1000xf32>) -> tensor<8xf32>
    %g = motif.materialize %m in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %a, %b, %c : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// A row kernel that exchanges values with a kernel of another shape (a
// contraction) keeps its block: the fusion merges one block size only.
// TOL-LABEL: func.func @negative_mixed_group
// TOL: threads(256)
// TOL-REMARK-NOT: kernel 'rowsum'
func.func @negative_mixed_group(%a: tensor<64x32xf32>, %b: tensor<32x1024xf32>) -> tensor<64xf32> {
  %p = motif.kernel "prod" threads(256) -> tensor<64x1024xf32> {
    %c = motif.contract (%a[i, k], %b[k, j]) -> [i, j] over [block, thread, seq]
           : (tensor<64x32xf32>, tensor<32x1024xf32>) -> tensor<64x1024xf32>
    %g = motif.materialize %c in global : tensor<64x1024xf32>
    motif.yield %g : tensor<64x1024xf32>
  }
  %s = motif.kernel "rowsum" threads(256) -> tensor<64xf32> {
    %r = motif.reduce <add> (%p[i, j]) -> [i] over [block, thread]
           : (tensor<64x1024xf32>) -> tensor<64xf32>
    %g = motif.materialize %r in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %s : tensor<64xf32>
}

// -----

// A row longer than the register budget (64) times the written block grows
// the block: 32768 f32 over 256 threads would be 128 a thread, so threads(512)
// (64 a thread, in registers); class tolerance. A row of 16384 fits 256
// threads (64 a thread) and keeps its block.
// TOL-LABEL: func.func @long_rows
// TOL: motif.kernel "lsum_ldiv" threads(512)
// TOL: motif.kernel "fsum_fdiv" threads(256)
// TOL-REMARK: remark: row blocks: kernel 'lsum' (one row a block, rows of 32768 element(s): threads(256) -> threads(512)): each thread walks 64 element(s) of its row; class 'tolerance'
// TOL-REMARK-NOT: row blocks: kernel 'fsum'
// BIT-LABEL: func.func @long_rows
// BIT: motif.kernel "lsum_ldiv" threads(256)
// BIT-REMARK: remark: row blocks: kernel 'lsum' (one row a block, rows of 32768 element(s): threads(256) -> threads(512), with the 1 kernel(s) it exchanges values with): declined
func.func @long_rows(%x: tensor<4x32768xf32>, %f: tensor<4x16384xf32>) -> (tensor<4x32768xf32>, tensor<4x16384xf32>) {
  %sum = motif.kernel "lsum" threads(256) -> tensor<4xf32> {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<4x32768xf32>) -> tensor<4xf32>
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %y = motif.kernel "ldiv" threads(256) -> tensor<4x32768xf32> {
    %p = motif.map (%x[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<4x32768xf32>, tensor<4xf32>) -> tensor<4x32768xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<4x32768xf32>
    motif.yield %g : tensor<4x32768xf32>
  }
  %fsum = motif.kernel "fsum" threads(256) -> tensor<4xf32> {
    %m = motif.reduce <add> (%f[i, j]) -> [i] over [block, thread]
           : (tensor<4x16384xf32>) -> tensor<4xf32>
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %z = motif.kernel "fdiv" threads(256) -> tensor<4x16384xf32> {
    %p = motif.map (%f[i, j], %fsum[i]) -> [i, j] over [block, thread]
           : (tensor<4x16384xf32>, tensor<4xf32>) -> tensor<4x16384xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<4x16384xf32>
    motif.yield %g : tensor<4x16384xf32>
  }
  return %y, %z : tensor<4x32768xf32>, tensor<4x16384xf32>
}

// -----

// A map of per-row values over [block] (a row's mean from its sum, as the
// linalg importer writes a norm) goes with its rows: the three kernels take
// threads(64) together, the per-row map too.
// TOL-LABEL: func.func @per_row_map
// TOL: motif.kernel "sum_to_sub" threads(64)
// TOL: motif.map {{.*}} over [block]
// TOL-REMARK: remark: row blocks: kernel 'mean' (one row a block, rows of 1024 element(s): threads(256) -> threads(64)): maps of per-row values, with the rows of the kernels it exchanges values with
// A kernel of per-row maps alone, not exchanging values with rows: kept.
// TOL-LABEL: func.func @per_row_map_alone
// TOL: motif.kernel "mean" threads(256)
// TOL-REMARK-NOT: kernel 'mean' (one row a block, rows of 0
func.func @per_row_map(%x: tensor<2048x1024xf32>) -> tensor<2048x1024xf32> {
  %sum = motif.kernel "sum" threads(256) -> tensor<2048xf32> {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<2048x1024xf32>) -> tensor<2048xf32>
    %g = motif.materialize %s in global : tensor<2048xf32>
    motif.yield %g : tensor<2048xf32>
  }
  %mean = motif.kernel "mean" threads(256) -> tensor<2048xf32> {
    %m = motif.map (%sum[i]) -> [i] over [block]
           : (tensor<2048xf32>) -> tensor<2048xf32> {
    ^bb0(%a: f32):
      %n = arith.constant 1024.0 : f32
      %r = arith.divf %a, %n : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<2048xf32>
    motif.yield %g : tensor<2048xf32>
  }
  %y = motif.kernel "sub" threads(256) -> tensor<2048x1024xf32> {
    %p = motif.map (%x[i, j], %mean[i]) -> [i, j] over [block, thread]
           : (tensor<2048x1024xf32>, tensor<2048xf32>) -> tensor<2048x1024xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<2048x1024xf32>
    motif.yield %g : tensor<2048x1024xf32>
  }
  return %y : tensor<2048x1024xf32>
}

func.func @per_row_map_alone(%x: tensor<2048xf32>) -> tensor<2048xf32> {
  %mean = motif.kernel "mean" threads(256) -> tensor<2048xf32> {
    %m = motif.map (%x[i]) -> [i] over [block]
           : (tensor<2048xf32>) -> tensor<2048xf32> {
    ^bb0(%a: f32):
      %n = arith.constant 1024.0 : f32
      %r = arith.divf %a, %n : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<2048xf32>
    motif.yield %g : tensor<2048xf32>
  }
  return %mean : tensor<2048xf32>
}

// -----

// A map over `[]` (a scalar, no grid dim) is no per-row value: its group keeps
// the stated block.
// TOL-LABEL: func.func @scalar_map
// TOL: motif.kernel "scale" threads(256)
// TOL: motif.kernel "sub" threads(256)
// TOL-REMARK-NOT: kernel 'scale' (one row a block
func.func @scalar_map(%x: tensor<2048x1024xf32>, %c: tensor<f32>) -> tensor<2048x1024xf32> {
  %s = motif.kernel "scale" threads(256) -> tensor<f32> {
    %m = motif.map (%c[]) -> [] over []
           : (tensor<f32>) -> tensor<f32> {
    ^bb0(%a: f32):
      %two = arith.constant 2.0 : f32
      %r = arith.mulf %a, %two : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  %y = motif.kernel "sub" threads(256) -> tensor<2048x1024xf32> {
    %p = motif.map (%x[i, j], %s[]) -> [i, j] over [block, thread]
           : (tensor<2048x1024xf32>, tensor<f32>) -> tensor<2048x1024xf32> {
    ^bb0(%a: f32, %v: f32):
      %d = arith.subf %a, %v : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<2048x1024xf32>
    motif.yield %g : tensor<2048x1024xf32>
  }
  return %y : tensor<2048x1024xf32>
}

// -----

// A max and a min round nothing and are the same in any tree: the group takes
// 64 threads under the bitwise cap too, and stays bitwise (the re-blocked max
// of Inputs/row-blocks-one.mlir's @block_rows is checked bit for bit above).
// BIT-LABEL: func.func @max_min_rows
// BIT-SAME: motif.equivalence = #motif<equivalence bitwise>
// BIT: motif.kernel "rmax_to_range" threads(64)
// BIT-REMARK: remark: row blocks: kernel 'rmax' (one row a block, rows of 1024 element(s): threads(256) -> threads(64)): each thread walks 16 element(s) of its row; bitwise (its reductions are max or min: the same in any tree)
// BIT-REMARK: remark: row blocks: kernel 'rmin' (one row a block, rows of 1024 element(s): threads(256) -> threads(64))
// BIT-REMARK: remark: row blocks: kernel 'range' (one row a block, rows of 1024 element(s): threads(256) -> threads(64))
// TOL-LABEL: func.func @max_min_rows
// TOL-SAME: motif.equivalence = #motif<equivalence bitwise>
func.func @max_min_rows(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %hi = motif.kernel "rmax" threads(256) -> tensor<64xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<64x1024xf32>) -> tensor<64xf32>
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %lo = motif.kernel "rmin" threads(256) -> tensor<64xf32> {
    %m = motif.reduce <min> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<64x1024xf32>) -> tensor<64xf32>
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %y = motif.kernel "range" threads(256) -> tensor<64x1024xf32> {
    %p = motif.map (%x[i, j], %hi[i], %lo[i]) -> [i, j] over [block, thread]
           : (tensor<64x1024xf32>, tensor<64xf32>, tensor<64xf32>) -> tensor<64x1024xf32> {
    ^bb0(%a: f32, %h: f32, %l: f32):
      %n = arith.subf %a, %l : f32
      %d = arith.subf %h, %l : f32
      %q = arith.divf %n, %d : f32
      motif.yield %q : f32
    }
    %g = motif.materialize %p in global : tensor<64x1024xf32>
    motif.yield %g : tensor<64x1024xf32>
  }
  return %y : tensor<64x1024xf32>
}
