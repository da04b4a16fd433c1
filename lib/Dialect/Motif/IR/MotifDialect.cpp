//===- MotifDialect.cpp - the motif dialect -------------------------------===//
#include "motif/Dialect/Motif/IR/MotifDialect.h"
#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::motif;

#include "motif/Dialect/Motif/IR/MotifOpsDialect.cpp.inc"
#include "motif/Dialect/Motif/IR/MotifEnums.cpp.inc"
#define GET_ATTRDEF_CLASSES
#include "motif/Dialect/Motif/IR/MotifAttributes.cpp.inc"

void MotifDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "motif/Dialect/Motif/IR/MotifAttributes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "motif/Dialect/Motif/IR/MotifOps.cpp.inc"
      >();
}
