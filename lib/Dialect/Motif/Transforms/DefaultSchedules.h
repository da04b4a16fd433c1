//===- DefaultSchedules.h - tiles for programs that state none --*- C++ -*-===//
//
// Internal to --fuse-materialization (docs/residency.md, "Default schedules").
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_LIB_DIALECT_MOTIF_TRANSFORMS_DEFAULTSCHEDULES_H
#define MOTIF_LIB_DIALECT_MOTIF_TRANSFORMS_DEFAULTSCHEDULES_H

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::motif {

/// The extent tiles of `tile` cover: `extent` rounded up to a multiple of
/// `tile` (the last tile partial where it does not divide; docs/dialect.md,
/// "Partial last tiles").
inline int64_t paddedExtent(int64_t extent, int64_t tile) {
  return (extent + tile - 1) / tile * tile;
}

/// The default schedules' padding rule: a tile is a candidate where what it
/// covers (`padded`, elements or an area) is within 1/8 of the least any
/// candidate covers (`leastPadded`); larger tiles then win on their grid,
/// never by computing more than 1/8 of masked work.
inline bool withinPaddingRule(int64_t padded, int64_t leastPadded) {
  return padded * 8 <= leastPadded * 9;
}

/// Gives every contraction that states no tile nest, alone in its kernel,
/// with one contracted dim and operands from memory, the register-blocked
/// tile schedule of examples/gemm.mlir sized to its shape (threads(256): a
/// 16 x 16 thread grid, 16*rm x 16*rn outputs per block, rm, rn the largest
/// of 8, 4, 2, 1 that divide; K in steps of the largest of 32 ... 1 that
/// divides), and carries the result dims' nests to the maps that read the
/// product element for element in kernels of their own (the epilogue), so
/// the fusion can keep it in registers. The tiled schedule folds the
/// contracted dim sequentially (k = 0, 1, ...): bitwise when the written
/// mapping folded it so too (`seq`); a contraction written to reduce across
/// threads changes its tree (class `tolerance`), so it is tiled only when
/// `cap` admits that, and `applied` is raised. Every choice and every
/// decline is a remark. An f16/bf16 matrix product goes to tensor cores
/// instead where `cap` admits tolerance, in the largest block tile (128x128
/// down to 16x8) that leaves at least `mmaMinGrid` blocks (else the one with
/// the most), with 3 cp.async stages where they fit `sharedBudget` bytes,
/// else 2. With `wgmmaBudget` > 0 (sm_90a) a product with B indexed [j, k]
/// and K a multiple of 64 runs on wgmma instead where a wgmma tile (64 or
/// 128 rows by 64, 128 or 256 columns) leaves `mmaMinGrid` blocks, with 4
/// stages where they fit `wgmmaBudget` (the per-block opt-in maximum: the
/// stages live in dynamic shared memory). Returns the number of motifs given
/// a schedule.
int64_t applyDefaultSchedules(func::FuncOp func, Equivalence cap,
                              Equivalence &applied, int64_t mmaMinGrid,
                              int64_t sharedBudget, int64_t wgmmaBudget);

/// A remark on every contraction of `func` that runs on tensor cores (`mma`):
/// the instruction, the warp tiling, the pipeline and the class; and on every
/// f16/bf16 matrix product that does not, why (tensor cores are opt-in).
/// Returns how many run on tensor cores.
int64_t remarkTensorCores(func::FuncOp func);

} // namespace mlir::motif

#endif
