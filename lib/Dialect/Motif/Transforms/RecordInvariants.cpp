//===- RecordInvariants.cpp - stamp a function's invariants ---------------===//
#include "motif/Analysis/Invariants.h"
#include "motif/Dialect/Motif/Transforms/Passes.h"

#define DEBUG_TYPE "motif-record-invariants"

namespace mlir::motif {
#define GEN_PASS_DEF_MOTIFRECORDINVARIANTS
#include "motif/Dialect/Motif/Transforms/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;
using namespace mlir::motif;

namespace {
struct RecordInvariantsPass
    : public motif::impl::MotifRecordInvariantsBase<RecordInvariantsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    func->setAttr(kInvariantsAttrName, computeInvariants(func));
  }
};
} // namespace
