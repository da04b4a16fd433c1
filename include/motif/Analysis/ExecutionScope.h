//===- ExecutionScope.h - who computes and who reads an element -*- C++ -*-===//
//
// The residency analysis' questions, answered by the schedule model
// (Schedule.h): the scope of an edge between motifs of kernels that may be
// merged, and what a value costs in registers or shared memory.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_ANALYSIS_EXECUTIONSCOPE_H
#define MOTIF_ANALYSIS_EXECUTIONSCOPE_H

#include "motif/Analysis/Schedule.h"

namespace mlir::motif {

/// The scope of the edge from `producer` to `consumer` (operand
/// `operandIndex`) when both run in one kernel of `threads` threads (0: the
/// producer's kernel's).
EdgeScope classifyEdge(ComputeOpInterface producer, ComputeOpInterface consumer,
                       unsigned operandIndex, int64_t threads = 0);

/// How many register slots one thread keeps for `producer`'s result when it
/// lives in registers, with `threads` threads per block.
int64_t elementsPerThread(ComputeOpInterface producer, int64_t threads);

/// Bytes of `value` (a result of `producer`) one block holds when the value
/// lives in shared memory.
int64_t bytesPerBlock(ComputeOpInterface producer, Value value);

/// True if `op` reduces over a level whose combination order depends on the
/// block size (thread/warp/lane): re-blocking it changes its bits.
bool reducesAcrossThreads(ComputeOpInterface op);

} // namespace mlir::motif

#endif
