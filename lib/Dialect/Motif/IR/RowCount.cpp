//===- RowCount.cpp - a function's runtime row count ----------------------===//
#include "motif/Dialect/Motif/IR/RowCount.h"
#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "mlir/IR/Verifier.h"

using namespace mlir;
using namespace mlir::motif;

bool mlir::motif::hasRuntimeRows(func::FuncOp func) {
  bool found = false;
  func.walk([&](Operation *op) {
    for (Type t : op->getResultTypes())
      found |= hasDynamicRows(t);
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type t : block.getArgumentTypes())
          found |= hasDynamicRows(t);
  });
  FunctionType type = func.getFunctionType();
  for (Type t : llvm::concat<const Type>(type.getInputs(), type.getResults()))
    found |= hasDynamicRows(t);
  return found;
}

void mlir::motif::specializeRows(func::FuncOp func, int64_t rows) {
  auto fix = [&](Type t) -> Type {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !hasDynamicRows(tensor))
      return t;
    SmallVector<int64_t> shape(tensor.getShape());
    shape.front() = rows;
    return tensor.clone(shape);
  };
  func.walk([&](Operation *op) {
    for (Value v : op->getResults())
      v.setType(fix(v.getType()));
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          arg.setType(fix(arg.getType()));
  });
  FunctionType type = func.getFunctionType();
  SmallVector<Type> inputs = llvm::map_to_vector(type.getInputs(), fix);
  SmallVector<Type> results = llvm::map_to_vector(type.getResults(), fix);
  func.setFunctionType(FunctionType::get(func.getContext(), inputs, results));
}

OwningOpRef<ModuleOp> mlir::motif::cloneAtRows(func::FuncOp func,
                                               int64_t rows) {
  OwningOpRef<ModuleOp> module = ModuleOp::create(func.getLoc());
  auto clone = cast<func::FuncOp>(func->clone());
  module->push_back(clone);
  specializeRows(clone, rows);
  if (failed(verify(clone)))
    return nullptr;
  return module;
}
