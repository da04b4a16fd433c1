//===- CombinerLaws.h - sampled laws of a general combiner ------*- C++ -*-===//
//
// A reduction mapped to a parallel level combines partials in a tree (the
// schedule model's butterfly and warp order), which computes the program's
// sequential fold only when the combiner is associative and commutative and
// `init` is its identity. For a combiner region that is not decidable in
// general; this check runs the region (in double) on states reachable from
// `init` and reports the first law that fails beyond rounding.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_EVALUATOR_COMBINERLAWS_H
#define MOTIF_EVALUATOR_COMBINERLAWS_H

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include <optional>
#include <string>

namespace mlir::motif {

/// Nullopt when `op` has a built-in combiner, or its combiner region kept
/// associativity, commutativity and the identity law on every sample
/// (relative difference at most 1e-9 in double); else the law that failed,
/// with the sample, in words.
std::optional<std::string> checkCombinerLaws(ReduceOp op);

/// Whether `op` reduces over a dim mapped to a parallel level of the block
/// (thread, warp, lane), so its combiner must obey the laws.
bool combinesInATree(ReduceOp op);

} // namespace mlir::motif

#endif
