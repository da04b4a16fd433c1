//===- ScalarOps.cpp - the scalar ops a motif body may hold ---------------===//
//
// Reads ScalarOps.def: which op classes a body may hold, which are refused
// and why, and the per-op limits (types, attributes) the evaluator and the
// NVVM lowering share.
//
//===----------------------------------------------------------------------===//
#include "motif/Dialect/Motif/IR/ScalarOps.h"

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::motif;

std::optional<ScalarOpKind> mlir::motif::classifyScalarBodyOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<ScalarOpKind>>(op)
#define MOTIF_SCALAR_OP(Kind, OpClass)                                         \
  .Case<OpClass>([](auto) { return ScalarOpKind::Kind; })
#include "motif/Dialect/Motif/IR/ScalarOps.def"
      .Default([](Operation *) { return std::nullopt; });
}

/// Why an op in the refused list is refused; nullopt for any other op.
static std::optional<StringRef> refusalReason(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<StringRef>>(op)
#define MOTIF_REFUSED_SCALAR_OP(OpClass, Reason)                               \
  .Case<OpClass>([](auto) { return StringRef(Reason); })
#include "motif/Dialect/Motif/IR/ScalarOps.def"
      .Default([](Operation *) { return std::nullopt; });
}

bool mlir::motif::isSupportedScalarType(Type type) {
  if (type.isF32() || type.isF16() || type.isBF16() || type.isF64() ||
      isa<IndexType>(type))
    return true;
  auto integer = dyn_cast<IntegerType>(type);
  return integer && integer.isSignless() && integer.getWidth() <= 64;
}

unsigned mlir::motif::getScalarBitWidth(Type type) {
  if (isa<IndexType>(type))
    return 64;
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  return 0;
}

static InFlightDiagnostic refuse(Operation *op) {
  return op->emitOpError() << "is not supported in a motif body: ";
}

/// The limits of one supported op beyond its op class and scalar types. (A
/// constant of a scalar type always holds a FloatAttr or an IntegerAttr: the
/// arith verifier sees to it.)
static LogicalResult verifyOpLimits(Operation *op, ScalarOpKind kind) {
  switch (kind) {
  case ScalarOpKind::TruncF: {
    std::optional<arith::RoundingMode> mode =
        cast<arith::TruncFOp>(op).getRoundingmode();
    if (mode && *mode != arith::RoundingMode::to_nearest_even)
      return refuse(op) << "rounding mode '"
                        << arith::stringifyRoundingMode(*mode)
                        << "'; the evaluator rounds to nearest even only";
    return success();
  }
  case ScalarOpKind::FPowI:
    if (getScalarBitWidth(op->getOperand(1).getType()) != 32)
      return refuse(op) << "the exponent is "
                        << op->getOperand(1).getType()
                        << "; libdevice's __nv_powif and __nv_powi take an "
                           "i32 exponent";
    return success();
  default:
    return success();
  }
}

static LogicalResult verifyDefinedInside(Operation *op) {
  Region *body = op->getParentRegion();
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (body && v.getParentRegion() != body)
      return refuse(op) << "operand #" << i
                        << " is defined outside the body; a body is "
                           "self-contained scalar code";
  return success();
}

LogicalResult mlir::motif::verifyScalarBodyOp(Operation *op) {
  if (isa<YieldOp>(op))
    return verifyDefinedInside(op);
  std::optional<ScalarOpKind> kind = classifyScalarBodyOp(op);
  if (!kind) {
    if (std::optional<StringRef> reason = refusalReason(op))
      return refuse(op) << *reason;
    StringRef dialect = op->getName().getDialectNamespace();
    if (dialect == "arith" || dialect == "math")
      return refuse(op) << "it is not in the list of body ops "
                           "(ScalarOps.def, docs/dialect.md)";
    return refuse(op) << "bodies hold scalar arith/math ops only";
  }
  // Every op in the list has one result and no regions; the checks below
  // are on its values.
  for (auto [i, v] : llvm::enumerate(op->getOperands()))
    if (!isSupportedScalarType(v.getType()))
      return refuse(op) << "operand #" << i << " has type " << v.getType()
                        << "; body values are f32, f16, bf16, f64, integers of "
                           "1 to 64 bits or index";
  if (failed(verifyDefinedInside(op)))
    return failure();
  for (auto [i, v] : llvm::enumerate(op->getResults()))
    if (!isSupportedScalarType(v.getType()))
      return refuse(op) << "result #" << i << " has type " << v.getType()
                        << "; body values are f32, f16, bf16, f64, integers of "
                           "1 to 64 bits or index";
  if (Attribute ftz = op->getAttr(kFlushSubnormalAttr)) {
    // Honored by the evaluator and the lowering on an f32 exp2 only: never
    // silently ignored elsewhere.
    if (*kind != ScalarOpKind::Exp2 || !op->getResult(0).getType().isF32())
      return refuse(op) << "'" << kFlushSubnormalAttr
                        << "' applies to an f32 math.exp2 only";
    if (!isa<UnitAttr>(ftz))
      return refuse(op) << "'" << kFlushSubnormalAttr
                        << "' is a unit attribute";
  }
  return verifyOpLimits(op, *kind);
}
