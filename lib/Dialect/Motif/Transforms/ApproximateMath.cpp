//===- ApproximateMath.cpp - fast forms of exp and of row divisions -------===//
//
// A map body is scalar code the lowering emits once per element. Two of its
// ops cost far more than the arithmetic around them and have fast forms that
// differ only in the last bits:
//
//   exp(a)   -> exp2(a * log2(e))   libdevice's expf is a range reduction and
//                                   a polynomial (~8 instructions); exp2 is
//                                   one MUFU.EX2 after the multiply
//   n / d    -> n * (1 / d)         when d is broadcast by the map (a row
//                                   statistic): IEEE division per element
//                                   (a slow-path CALL behind a check) becomes
//                                   one reciprocal per row and a multiply
//
// and the exp2 of softmax's exponent, exp(x - max) with max the row max of
// the same x, may flush a subnormal result to zero (`motif.ftz`: one
// MUFU.EX2, where ex2 without ftz costs a range check and two multiplies
// more): its row holds exp(0) = 1, so a flushed value is below 2^-126 of it.
//
// This is what Triton and Inductor emit for softmax. It matters where a
// kernel's compute is not hidden behind other blocks' memory traffic: a row
// kept on chip in registers and a shared tail runs one block per SM
// (docs/residency.md, "Shared tails"). Both rewrites are class
// `mathematical`: exp2 of a rounded product errs by about |a| 2^-24 ln 2
// relative (larger for large |a|), the reciprocal by 1 ulp more than the
// division.
//
//===----------------------------------------------------------------------===//

#include "ApproximateMath.h"
#include "OnlineSoftmax.h"

#include "motif/Dialect/Motif/IR/MotifOps.h"
#include "motif/Dialect/Motif/IR/ScalarOps.h"
#include "motif/Dialect/Motif/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace mlir::motif {
#define GEN_PASS_DEF_MOTIFAPPROXIMATEMATH
#include "motif/Dialect/Motif/Transforms/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;
using namespace mlir::motif;

int64_t mlir::motif::approximateMath(func::FuncOp func,
                                     RewriterBase &rewriter) {
  int64_t total = 0;
  func.walk([&](MapOp map) {
    Block &body = map.getBody().front();
    int64_t resultRank =
        cast<RankedTensorType>(map.getResult().getType()).getRank();
    // Block arguments of operands the map broadcasts (fewer dims than it).
    llvm::SmallPtrSet<Value, 4> broadcast;
    for (auto [i, v] : llvm::enumerate(map.getInputs()))
      if (cast<RankedTensorType>(v.getType()).getRank() < resultRank)
        broadcast.insert(body.getArgument(i));
    int64_t exps = 0, divs = 0, flushed = 0;
    // Matched before the exp below becomes an exp2.
    bool rowMax = isExpOfItsRowMax(map);
    for (Operation &op : llvm::make_early_inc_range(body.without_terminator())) {
      Location loc = op.getLoc();
      rewriter.setInsertionPoint(&op);
      if (auto exp = dyn_cast<math::ExpOp>(op)) {
        Type t = exp.getType();
        if (!t.isF32()) // f16/bf16 math is computed in f32 by the programs
          continue;
        Value log2e = arith::ConstantOp::create(
            rewriter, loc, rewriter.getFloatAttr(t, 1.4426950408889634));
        Value scaled =
            arith::MulFOp::create(rewriter, loc, exp.getOperand(), log2e);
        rewriter.replaceOpWithNewOp<math::Exp2Op>(exp, scaled);
        ++exps;
        continue;
      }
      if (auto div = dyn_cast<arith::DivFOp>(op)) {
        if (!broadcast.contains(div.getRhs()) || broadcast.contains(div.getLhs()))
          continue;
        Type t = div.getType();
        if (!t.isF32())
          continue;
        Value one = arith::ConstantOp::create(rewriter, loc,
                                              rewriter.getFloatAttr(t, 1.0));
        Value inv = arith::DivFOp::create(rewriter, loc, one, div.getRhs());
        rewriter.replaceOpWithNewOp<arith::MulFOp>(div, div.getLhs(), inv);
        ++divs;
      }
    }
    // The softmax exponent exp(x - max) of x's own row max (the map yields
    // it): its row holds exp(0) = 1, so a subnormal result may flush to zero
    // (ex2.ftz).
    if (rowMax) {
      auto exp2 = body.getTerminator()->getOperand(0).getDefiningOp<math::Exp2Op>();
      if (exp2 && exp2.getType().isF32() && !exp2->hasAttr(kFlushSubnormalAttr)) {
        rewriter.modifyOpInPlace(exp2, [&] {
          exp2->setAttr(kFlushSubnormalAttr, rewriter.getUnitAttr());
        });
        ++flushed;
      }
    }
    if (exps + divs + flushed == 0)
      return;
    auto kernel = map->getParentOfType<KernelOp>();
    InFlightDiagnostic d = map.emitRemark();
    d << "approximate math (class mathematical) in kernel '"
      << (kernel ? kernel.getSymName() : StringRef("?")) << "': ";
    if (exps)
      d << exps << " exp as exp2 with log2(e) folded in";
    if (exps && (divs || flushed))
      d << ", ";
    if (divs)
      d << divs << " division(s) by a broadcast operand as a multiplication "
                   "by its reciprocal";
    if (divs && flushed)
      d << ", ";
    if (flushed)
      d << flushed << " exp2 of x minus its row's max with subnormal results "
                      "flushed to zero (ex2.ftz: the row's max gives 1)";
    total += exps + divs + flushed;
  });
  return total;
}

namespace {
struct ApproximateMathPass
    : public motif::impl::MotifApproximateMathBase<ApproximateMathPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    IRRewriter rewriter(&getContext());
    int64_t n = approximateMath(func, rewriter);
    numRewritten += n;
    if (!n) {
      markAllAnalysesPreserved();
      return;
    }
    recordEquivalence(func, Equivalence::Mathematical);
  }
};
} // namespace
