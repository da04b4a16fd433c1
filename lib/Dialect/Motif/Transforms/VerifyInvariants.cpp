//===- VerifyInvariants.cpp - check a rewrite against the original --------===//
#include "motif/Analysis/Invariants.h"
#include "motif/Dialect/Motif/Transforms/Passes.h"

#define DEBUG_TYPE "motif-verify-invariants"

namespace mlir::motif {
#define GEN_PASS_DEF_MOTIFVERIFYINVARIANTS
#include "motif/Dialect/Motif/Transforms/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;
using namespace mlir::motif;

namespace {
struct VerifyInvariantsPass
    : public motif::impl::MotifVerifyInvariantsBase<VerifyInvariantsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    Attribute stamp = func->getAttr(kInvariantsAttrName);
    auto expected = dyn_cast_or_null<DictionaryAttr>(stamp);
    if (stamp && !expected) {
      func.emitOpError() << "has a '" << kInvariantsAttrName
                         << "' that is not a dictionary (" << stamp
                         << "): it must hold deps, reductions and observables";
      return signalPassFailure();
    }
    if (!expected) {
      // Nothing to compare against: a function no rewrite has touched.
      markAllAnalysesPreserved();
      return;
    }
    if (failed(verifyInvariants(func, expected)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
