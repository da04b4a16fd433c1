//===- MotifDialect.h - the motif dialect -----------------------*- C++ -*-===//
#ifndef MOTIF_DIALECT_MOTIF_IR_MOTIFDIALECT_H
#define MOTIF_DIALECT_MOTIF_IR_MOTIFDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dialect.h"

#include "motif/Dialect/Motif/IR/MotifOpsDialect.h.inc"

#endif
