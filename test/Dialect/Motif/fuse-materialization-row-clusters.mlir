// Row clusters (docs/residency.md, "Row clusters"): with row-clusters=always
// a [block, thread] row longer than the register budget (64) times its block
// grows up to 1024 threads (not 512), and a grown block of more threads than
// row-cluster-threads runs as a thread-block cluster of CTAs of that many:
// rows of 65536 f32 -> threads(1024) cluster(4), 64 elements a thread in
// registers; rows of 32768 -> threads(512) cluster(2); a row that fits (16384)
// keeps its block and has no cluster. The cluster itself changes no bit (the
// block's schedule): the class is the growth's, tolerance.
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance row-clusters=always row-cluster-threads=256" --split-input-file --mlir-print-op-on-diagnostic=false -o %t.on 2>%t.on.remarks
// RUN: FileCheck %s --check-prefix=ON < %t.on
// RUN: FileCheck %s --check-prefix=ON-REMARK < %t.on.remarks
// A CTA of 512 threads: rows of 65536 as 2 CTAs, 32768 as one (no cluster).
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance row-clusters=always row-cluster-threads=512" --split-input-file --mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=CTA512
// sm_80 has no clusters: the option is inert, rows grow to 512 as without it.
// RUN: motif-opt %s --fuse-materialization="chip=sm_80 equivalence-cap=tolerance row-clusters=always row-cluster-threads=256" --split-input-file --mlir-print-op-on-diagnostic=false 2>%t.sm80.remarks | FileCheck %s --check-prefix=SM80
// RUN: FileCheck %s --check-prefix=SM80-REMARK < %t.sm80.remarks
// SM80-REMARK: remark: row clusters (row-clusters=always, row-cluster-threads=256) not used: sm_80 has no thread-block clusters; long rows grow to at most 512 threads in one CTA
// Off: rows grow to 512, no cluster.
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance row-clusters=off" --split-input-file --mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=OFF
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance row-cluster-threads=0" --split-input-file --mlir-print-op-on-diagnostic=false 2>/dev/null | FileCheck %s --check-prefix=OFF
// auto (the default, CTAs of 128): the fusion plans each grown row both ways
// and takes the cluster only where it keeps on chip what one CTA of at most
// 512 threads cannot (fewer bytes through global memory).
// RUN: motif-opt %s --fuse-materialization="equivalence-cap=tolerance" --split-input-file --mlir-print-op-on-diagnostic=false -o %t.auto 2>%t.auto.remarks
// RUN: FileCheck %s --check-prefix=AUTO < %t.auto
// RUN: FileCheck %s --check-prefix=AUTO-REMARK < %t.auto.remarks
// RUN: not motif-opt %s --fuse-materialization="row-clusters=sometimes" --split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADMODE
// BADMODE: error: fuse-materialization: unknown row-clusters 'sometimes' (expected auto, always or off)
// The fused program against the written one on random inputs, thread by
// thread through the block's trees: within tolerance (the evaluator runs the
// block's schedule; the cluster's CTAs compute its bits: clusters-emulated.test).
// RUN: sed '/^\/\/ -----/q' %s > %t.src.mlir
// RUN: motif-opt %t.src.mlir --fuse-materialization="equivalence-cap=tolerance row-clusters=always row-cluster-threads=256" -o %t.fused.mlir 2>/dev/null
// RUN: motif-equiv --class=tolerance --rtol=1e-5 --trials=2 %t.src.mlir %t.fused.mlir | FileCheck %s --check-prefix=EQUIV
// EQUIV-NOT: FAIL
// EQUIV: @long_rows: PASS (tolerance
// RUN: not motif-opt %s --fuse-materialization="row-cluster-threads=100" --split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not motif-opt %s --fuse-materialization="row-cluster-threads=1024" --split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD1024
// BAD: error: fuse-materialization: row cluster threads 100 is not 0 (off) or a power of two in [32, 512]
// BAD1024: error: fuse-materialization: row cluster threads 1024 is not 0 (off) or a power of two in [32, 512]

// ON-LABEL: func.func @long_rows
// ON: motif.kernel "lmax_ldiv" threads(1024) cluster(4)
// ON: motif.kernel "mmax_mdiv" threads(512) cluster(2)
// ON: motif.kernel "fmax_fdiv" threads(256) ->
// ON-REMARK: remark: row blocks: kernel 'lmax' (one row a block, rows of 65536 element(s): threads(256) -> threads(1024) cluster(4)): each thread walks 64 element(s) of its row; the block runs as a cluster of 4 CTAs of 256 threads (the same schedule: bitwise to one CTA); bitwise (its reductions are max or min: the same in any tree)
// ON-REMARK: remark: row blocks: kernel 'mmax' (one row a block, rows of 32768 element(s): threads(256) -> threads(512) cluster(2)): each thread walks 64 element(s) of its row; the block runs as a cluster of 2 CTAs of 256 threads
// ON-REMARK-NOT: row blocks: kernel 'fmax'
// ON-REMARK: 'lmax'#0 (tensor<4xf32>): global -> register
// CTA512-LABEL: func.func @long_rows
// CTA512: motif.kernel "lmax_ldiv" threads(1024) cluster(2)
// CTA512: motif.kernel "mmax_mdiv" threads(512) ->
// CTA512: motif.kernel "fmax_fdiv" threads(256) ->
// SM80-LABEL: func.func @long_rows
// SM80-NOT: cluster(
// SM80: motif.kernel "lmax_ldiv" threads(512) ->
// SM80: motif.kernel "mmax_mdiv" threads(512) ->
// OFF-LABEL: func.func @long_rows
// OFF-NOT: cluster(
// OFF: motif.kernel "lmax_ldiv" threads(512) ->
// OFF-LABEL: func.func @auto_cluster
// OFF-NOT: cluster(
// OFF: motif.kernel "{{.*}}" threads(512) ->
// Rows of 65536 f32 in one CTA of 512: 64 elements a thread in registers, 64
// in a shared tail (128 KiB): as much on chip as the cluster keeps.
// AUTO-LABEL: func.func @long_rows
// AUTO-NOT: cluster(
// AUTO: motif.kernel "lmax_ldiv" threads(512) ->
// AUTO-REMARK: remark: row blocks: kernel 'lmax' (with the 1 kernel(s) it exchanges values with): no cluster(8) of CTAs of 128 threads: one CTA of at most 512 threads keeps as much on chip ([[B:[0-9]+]] B stored to and loaded from global memory either way), and the cluster's barriers and remote loads would only add time
// AUTO-REMARK: remark: row blocks: kernel 'lmax' (one row a block, rows of 65536 element(s): threads(256) -> threads(512)): each thread walks 128 element(s)
func.func @long_rows(%x: tensor<4x65536xf32>, %y: tensor<4x32768xf32>, %f: tensor<4x16384xf32>)
    -> (tensor<4x65536xf32>, tensor<4x32768xf32>, tensor<4x16384xf32>) {
  %max = motif.kernel "lmax" threads(256) -> tensor<4xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<4x65536xf32>) -> tensor<4xf32>
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %l = motif.kernel "ldiv" threads(256) -> tensor<4x65536xf32> {
    %p = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<4x65536xf32>, tensor<4xf32>) -> tensor<4x65536xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<4x65536xf32>
    motif.yield %g : tensor<4x65536xf32>
  }
  %mmax = motif.kernel "mmax" threads(256) -> tensor<4xf32> {
    %m = motif.reduce <max> (%y[i, j]) -> [i] over [block, thread]
           : (tensor<4x32768xf32>) -> tensor<4xf32>
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %m2 = motif.kernel "mdiv" threads(256) -> tensor<4x32768xf32> {
    %p = motif.map (%y[i, j], %mmax[i]) -> [i, j] over [block, thread]
           : (tensor<4x32768xf32>, tensor<4xf32>) -> tensor<4x32768xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<4x32768xf32>
    motif.yield %g : tensor<4x32768xf32>
  }
  %fmax = motif.kernel "fmax" threads(256) -> tensor<4xf32> {
    %m = motif.reduce <max> (%f[i, j]) -> [i] over [block, thread]
           : (tensor<4x16384xf32>) -> tensor<4xf32>
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %z = motif.kernel "fdiv" threads(256) -> tensor<4x16384xf32> {
    %p = motif.map (%f[i, j], %fmax[i]) -> [i, j] over [block, thread]
           : (tensor<4x16384xf32>, tensor<4xf32>) -> tensor<4x16384xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %p in global : tensor<4x16384xf32>
    motif.yield %g : tensor<4x16384xf32>
  }
  return %l, %m2, %z : tensor<4x65536xf32>, tensor<4x32768xf32>, tensor<4x16384xf32>
}

// -----

// A cluster the program states, on kernels the fusion merges through a value
// other threads of the block read (a transpose of each block's 32x32 tile):
// the value goes to shared memory, which a cluster cannot hold, so the merged
// kernel drops its cluster with a remark and runs as one CTA.
// ON-LABEL: func.func @stated_cluster_dropped
// ON: motif.kernel "t1_t2" threads(64) -> tensor<4x32x32xf32>
// ON: in shared
// ON-REMARK: remark: cluster(2) of kernel 't1_t2' dropped: a shared value is read by other threads of the block, which may be in another CTA of the cluster (clusters take register and global values, and shared tails); the block runs as one CTA of 64 threads (the same schedule)
func.func @stated_cluster_dropped(%x: tensor<4x32x32xf32>) -> tensor<4x32x32xf32> {
  %a = motif.kernel "t1" threads(64) cluster(2) -> tensor<4x32x32xf32> {
    %m = motif.map (%x[b, i, j]) -> [b, i, j] over [block, thread, seq]
           : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32> {
    ^bb0(%v: f32):
      %w = arith.addf %v, %v : f32
      motif.yield %w : f32
    }
    %g = motif.materialize %m in global : tensor<4x32x32xf32>
    motif.yield %g : tensor<4x32x32xf32>
  }
  %c = motif.kernel "t2" threads(64) cluster(2) -> tensor<4x32x32xf32> {
    %m = motif.map (%a[b, i, j]) -> [b, i, j] over [block, seq, thread]
           : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32> {
    ^bb0(%v: f32):
      %w = arith.mulf %v, %v : f32
      motif.yield %w : f32
    }
    %g = motif.materialize %m in global : tensor<4x32x32xf32>
    motif.yield %g : tensor<4x32x32xf32>
  }
  return %c : tensor<4x32x32xf32>
}

// -----

// A stated cluster through row blocks: rows of 1024 shrink threads(1024) to
// 64, which cannot split into 4 CTAs of whole warps: the cluster is dropped
// with a remark (the block runs as one CTA, the same schedule).
// ON-LABEL: func.func @stated_cluster_short_rows
// ON: motif.kernel "smax_sdiv" threads(64) ->
// ON-REMARK: remark: row blocks: kernel 'smax': its cluster(4) dropped: threads(64) do not split into that many CTAs of whole warps; the block runs as one CTA
func.func @stated_cluster_short_rows(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %max = motif.kernel "smax" threads(1024) cluster(4) -> tensor<64xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<64x1024xf32>) -> tensor<64xf32>
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  %y = motif.kernel "sdiv" threads(1024) cluster(4) -> tensor<64x1024xf32> {
    %p = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
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

// bf16 softmax over rows of 131072: one CTA of 512 threads would keep 64
// elements a thread in registers and 192 in a shared tail (192 KiB), with no
// room left for the f32 exponentials (1 MiB), which then go through global
// memory: stored once, loaded by the sum and by the division, 3 MiB, besides
// x read once and y written once (0.5 MiB each): 4 MiB. A cluster of 8 CTAs
// of 128 threads keeps both on chip (64 + 64 elements a thread, tails of
// 16 + 32 KiB a CTA): 1 MiB.
// AUTO-LABEL: func.func @auto_cluster
// AUTO: motif.kernel "amax_to_adiv" threads(1024) cluster(8)
// AUTO-NOT: motif.kernel
// AUTO-REMARK: remark: row clusters: kernel 'amax': a cluster keeps on chip what one CTA of at most 512 threads cannot: 4194304 -> 1048576 B stored to and loaded from global memory
// AUTO-REMARK: remark: row blocks: kernel 'amax' (one row a block, rows of 131072 element(s): threads(256) -> threads(1024) cluster(8))
func.func @auto_cluster(%x: tensor<2x131072xbf16>) -> tensor<2x131072xbf16> {
  %max = motif.kernel "amax" threads(256) -> tensor<2xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<2x131072xbf16>) -> tensor<2xf32>
    %g = motif.materialize %m in global : tensor<2xf32>
    motif.yield %g : tensor<2xf32>
  }
  %e = motif.kernel "aexp" threads(256) -> tensor<2x131072xf32> {
    %p = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<2x131072xbf16>, tensor<2xf32>) -> tensor<2x131072xf32> {
    ^bb0(%a: bf16, %m: f32):
      %f = arith.extf %a : bf16 to f32
      %d = arith.subf %f, %m : f32
      %v = math.exp %d : f32
      motif.yield %v : f32
    }
    %g = motif.materialize %p in global : tensor<2x131072xf32>
    motif.yield %g : tensor<2x131072xf32>
  }
  %sum = motif.kernel "asum" threads(256) -> tensor<2xf32> {
    %s = motif.reduce <add> (%e[i, j]) -> [i] over [block, thread]
           : (tensor<2x131072xf32>) -> tensor<2xf32>
    %g = motif.materialize %s in global : tensor<2xf32>
    motif.yield %g : tensor<2xf32>
  }
  %y = motif.kernel "adiv" threads(256) -> tensor<2x131072xbf16> {
    %p = motif.map (%e[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<2x131072xf32>, tensor<2xf32>) -> tensor<2x131072xbf16> {
    ^bb0(%v: f32, %s: f32):
      %q = arith.divf %v, %s : f32
      %r = arith.truncf %q : f32 to bf16
      motif.yield %r : bf16
    }
    %g = motif.materialize %p in global : tensor<2x131072xbf16>
    motif.yield %g : tensor<2x131072xbf16>
  }
  return %y : tensor<2x131072xbf16>
}
