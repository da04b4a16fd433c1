// Rows a block (docs/residency.md, "Row blocks"; RowBlocks.h, kMaxRowsPerBlock):
// a [block, thread] row group with many short rows takes R rows a block, its
// grid dim as `block x seq(R)` in every motif -- R the largest power of two up
// to 4 with R x N <= 4096 elements and R x N / threads <= 16 elements a thread
// (kRowElementsPerThread, or the register budget when smaller) that divides
// the rows and leaves at least 2048 blocks. Bitwise: each row keeps its threads and tree, so it applies
// under the bitwise cap too (there without the smaller block).
// RUN: motif-opt %s --fuse-materialization=equivalence-cap=tolerance --split-input-file --mlir-print-op-on-diagnostic=false -o %t.tol 2>%t.tol.remarks
// RUN: FileCheck %s --check-prefix=TOL < %t.tol
// RUN: FileCheck %s --check-prefix=TOL-REMARK < %t.tol.remarks
// RUN: motif-opt %s --fuse-materialization --split-input-file --mlir-print-op-on-diagnostic=false -o %t.bit 2>%t.bit.remarks
// RUN: FileCheck %s --check-prefix=BIT < %t.bit
// RUN: FileCheck %s --check-prefix=BIT-REMARK < %t.bit.remarks
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance row-blocks=false" --split-input-file --mlir-print-op-on-diagnostic=false -o %t.off 2>&1 | FileCheck %s --check-prefix=OFF-REMARK --allow-empty
// RUN: FileCheck %s --check-prefix=OFF < %t.off
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance row-block-min-grid=0" --split-input-file -o - 2>/dev/null | FileCheck %s --check-prefix=ZERO
// ZERO-LABEL: func.func @many_rows
// ZERO: motif.kernel "sum_div" threads(64)
// ZERO-NOT: seq(
// OFF-REMARK-NOT: rows a block
// OFF-NOT: seq(
// row-block-min-grid: fewer blocks may remain (2048 rows of 1024 at 4 a block
// leave 512); a negative count is refused.
// RUN: motif-opt %s --fuse-materialization="row-block-min-grid=512" --split-input-file -o - 2>/dev/null | FileCheck %s --check-prefix=GRID
// GRID-LABEL: func.func @negative_few_rows
// GRID: motif.reduce <add> {{.*}} over [block x seq(4), thread]
// GRID-LABEL: func.func @negative_odd_rows
// GRID-NOT: seq(
// GRID-LABEL: func.func @negative_two_odd_grid_dims
// RUN: not motif-opt %s --split-input-file --fuse-materialization=row-block-min-grid=-1 2>&1 | FileCheck %s --check-prefix=NEG
// NEG: error: fuse-materialization: row-block-min-grid -1 is negative (0 keeps one row a block)
// The rows-a-block program under the bitwise cap against the written one, on
// random inputs, through the GPU's reduction trees (the schedule model).
// RUN: motif-opt %S/Inputs/rows-a-block-one.mlir --fuse-materialization -o %t.one 2>/dev/null
// RUN: FileCheck %s --check-prefix=ONE < %t.one
// RUN: motif-equiv --class=bitwise --trials=1 %S/Inputs/rows-a-block-one.mlir %t.one | FileCheck %s --check-prefix=EQUIV
// ONE: over [block x seq(4), thread]
// EQUIV-NOT: FAIL
// EQUIV: PASS

// 16384 rows of 1024. Under tolerance threads(64): each thread walks 16
// elements of its row already, so one row a block (4 rows a block, 64
// elements a thread, ran at 0.83x of one on an H100:
// docs/results/rows-a-block-r-h100-session19.txt). Under the bitwise cap
// threads(256), 4 elements a thread: 4 rows a block, 4096 blocks.
// TOL-LABEL: func.func @many_rows
// TOL: motif.kernel "sum_div" threads(64)
// TOL-NOT: seq(
// TOL: motif.reduce <add> {{.*}} over [block, thread]
// TOL-NOT: seq(
// TOL: motif.map {{.*}} over [block, thread]
// TOL-NOT: seq(
// TOL-LABEL: func.func @many_rows_512
// TOL-REMARK: remark: row blocks: kernel 'sum' (one row a block, rows of 1024 element(s): threads(256) -> threads(64)): each thread walks 16 element(s)
// TOL-REMARK: remark: row blocks: kernel 'sum': one row a block: each of its 64 threads walks 16 element(s) of its row; two rows would make 32, over 16 a thread
// TOL-REMARK: remark: row blocks: kernel 'div': one row a block: each of its 64 threads walks 16
// BIT-LABEL: func.func @many_rows
// BIT: motif.kernel "sum_div" threads(256)
// BIT: motif.reduce <add> {{.*}} over [block x seq(4), thread]
// BIT-REMARK: declined: the reduction over the row would combine in another tree
// BIT-REMARK: remark: row blocks: kernel 'sum': 4 rows a block (the grid dim as `block x seq(4)`): 256 threads walk 4 rows of 1024 element(s)
// OFF-LABEL: func.func @many_rows
// OFF: motif.kernel "sum_div" threads(256)
// OFF-LABEL: func.func @grid_bound
func.func @many_rows(%x: tensor<16384x1024xf32>) -> tensor<16384x1024xf32> {
  %sum = motif.kernel "sum" threads(256) -> tensor<16384xf32> {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<16384x1024xf32>) -> tensor<16384xf32>
    %g = motif.materialize %m in global : tensor<16384xf32>
    motif.yield %g : tensor<16384xf32>
  }
  %y = motif.kernel "div" threads(256) -> tensor<16384x1024xf32> {
    %p = motif.map (%x[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<16384x1024xf32>, tensor<16384xf32>) -> tensor<16384x1024xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<16384x1024xf32>
    motif.yield %g : tensor<16384x1024xf32>
  }
  return %y : tensor<16384x1024xf32>
}

// -----

// 16384 rows of 512: under tolerance threads(64), 8 elements of a row a
// thread: 2 rows a block (16 elements a thread) where the grid leaves room
// for 4. Under the bitwise cap threads(256), 2 a thread: 4 rows a block.
// TOL: motif.kernel "sum_div" threads(64)
// TOL: motif.reduce <add> {{.*}} over [block x seq(2), thread]
// TOL: motif.map {{.*}} over [block x seq(2), thread]
// TOL-REMARK: remark: row blocks: kernel 'sum': 2 rows a block (the grid dim as `block x seq(2)`): 64 threads walk 2 rows of 512 element(s); bitwise
// BIT-LABEL: func.func @many_rows_512
// BIT: motif.kernel "sum_div" threads(256)
// BIT: motif.reduce <add> {{.*}} over [block x seq(4), thread]
// BIT-REMARK: remark: row blocks: kernel 'sum': 4 rows a block (the grid dim as `block x seq(4)`): 256 threads walk 4 rows of 512 element(s)
func.func @many_rows_512(%x: tensor<16384x512xf32>) -> tensor<16384x512xf32> {
  %sum = motif.kernel "sum" threads(256) -> tensor<16384xf32> {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<16384x512xf32>) -> tensor<16384xf32>
    %g = motif.materialize %m in global : tensor<16384xf32>
    motif.yield %g : tensor<16384xf32>
  }
  %y = motif.kernel "div" threads(256) -> tensor<16384x512xf32> {
    %p = motif.map (%x[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<16384x512xf32>, tensor<16384xf32>) -> tensor<16384x512xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<16384x512xf32>
    motif.yield %g : tensor<16384x512xf32>
  }
  return %y : tensor<16384x512xf32>
}

// -----

// 6144 rows of 512: 4 rows a block would leave 1536 blocks; 2 leave 3072.
// TOL-LABEL: func.func @grid_bound
// TOL: motif.reduce <add> {{.*}} over [block x seq(2), thread]
// TOL-REMARK: remark: row blocks: kernel 'sum': 2 rows a block
// TOL-REMARK: remark: row blocks: kernel 'div': 2 rows a block
func.func @grid_bound(%x: tensor<6144x512xf32>) -> tensor<6144x512xf32> {
  %sum = motif.kernel "sum" threads(256) -> tensor<6144xf32> {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<6144x512xf32>) -> tensor<6144xf32>
    %g = motif.materialize %m in global : tensor<6144xf32>
    motif.yield %g : tensor<6144xf32>
  }
  %y = motif.kernel "div" threads(256) -> tensor<6144x512xf32> {
    %p = motif.map (%x[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<6144x512xf32>, tensor<6144xf32>) -> tensor<6144x512xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<6144x512xf32>
    motif.yield %g : tensor<6144x512xf32>
  }
  return %y : tensor<6144x512xf32>
}

// -----

// A block of 32 threads (smaller than the 64 the rule gives; kept): 8
// elements of a row a thread, so 2 rows a block make the 16 a thread; with a
// register budget of 8 (BUDGET), one row a block.
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance register-budget=8" --split-input-file --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
// TOL-LABEL: func.func @budget_rows
// TOL: motif.kernel "sum_div" threads(32)
// TOL: motif.reduce <add> {{.*}} over [block x seq(2), thread]
// TOL-REMARK: remark: row blocks: kernel 'sum': 2 rows a block (the grid dim as `block x seq(2)`): 32 threads walk 2 rows of 256 element(s)
// TOL-REMARK: remark: row blocks: kernel 'div': 2 rows a block
// BUDGET: remark: row blocks: kernel 'sum': one row a block: each of its 32 threads walks 8 element(s) of its row; two rows would make 16, over 8 a thread
func.func @budget_rows(%x: tensor<16384x256xf32>) -> tensor<16384x256xf32> {
  %sum = motif.kernel "sum" threads(32) -> tensor<16384xf32> {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<16384x256xf32>) -> tensor<16384xf32>
    %g = motif.materialize %m in global : tensor<16384xf32>
    motif.yield %g : tensor<16384xf32>
  }
  %y = motif.kernel "div" threads(32) -> tensor<16384x256xf32> {
    %p = motif.map (%x[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<16384x256xf32>, tensor<16384xf32>) -> tensor<16384x256xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<16384x256xf32>
    motif.yield %g : tensor<16384x256xf32>
  }
  return %y : tensor<16384x256xf32>
}

// -----

// Not: rows of 4096 (one row is already 4096 elements), 2048 rows (1024
// blocks at 2 a block), an odd number of rows, a grid of two odd dims.
// TOL-LABEL: func.func @negative_long_rows
// TOL-NOT: seq(
// TOL-LABEL: func.func @negative_few_rows
// TOL-NOT: seq(
// TOL-LABEL: func.func @negative_odd_rows
// TOL-NOT: seq(
// TOL-LABEL: func.func @negative_two_odd_grid_dims
// TOL-NOT: seq(
// TOL-REMARK-NOT: rows a block
func.func @negative_long_rows(%x: tensor<8192x4096xf32>) -> tensor<8192x4096xf32> {
  %sum = motif.kernel "sum" threads(256) -> tensor<8192xf32> {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<8192x4096xf32>) -> tensor<8192xf32>
    %g = motif.materialize %m in global : tensor<8192xf32>
    motif.yield %g : tensor<8192xf32>
  }
  %y = motif.kernel "div" threads(256) -> tensor<8192x4096xf32> {
    %p = motif.map (%x[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<8192x4096xf32>, tensor<8192xf32>) -> tensor<8192x4096xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<8192x4096xf32>
    motif.yield %g : tensor<8192x4096xf32>
  }
  return %y : tensor<8192x4096xf32>
}

func.func @negative_few_rows(%x: tensor<2048x1024xf32>) -> tensor<2048x1024xf32> {
  %sum = motif.kernel "sum" threads(256) -> tensor<2048xf32> {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<2048x1024xf32>) -> tensor<2048xf32>
    %g = motif.materialize %m in global : tensor<2048xf32>
    motif.yield %g : tensor<2048xf32>
  }
  %y = motif.kernel "div" threads(256) -> tensor<2048x1024xf32> {
    %p = motif.map (%x[i, j], %sum[i]) -> [i, j] over [block, thread]
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

func.func @negative_odd_rows(%x: tensor<16383x1024xf32>) -> tensor<16383x1024xf32> {
  %sum = motif.kernel "sum" threads(256) -> tensor<16383xf32> {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<16383x1024xf32>) -> tensor<16383xf32>
    %g = motif.materialize %m in global : tensor<16383xf32>
    motif.yield %g : tensor<16383xf32>
  }
  %y = motif.kernel "div" threads(256) -> tensor<16383x1024xf32> {
    %p = motif.map (%x[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<16383x1024xf32>, tensor<16383xf32>) -> tensor<16383x1024xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<16383x1024xf32>
    motif.yield %g : tensor<16383x1024xf32>
  }
  return %y : tensor<16383x1024xf32>
}

func.func @negative_two_odd_grid_dims(%x: tensor<9x4095x256xf32>) -> tensor<9x4095xf32> {
  %s = motif.kernel "sum3" threads(256) -> tensor<9x4095xf32> {
    %r = motif.reduce <add> (%x[b, i, j]) -> [b, i] over [block, block, thread]
           : (tensor<9x4095x256xf32>) -> tensor<9x4095xf32>
    %g = motif.materialize %r in global : tensor<9x4095xf32>
    motif.yield %g : tensor<9x4095xf32>
  }
  return %s : tensor<9x4095xf32>
}

// -----

// A grid of two dims (a batch of row sets, as the importer maps a 3-D tensor):
// the innermost grid dim that R divides takes the rows, here the inner one.
// TOL-LABEL: func.func @two_grid_dims
// TOL: motif.kernel "sum3" threads(64)
// TOL: motif.reduce <add> {{.*}} over [block, block x seq(4), thread]
// TOL-REMARK: remark: row blocks: kernel 'sum3': 4 rows a block (grid dim 2 of 2, 4096 rows, as `block x seq(4)`)
// BIT-LABEL: func.func @two_grid_dims
// BIT: motif.reduce <add> {{.*}} over [block, block x seq(4), thread]
func.func @two_grid_dims(%x: tensor<8x4096x256xf32>) -> tensor<8x4096xf32> {
  %s = motif.kernel "sum3" threads(256) -> tensor<8x4096xf32> {
    %r = motif.reduce <add> (%x[b, i, j]) -> [b, i] over [block, block, thread]
           : (tensor<8x4096x256xf32>) -> tensor<8x4096xf32>
    %g = motif.materialize %r in global : tensor<8x4096xf32>
    motif.yield %g : tensor<8x4096xf32>
  }
  return %s : tensor<8x4096xf32>
}

// -----

// The inner grid dim odd: the outer one takes the rows (rows 4b .. 4b+3 of
// one inner index a block).
// TOL-LABEL: func.func @outer_grid_dim
// TOL: motif.map {{.*}} over [block x seq(4), block, thread]
// TOL: motif.reduce <add> {{.*}} over [block x seq(4), block, thread]
// TOL-REMARK: remark: row blocks: kernel 'sum': 4 rows a block (grid dim 1 of 2, 16 rows, as `block x seq(4)`)
// TOL-REMARK: remark: row blocks: kernel 'div': 4 rows a block (grid dim 1 of 2, 16 rows, as `block x seq(4)`)
// BIT-LABEL: func.func @outer_grid_dim
// BIT: motif.map {{.*}} over [block x seq(4), block, thread]
// RUN: motif-opt %S/Inputs/rows-a-block-batched.mlir --fuse-materialization -o %t.batched 2>/dev/null
// RUN: FileCheck %s --check-prefix=BATCHED < %t.batched
// RUN: motif-equiv --class=bitwise --trials=1 %S/Inputs/rows-a-block-batched.mlir %t.batched | FileCheck %s --check-prefix=EQUIV
// BATCHED: over [block x seq(4), block, thread]
func.func @outer_grid_dim(%x: tensor<16x1023x256xf32>) -> tensor<16x1023x256xf32> {
  %sum = motif.kernel "sum" threads(256) -> tensor<16x1023xf32> {
    %m = motif.reduce <add> (%x[b, i, j]) -> [b, i] over [block, block, thread]
           : (tensor<16x1023x256xf32>) -> tensor<16x1023xf32>
    %g = motif.materialize %m in global : tensor<16x1023xf32>
    motif.yield %g : tensor<16x1023xf32>
  }
  %y = motif.kernel "div" threads(256) -> tensor<16x1023x256xf32> {
    %p = motif.map (%x[b, i, j], %sum[b, i]) -> [b, i, j] over [block, block, thread]
           : (tensor<16x1023x256xf32>, tensor<16x1023xf32>) -> tensor<16x1023x256xf32> {
    ^bb0(%a: f32, %v: f32):
      %d = arith.subf %a, %v : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<16x1023x256xf32>
    motif.yield %g : tensor<16x1023x256xf32>
  }
  return %y : tensor<16x1023x256xf32>
}

// -----

// Kernels that exchange values over grids in another order ([b, i] and
// [i, b]): no one grid dim to take the rows on; each keeps one row a block and
// a remark says why.
// TOL-LABEL: func.func @grids_differ
// TOL-NOT: seq(
// TOL-REMARK: remark: row blocks: kernel 'sum': one row a block: the motifs' grids differ
// TOL-REMARK: remark: row blocks: kernel 'add': one row a block: the motifs' grids differ
func.func @grids_differ(%x: tensor<4x4096x256xf32>, %y: tensor<4096x4x256xf32>) -> tensor<4096x4x256xf32> {
  %s = motif.kernel "sum" threads(256) -> tensor<4x4096xf32> {
    %r = motif.reduce <add> (%x[b, i, j]) -> [b, i] over [block, block, thread]
           : (tensor<4x4096x256xf32>) -> tensor<4x4096xf32>
    %g = motif.materialize %r in global : tensor<4x4096xf32>
    motif.yield %g : tensor<4x4096xf32>
  }
  %z = motif.kernel "add" threads(256) -> tensor<4096x4x256xf32> {
    %p = motif.map (%y[i, b, j], %s[b, i]) -> [i, b, j] over [block, block, thread]
           : (tensor<4096x4x256xf32>, tensor<4x4096xf32>) -> tensor<4096x4x256xf32> {
    ^bb0(%a: f32, %v: f32):
      %d = arith.addf %a, %v : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<4096x4x256xf32>
    motif.yield %g : tensor<4096x4x256xf32>
  }
  return %z : tensor<4096x4x256xf32>
}

// -----

// A runtime row count (the batch, `?`): the static inner grid dim takes the
// rows, and its blocks alone (the row count at least 1) must leave enough.
// The map of per-row values over [block, block] (an imported norm's
// statistic) goes with its rows: the group takes both row rules.
// TOL-LABEL: func.func @runtime_rows_inner_dim
// TOL: motif.kernel "sumsq_to_scale" threads(64)
// TOL: motif.reduce <add> {{.*}} over [block, block x seq(4), thread]
// TOL: motif.map {{.*}} over [block, block x seq(4)]
// TOL: motif.map {{.*}} over [block, block x seq(4), thread]
// TOL-REMARK: remark: row blocks: kernel 'sumsq': 4 rows a block (grid dim 2 of 2, 8192 rows, as `block x seq(4)`)
// TOL-REMARK: remark: row blocks: kernel 'inv': 4 rows a block (grid dim 2 of 2, 8192 rows, as `block x seq(4)`)
// TOL-REMARK: remark: row blocks: kernel 'scale': 4 rows a block (grid dim 2 of 2, 8192 rows, as `block x seq(4)`)
// BIT-LABEL: func.func @runtime_rows_inner_dim
// BIT: motif.kernel "sumsq_to_scale" threads(256)
// BIT: motif.reduce <add> {{.*}} over [block, block x seq(4), thread]
// RUN: motif-opt %S/Inputs/rows-a-block-runtime.mlir --fuse-materialization=row-block-min-grid=16 -o %t.runtime 2>/dev/null
// RUN: FileCheck %s --check-prefix=RUNTIME < %t.runtime
// RUN: motif-equiv --class=bitwise --trials=1 %S/Inputs/rows-a-block-runtime.mlir %t.runtime | FileCheck %s --check-prefix=EQUIV-ROWS
// RUNTIME: motif.reduce <add> {{.*}} over [block, block x seq(4), thread]
// EQUIV-ROWS: @runtime_rows_inner_dim at rows = 1
// EQUIV-ROWS: @runtime_rows_inner_dim: PASS (bitwise: every output bit-identical)
// EQUIV-ROWS: @runtime_rows_inner_dim at rows = 3
// EQUIV-ROWS: @runtime_rows_inner_dim: PASS (bitwise: every output bit-identical)
// EQUIV-ROWS: @runtime_rows_inner_dim at rows = 17
// EQUIV-ROWS: @runtime_rows_inner_dim: PASS (bitwise: every output bit-identical)
func.func @runtime_rows_inner_dim(%x: tensor<?x8192x256xf32>) -> tensor<?x8192x256xf32> {
  %s = motif.kernel "sumsq" threads(256) -> tensor<?x8192xf32> {
    %q = motif.map (%x[b, i, j]) -> [b, i, j] over [block, block, thread]
           : (tensor<?x8192x256xf32>) -> tensor<?x8192x256xf32> {
    ^bb0(%a: f32):
      %m = arith.mulf %a, %a : f32
      motif.yield %m : f32
    }
    %qr = motif.materialize %q in register : tensor<?x8192x256xf32>
    %r = motif.reduce <add> (%qr[b, i, j]) -> [b, i] over [block, block, thread]
           : (tensor<?x8192x256xf32>) -> tensor<?x8192xf32>
    %g = motif.materialize %r in global : tensor<?x8192xf32>
    motif.yield %g : tensor<?x8192xf32>
  }
  %inv = motif.kernel "inv" threads(256) -> tensor<?x8192xf32> {
    %v = motif.map (%s[b, i]) -> [b, i] over [block, block]
           : (tensor<?x8192xf32>) -> tensor<?x8192xf32> {
    ^bb0(%a: f32):
      %n = arith.constant 3.906250e-03 : f32
      %e = arith.constant 9.99999974E-6 : f32
      %m = arith.mulf %a, %n : f32
      %p = arith.addf %m, %e : f32
      %r = math.rsqrt %p : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %v in global : tensor<?x8192xf32>
    motif.yield %g : tensor<?x8192xf32>
  }
  %y = motif.kernel "scale" threads(256) -> tensor<?x8192x256xf32> {
    %p = motif.map (%x[b, i, j], %inv[b, i]) -> [b, i, j] over [block, block, thread]
           : (tensor<?x8192x256xf32>, tensor<?x8192xf32>) -> tensor<?x8192x256xf32> {
    ^bb0(%a: f32, %v: f32):
      %d = arith.mulf %a, %v : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<?x8192x256xf32>
    motif.yield %g : tensor<?x8192x256xf32>
  }
  return %y : tensor<?x8192x256xf32>
}

// -----

// A runtime row count as the only grid dim: a block of several rows would
// need a masked last block, so one row a block, with a remark.
// TOL-LABEL: func.func @runtime_rows_only
// TOL: motif.kernel "sum" threads(64)
// TOL-NOT: seq(
// TOL-REMARK: remark: row blocks: kernel 'sum': one row a block: its grid dim is the row count, known only at launch (a block of several rows would need a masked last block)
func.func @runtime_rows_only(%x: tensor<?x1024xf32>) -> tensor<?xf32> {
  %s = motif.kernel "sum" threads(256) -> tensor<?xf32> {
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<?x1024xf32>) -> tensor<?xf32>
    %g = motif.materialize %r in global : tensor<?xf32>
    motif.yield %g : tensor<?xf32>
  }
  return %s : tensor<?xf32>
}

// -----

// A runtime row count over 512 static rows: 256 blocks at 2 rows a block,
// under row-block-min-grid for a grid of one batch.
// TOL-LABEL: func.func @runtime_rows_few_static
// TOL-NOT: seq(
// TOL-REMARK: remark: row blocks: kernel 'sum': one row a block: the grid's row count is known only at launch, and its static dims give 512 block(s), under twice 2048 (row-block-min-grid)
func.func @runtime_rows_few_static(%x: tensor<?x512x256xf32>) -> tensor<?x512xf32> {
  %s = motif.kernel "sum" threads(256) -> tensor<?x512xf32> {
    %r = motif.reduce <add> (%x[b, i, j]) -> [b, i] over [block, block, thread]
           : (tensor<?x512x256xf32>) -> tensor<?x512xf32>
    %g = motif.materialize %r in global : tensor<?x512xf32>
    motif.yield %g : tensor<?x512xf32>
  }
  return %s : tensor<?x512xf32>
}
