//===- ExecutionScope.h - who computes and who reads an element -*- C++ -*-===//
//
// The mapping model (docs/residency.md): every iteration dim of a motif is at
// a level -- block, warp, lane, thread or seq. An element of a motif's result
// is *owned* by the threads that compute it: the thread the thread-level dims
// select (thread 0 when there are none), and every thread of a level the motif
// reduced over (a block/warp all-reduce leaves its result in all of them). An
// element a consumer reads is *read* by the threads the consumer's own dims
// select. Comparing owners and readers gives the execution scope of a
// producer -> consumer edge:
//   SameThread  every reader owns the element          -> register legal
//   SameBlock   readers are other threads of the block -> shared (+ barrier)
//   CrossBlock  another block, or another grid, reads  -> global only
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_ANALYSIS_EXECUTIONSCOPE_H
#define MOTIF_ANALYSIS_EXECUTIONSCOPE_H

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include <string>

namespace mlir::motif {

enum class Scope { SameThread, SameBlock, CrossBlock };

llvm::StringRef stringifyScope(Scope s);

struct EdgeScope {
  Scope scope;
  /// Why, in words a user reads in a remark.
  std::string reason;
};

/// The scope of the edge from `producer` (which computes `value`, one of its
/// results) to `consumer`, which reads it as operand `operandIndex`, when both
/// run in one kernel (one block size).
EdgeScope classifyEdge(ComputeOpInterface producer, Value value,
                       ComputeOpInterface consumer, unsigned operandIndex);


/// How many elements of `value` (a result of `producer`) one thread keeps
/// when the value lives in registers, with `threads` threads per block.
int64_t elementsPerThread(ComputeOpInterface producer, Value value,
                          int64_t threads);

/// Bytes of `value` one block holds (its non-block dims) when the value
/// lives in shared memory.
int64_t bytesPerBlock(ComputeOpInterface producer, Value value);

/// True if `op` reduces over a level whose combination order depends on the
/// block size (thread/warp/lane): re-blocking it changes its bits.
bool reducesAcrossThreads(ComputeOpInterface op);

} // namespace mlir::motif

#endif
