//===- TestWrongFusion.cpp - a deliberately wrong rewrite (test only) -----===//
//
// Models the bugs a fusion pass could have, so that the checks that guard
// every rewrite (--motif-verify-invariants, motif-equiv) are shown to catch
// them.
//
//===----------------------------------------------------------------------===//
#include "motif/Dialect/Motif/Transforms/Passes.h"

#define DEBUG_TYPE "motif-test-wrong-fusion"

namespace mlir::motif {
#define GEN_PASS_DEF_MOTIFTESTWRONGFUSION
#include "motif/Dialect/Motif/Transforms/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;
using namespace mlir::motif;

namespace {
struct TestWrongFusionPass
    : public motif::impl::MotifTestWrongFusionBase<TestWrongFusionPass> {
  using MotifTestWrongFusionBase::MotifTestWrongFusionBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    MLIRContext *ctx = &getContext();
    if (mode == "swap-combiner") {
      func.walk([&](ReduceOp op) {
        if (!op.getKind())
          return WalkResult::advance();
        static const CombinerKind swapped[] = {
            CombinerKind::Mul, CombinerKind::Add, CombinerKind::Min,
            CombinerKind::Max};
        op.setKindAttr(CombinerKindAttr::get(
            ctx, swapped[static_cast<int>(*op.getKind())]));
        return WalkResult::interrupt();
      });
      return;
    }
    if (mode == "drop-observable") {
      func.walk([&](MaterializeOp op) {
        if (!op.getObservable())
          return WalkResult::advance();
        op.setObservable(false);
        return WalkResult::interrupt();
      });
      return;
    }
    if (mode == "rewire") {
      // A map that should read a computed intermediate reads the function's
      // first argument of the same type instead.
      func.walk([&](MapOp op) {
        for (OpOperand &use : op->getOpOperands()) {
          if (isa<BlockArgument>(use.get()))
            continue;
          for (BlockArgument arg : func.getArguments())
            if (arg.getType() == use.get().getType()) {
              use.set(arg);
              return WalkResult::interrupt();
            }
        }
        return WalkResult::advance();
      });
      return;
    }
    func.emitError() << "unknown mode '" << mode
                     << "' (swap-combiner, drop-observable or rewire)";
    signalPassFailure();
  }
};
} // namespace
