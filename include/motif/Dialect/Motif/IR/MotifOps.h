//===- MotifOps.h - motif operations ----------------------------*- C++ -*-===//
#ifndef MOTIF_DIALECT_MOTIF_IR_MOTIFOPS_H
#define MOTIF_DIALECT_MOTIF_IR_MOTIFOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "motif/Dialect/Motif/IR/MotifDialect.h"

#include "motif/Dialect/Motif/IR/MotifEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "motif/Dialect/Motif/IR/MotifAttributes.h.inc"

namespace mlir::motif {
/// Warps per block of the kernel around `op` (1 outside a kernel).
int64_t warpsPerBlockOf(Operation *op);
} // namespace mlir::motif

#include "motif/Dialect/Motif/IR/MotifInterfaces.h.inc"

#define GET_OP_CLASSES
#include "motif/Dialect/Motif/IR/MotifOps.h.inc"

namespace mlir::motif {
/// Number of lanes in a warp on every NVIDIA target motif supports.
constexpr int64_t kWarpSize = 32;
/// The largest block the hardware launches.
constexpr int64_t kMaxThreadsPerBlock = 1024;
} // namespace mlir::motif

#endif
