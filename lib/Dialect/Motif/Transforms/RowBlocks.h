//===- RowBlocks.h - block sizes of row kernels ------------------*- C++
//-*-===//
//
// Internal to --fuse-materialization (docs/residency.md, "Row blocks").
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_LIB_DIALECT_MOTIF_TRANSFORMS_ROWBLOCKS_H
#define MOTIF_LIB_DIALECT_MOTIF_TRANSFORMS_ROWBLOCKS_H

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace mlir::motif {

/// Elements of a row each thread of a re-blocked `[block, thread]` kernel
/// walks: 16 (four 128-bit loads of f32, two of bf16 in flight per thread);
/// and the most elements of all its rows a thread of a block of R rows walks
/// (R x N / threads): beyond it the registers grow and the loads in flight
/// fall (bf16 softmax 16384 x 512 at 64 threads: 4 rows a block, 32 elements
/// a thread, 0.884x of one row a block on an H100; 2 rows, 16 elements,
/// 1.026x: docs/results/rows-a-block-r-h100-session19.txt).
constexpr int64_t kRowElementsPerThread = 16;
/// The fewest threads a re-blocked `[block, thread]` kernel keeps.
constexpr int64_t kRowMinThreads = 64;
/// Threads of a re-blocked `[block.warp, lane]` kernel: four rows a block.
constexpr int64_t kWarpRowThreads = 128;
/// The most threads a grown `[block, thread]` kernel takes (a row longer than
/// the register budget times the written block): at 1024 an f32 row of 65536
/// spills (64 registers a thread), at 512 none does.
constexpr int64_t kRowMaxThreads = 512;

/// Rows a block (`[block x seq(R), thread]`): at most this many rows a block,
constexpr int64_t kMaxRowsPerBlock = 4;
/// at most this many elements a block (R rows of N: R x N), and
constexpr int64_t kRowsPerBlockElements = 4096;
/// at least this many blocks left in the grid (fuse-materialization's
/// row-block-min-grid; 0: one row a block).
constexpr int64_t kRowsPerBlockMinGrid = 2048;

/// Re-blocks every kernel whose motifs (maps and built-in reductions, untiled)
/// map one dim of extent N, the row, over the threads of a block and every
/// other dim over the grid, when the block is larger than the row needs:
///
///   [block, thread]     threads = N / 16 to a power of two, at least 64
///                       (each thread walks 16 elements of its row); and a
///                       row longer than `registerBudget` elements a thread
///                       of the written block grows it: threads = N /
///                       registerBudget to a power of two, at most 512 (the
///                       row is then kept in registers, or in a smaller
///                       shared tail over more warps). The tree of a
///                       reduction over the row changes (class `tolerance`;
///                       bitwise for maps alone): only when `cap` admits
///                       `tolerance`
///   [block.warp, lane]  threads = 128 (four rows a block); each row keeps its
///                       warp and lanes (bitwise)
///
/// Then a `[block, thread]` group (re-blocked or not) whose grid holds many
/// short rows takes R rows a block: one grid dim, the innermost that R
/// divides, becomes the nest `block x seq(R)` in every motif of the group
/// (every motif maps the same grid extents in the same order), R the largest
/// power of two up to kMaxRowsPerBlock with R x N <= kRowsPerBlockElements and
/// R x (N / threads) <= kRowElementsPerThread and `registerBudget` that divides
/// a static grid dim and leaves at least `rowsPerBlockMinGrid` blocks (0: none;
/// with a runtime row count, the static dims' blocks: never the count's dim).
/// Each thread then walks its elements of R rows; every row keeps its threads
/// and tree (bitwise). A block costs time to launch whatever its work (an empty
/// kernel of 16384 blocks takes 13.6 us on an H100, of 8192 8.7 us):
/// 16384x1024 bf16 softmax 26.7 us at 4 rows a block against 27.1 at one
/// (docs/results/rows-a-block-16384x1024-h100-session17.txt).
///
/// A block no larger than that is kept, as is every other kernel. Every
/// re-blocking and every decline is a remark on the kernel; `applied` is
/// raised to `tolerance` where a row reduction's tree changed. Returns the
/// number of kernels re-blocked.
///
/// With `clusterThreads` > 0 (fuse-materialization's row-cluster-threads, on
/// a chip with clusters of up to `maxCluster` CTAs), a row that grows takes up
/// to kMaxThreadsPerBlock threads, and a grown block of more than
/// `clusterThreads` threads runs as `cluster(threads / clusterThreads)` (at
/// most `maxCluster` CTAs): the CTAs each hold a part of the row in
/// registers and combine the reduction's warp partials through distributed
/// shared memory (docs/residency.md, "Row clusters"). `declineCluster`, when
/// given, is asked for each group of kernels a cluster would take: a
/// non-empty answer is why not (a remark), and the group grows as without
/// clusters.
int64_t applyRowBlocks(func::FuncOp func, Equivalence cap,
                       int64_t registerBudget, Equivalence &applied,
                       int64_t clusterThreads = 0, int64_t maxCluster = 1,
                       llvm::function_ref<std::string(ArrayRef<KernelOp>)>
                           declineCluster = nullptr,
                       int64_t rowsPerBlockMinGrid = kRowsPerBlockMinGrid);

/// Drops the `cluster` of every kernel of `func` that an op of it cannot run
/// in (clusterBlocker: a shared value, a staged tile, a tensor-core or online
/// contraction), with a remark; the block then runs as one CTA, with the same
/// schedule. Returns the number of kernels that keep a cluster.
int64_t settleClusters(func::FuncOp func);

} // namespace mlir::motif

#endif
