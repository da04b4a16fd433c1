// RUN: motif-opt %s -split-input-file --fuse-materialization -verify-diagnostics | FileCheck %s
// RUN: motif-opt %s -split-input-file --fuse-materialization="stage-operands=false" 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: motif-opt %s -split-input-file --fuse-materialization="shared-budget=20000" 2>&1 | FileCheck %s --check-prefix=BUDGET
// Operand tiles as a residency decision (docs/residency.md, "Operand tiles"):
// the tile of an input that several threads of a block read (a GEMM's A and
// B) or that the block would read down its columns (a transpose) is staged
// in shared memory once per block; a tile each of whose elements only one
// thread reads stays with that thread (registers), and one read once along
// its rows stays global. Over the shared budget, rule 5 keeps it global.

// CHECK-LABEL: func.func @gemm
// CHECK: motif.materialize %arg1 in shared {{{.*}}motif.rule = "rule 3: operand tile 32x128 per block per step of the reduction loop (4 steps), 16384 B; each element read by 16 threads, 128 times in all; no padding (the readers walk its rows)"
// CHECK: motif.materialize %arg0 in shared {{{.*}}motif.rule = "rule 3: operand tile 128x32 per block per step of the reduction loop (4 steps), 16896 B; each element read by 16 threads, 128 times in all; rows padded by one word (the readers walk a column: no bank conflicts)"
// CHECK: motif.contract
// OFF-LABEL: func.func @gemm
// OFF-NOT: in shared
// BUDGET: remark: kernel 'gemm': argument #0 (tensor<512x128xf32>): global -> shared
// BUDGET: remark: kernel 'gemm': argument #1 (tensor<128x256xf32>) stays global (operand tile not staged: rule 5: its 32x128 tile takes 16384 shared bytes per block, over the budget (20000, 16896 in use); the mapping fixes the tile, a smaller tile nest would fit)
func.func @gemm(%a: tensor<512x128xf32>, %b: tensor<128x256xf32>) -> tensor<512x256xf32> {
  // expected-remark @+2 {{kernel 'gemm': argument #0 (tensor<512x128xf32>): global -> shared (rule 3: operand tile 128x32 per block per step of the reduction loop (4 steps), 16896 B; each element read by 16 threads, 128 times in all; rows padded by one word (the readers walk a column: no bank conflicts))}}
  // expected-remark @+1 {{kernel 'gemm': argument #1 (tensor<128x256xf32>): global -> shared}}
  %c = motif.kernel "gemm" threads(256) -> tensor<512x256xf32> {
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(4), seq x seq(32)]
           : (tensor<512x128xf32>, tensor<128x256xf32>) -> tensor<512x256xf32>
    // expected-remark @+1 {{stays global (rule 1}}
    %g = motif.materialize %p in global : tensor<512x256xf32>
    motif.yield %g : tensor<512x256xf32>
  }
  return %c : tensor<512x256xf32>
}

// -----

// A transpose reads its input down the columns: staged for coalescing (read
// once, no reuse), rows padded against bank conflicts.
// CHECK-LABEL: func.func @transpose
// CHECK: motif.materialize %arg0 in shared
func.func @transpose(%x: tensor<64x128xf32>) -> tensor<128x64xf32> {
  // expected-remark @+1 {{kernel 't': argument #0 (tensor<64x128xf32>): global -> shared (rule 3: operand tile 32x32 per block, 4224 B; the block's threads read it down its columns; staged along its rows (coalesced); rows padded by one word (the readers walk a column: no bank conflicts))}}
  %y = motif.kernel "t" threads(256) -> tensor<128x64xf32> {
    %t = motif.transpose %x[j, i] -> [i, j] over [block x thread(32), block x thread(8) x seq(4)]
           : (tensor<64x128xf32>) -> tensor<128x64xf32>
    // expected-remark @+1 {{stays global (rule 1}}
    %g = motif.materialize %t in global : tensor<128x64xf32>
    motif.yield %g : tensor<128x64xf32>
  }
  return %y : tensor<128x64xf32>
}

// -----

// negative_: each element of the row vector is read by one thread, 8 times
// (its seq run over j): registers, not shared.
// CHECK-LABEL: func.func @negative_one_thread_reuses
// CHECK-NOT: in shared
func.func @negative_one_thread_reuses(%x: tensor<256xf32>) -> tensor<256x8xf32> {
  // expected-remark @+1 {{kernel 'k': argument #0 (tensor<256xf32>) stays global (operand tile not staged: one thread reads each element, 8 times: it keeps it in registers across its run (register blocking), no other thread needs it)}}
  %y = motif.kernel "k" threads(128) -> tensor<256x8xf32> {
    %b = motif.broadcast %x[i] -> [i, j] over [block x thread(128), seq(8)]
           : (tensor<256xf32>) -> tensor<256x8xf32>
    // expected-remark @+1 {{stays global (rule 1}}
    %g = motif.materialize %b in global : tensor<256x8xf32>
    motif.yield %g : tensor<256x8xf32>
  }
  return %y : tensor<256x8xf32>
}

// -----

// negative_: a tiled map that reads each element once along its rows.
// CHECK-LABEL: func.func @negative_read_once
// CHECK-NOT: in shared
func.func @negative_read_once(%x: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-remark @+1 {{kernel 'k': argument #0 (tensor<64x128xf32>) stays global (operand tile not staged: the block reads each element once, by consecutive threads along its rows: nothing to reuse or coalesce)}}
  %y = motif.kernel "k" threads(64) -> tensor<64x128xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block x seq(4), block x thread(64)]
           : (tensor<64x128xf32>) -> tensor<64x128xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-remark @+1 {{stays global (rule 1}}
    %g = motif.materialize %m in global : tensor<64x128xf32>
    motif.yield %g : tensor<64x128xf32>
  }
  return %y : tensor<64x128xf32>
}
