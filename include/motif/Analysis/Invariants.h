//===- Invariants.h - what every rewrite must preserve ----------*- C++ -*-===//
//
// The structural invariants of seed 002 section 6.3, computed from a motif
// function: for every output, the set of inputs it depends on; the multiset
// of reduction domains (which elements, which combiner); and the observable
// values (function results and `observable` materializations), which must
// stay in global memory. `--fuse-materialization` stamps them on the function
// before rewriting, `--motif-verify-invariants` recomputes and compares.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_ANALYSIS_INVARIANTS_H
#define MOTIF_ANALYSIS_INVARIANTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::motif {

/// The attribute name the invariants are stamped under.
inline constexpr llvm::StringLiteral kInvariantsAttrName = "motif.invariants";

/// Computes the invariants of `func` as a dictionary attribute:
///   deps        : [[arg indices] per result]
///   reductions  : sorted ["<combiner> over <extents> of {args}"]
///   observables : number of observable materializations (all global)
DictionaryAttr computeInvariants(func::FuncOp func);

/// Compares `func` against `expected`; emits a located error at the first
/// difference (on the op that breaks it when there is one) and fails.
LogicalResult verifyInvariants(func::FuncOp func, DictionaryAttr expected);

} // namespace mlir::motif

#endif
