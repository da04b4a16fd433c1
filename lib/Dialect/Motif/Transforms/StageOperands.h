//===- StageOperands.h - operand tiles as a residency decision --*- C++ -*-===//
//
// Internal to --fuse-materialization (docs/residency.md, "Operand tiles").
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_LIB_DIALECT_MOTIF_TRANSFORMS_STAGEOPERANDS_H
#define MOTIF_LIB_DIALECT_MOTIF_TRANSFORMS_STAGEOPERANDS_H

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::motif {

/// Decides, for every tensor from outside `kernel` that its tiled motifs
/// read, whether each block stages its tile in shared memory (a
/// `motif.materialize ... in shared` in front of the readers): when the
/// block reads each element of the tile several times (reuse), or when its
/// threads would read global memory down a column (the copy reads along
/// rows). The tile must fit the `sharedBudget` bytes per block with what the
/// kernel already keeps in shared memory (rule 5: otherwise it stays
/// global). Every decision and every decline is a remark, recorded on the
/// materialization for --motif-residency-report. Returns the tiles staged.
int64_t stageOperandTiles(KernelOp kernel, RewriterBase &rewriter,
                          int64_t sharedBudget);

/// The motifs' reads of tensors from outside `kernel` (global memory), by
/// tensor in order of first use.
llvm::MapVector<Value, SmallVector<OpOperand *>> readsFromOutside(KernelOp kernel);

/// How remarks name a tensor a kernel reads from outside: `argument #N`, or
/// `'KERNEL'#N` for an earlier kernel's result.
std::string nameOfKernelInput(Value value);

} // namespace mlir::motif

#endif
