//===- ApproximateMath.h - fast forms of exp and of row divisions -*- C++ -*-===//
//
// Shared by --motif-approximate-math and --fuse-materialization (which runs it
// when its equivalence cap admits `mathematical`). docs/residency.md,
// "Approximate math".
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_LIB_DIALECT_MOTIF_TRANSFORMS_APPROXIMATEMATH_H
#define MOTIF_LIB_DIALECT_MOTIF_TRANSFORMS_APPROXIMATEMATH_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::motif {

/// In every motif.map body of `func`: `math.exp(a)` becomes
/// `math.exp2(a * log2(e))` (one MUFU.EX2 instead of libdevice's range
/// reduction), and `arith.divf(n, d)` with `d` an operand the map broadcasts
/// (a row statistic) becomes `n * (1 / d)` (one reciprocal per row). Both
/// change the last bits (class `mathematical`). f32 ops only. A remark per
/// rewritten map.
/// Returns the number of ops rewritten.
int64_t approximateMath(func::FuncOp func, RewriterBase &rewriter);

} // namespace mlir::motif

#endif
