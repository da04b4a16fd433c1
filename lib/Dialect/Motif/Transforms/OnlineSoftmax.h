//===- OnlineSoftmax.h - rule 4: one reduction for (max, sum of exp) -*- C++ -*-===//
//
// Shared by --motif-online-softmax and --fuse-materialization (which runs it
// first when its equivalence cap admits `mathematical`). docs/residency.md,
// "Rule 4: online softmax".
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_LIB_DIALECT_MOTIF_TRANSFORMS_ONLINESOFTMAX_H
#define MOTIF_LIB_DIALECT_MOTIF_TRANSFORMS_ONLINESOFTMAX_H

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>

namespace mlir::motif {

/// Finds, by dataflow, every max-reduction `m = max_k x` read by a map
/// `e = exp(x - m)` (or `exp((x - m) * c)`, `exp2`, c > 0) whose result is
/// summed over the same dims, `l = sum_k e`, and replaces `m` and `l` by the
/// two results of one general-combiner reduction over `x` carrying the state
/// (m, l): one pass over the reduced dim instead of two. `m` keeps its bits
/// (max is exact in any order); `l` is rescaled as the max grows (class
/// `mathematical`). Below `cap` every candidate is declined. Each rewrite and
/// each decline is a remark on the max. Returns the number of rewrites.
/// `gate`, when given, may decline a candidate the pattern allows: it
/// returns the reason (a remark) or an empty string to rewrite. `chip` is
/// the target (fuse-materialization's): on sm_90a the flash form's
/// schedule is the one its wgmma lowering prefers.
int64_t rewriteOnlineSoftmax(
    func::FuncOp func, Equivalence cap, RewriterBase &rewriter,
    llvm::function_ref<std::string(ReduceOp)> gate = nullptr,
    llvm::StringRef chip = "sm_90");

/// Whether `map` computes, per element, `exp(x - m)`, `exp((x - m) * c)` or
/// `exp2` of those (c > 0) where `m` is the max of the same `x` over the dims
/// the map broadcasts `m` along (`m = max_k x`, read at the row's indices;
/// followed through materializations and kernel results): the softmax
/// exponent. Then every row holds exp(0) = 1 and every other value is at most
/// 1, so a flushed subnormal errs by less than 2^-126 of the row's largest.
bool isExpOfItsRowMax(MapOp map);

} // namespace mlir::motif

#endif
