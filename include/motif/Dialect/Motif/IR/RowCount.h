//===- RowCount.h - a function's runtime row count --------------*- C++ -*-===//
//
// A motif tensor may leave its leading dim dynamic: every `?` of a function
// is one size, its row count, known at launch (docs/dialect.md, "Runtime row
// counts"). The evaluator runs such a function at chosen row counts by
// specializing it.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_DIALECT_MOTIF_IR_ROWCOUNT_H
#define MOTIF_DIALECT_MOTIF_IR_ROWCOUNT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir::motif {

/// Whether any tensor of `func` (signature or body) has a runtime row count.
bool hasRuntimeRows(func::FuncOp func);

/// Gives `func`'s runtime row count the value `rows` (>= 1): every tensor
/// type with a dynamic leading dim, in the signature and in the body, gets
/// `rows` rows. The caller verifies the result.
void specializeRows(func::FuncOp func, int64_t rows);

/// A copy of `func` with its row count given the value `rows`, alone in a
/// fresh module (the function is the module's only op). Null, after the
/// verifier's located error, when `rows` is past the function's limits
/// (2^40 instances).
OwningOpRef<ModuleOp> cloneAtRows(func::FuncOp func, int64_t rows);

} // namespace mlir::motif

#endif // MOTIF_DIALECT_MOTIF_IR_ROWCOUNT_H
