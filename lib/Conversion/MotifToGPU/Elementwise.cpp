//===- Elementwise.cpp - maps, broadcasts and transposes ------------------===//
//
// One instance of an elementwise motif: load each operand element (from
// global, shared or a register slot) and apply the scalar body. Broadcast and
// transpose are pure data movement: their index maps did the work.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::detail;

FailureOr<SmallVector<Value>>
mlir::motif::detail::emitElementwise(KernelEmitter &e, ComputeOpInterface op,
                                     const Instance &inst) {
  if (auto map = dyn_cast<MapOp>(op.getOperation())) {
    IRMapping mapping;
    Block &body = map.getBody().front();
    for (auto [i, arg] : llvm::enumerate(body.getArguments())) {
      FailureOr<Value> v = e.loadOperand(op, i, inst);
      if (failed(v))
        return failure();
      mapping.map(arg, *v);
    }
    for (Operation &scalar : body.without_terminator()) {
      if (scalar.getNumRegions() != 0)
        return scalar.emitOpError()
               << "has regions; a motif.map body must be straight-line "
                  "scalar code to be lowered";
      emitScalarOp(e.b, scalar, mapping);
    }
    auto yield = cast<YieldOp>(body.getTerminator());
    return SmallVector<Value>{mapping.lookup(yield.getOperand(0))};
  }
  if (isa<BroadcastOp, TransposeOp>(op.getOperation())) {
    FailureOr<Value> v = e.loadOperand(op, 0, inst);
    if (failed(v))
      return failure();
    return SmallVector<Value>{*v};
  }
  return op->emitOpError() << "has no elementwise lowering";
}
