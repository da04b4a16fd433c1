//===- MotifNVVMDialect.h - NVVM ops MLIR 22 lacks --------------*- C++ -*-===//
#ifndef MOTIF_DIALECT_MOTIFNVVM_IR_MOTIFNVVMDIALECT_H
#define MOTIF_DIALECT_MOTIFNVVM_IR_MOTIFNVVMDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/LLVMIR/BasicPtxBuilderInterface.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "motif/Dialect/MotifNVVM/IR/MotifNVVMOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "motif/Dialect/MotifNVVM/IR/MotifNVVMOps.h.inc"

#endif
