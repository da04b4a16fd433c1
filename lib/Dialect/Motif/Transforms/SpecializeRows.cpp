//===- SpecializeRows.cpp - a static row count for a dynamic function -----===//
#include "motif/Dialect/Motif/IR/RowCount.h"
#include "motif/Dialect/Motif/Transforms/Passes.h"

#include "mlir/IR/Verifier.h"

#define DEBUG_TYPE "motif-specialize-rows"

namespace mlir::motif {
#define GEN_PASS_DEF_MOTIFSPECIALIZEROWS
#include "motif/Dialect/Motif/Transforms/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;
using namespace mlir::motif;

namespace {
struct SpecializeRowsPass
    : public motif::impl::MotifSpecializeRowsBase<SpecializeRowsPass> {
  using Base::Base;
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (rows < 1) {
      func.emitError() << "motif-specialize-rows: rows=" << static_cast<int64_t>(rows)
                       << " must be at least 1";
      return signalPassFailure();
    }
    if (!hasRuntimeRows(func))
      return markAllAnalysesPreserved();
    specializeRows(func, rows);
    // A row count past what the function's sizes allow (2^40 instances, the
    // grid limit) is the verifier's to refuse, located.
    if (failed(verify(func)))
      return signalPassFailure();
  }
};
} // namespace
