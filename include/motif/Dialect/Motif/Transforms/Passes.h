//===- Passes.h - motif transformation passes -------------------*- C++ -*-===//
#ifndef MOTIF_DIALECT_MOTIF_TRANSFORMS_PASSES_H
#define MOTIF_DIALECT_MOTIF_TRANSFORMS_PASSES_H

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Pass/Pass.h"

namespace mlir::motif {

#define GEN_PASS_DECL
#include "motif/Dialect/Motif/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "motif/Dialect/Motif/Transforms/Passes.h.inc"

/// Records on `func` (`motif.equivalence`) that a rewrite of class `applied`
/// ran: the attribute keeps the weakest class applied so far.
inline void recordEquivalence(func::FuncOp func, Equivalence applied) {
  auto prior = func->getAttrOfType<EquivalenceAttr>("motif.equivalence");
  if (!prior || prior.getValue() < applied)
    func->setAttr("motif.equivalence",
                  EquivalenceAttr::get(func.getContext(), applied));
}

} // namespace mlir::motif

#endif
