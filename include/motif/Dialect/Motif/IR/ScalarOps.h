//===- ScalarOps.h - the scalar ops a motif body may hold -------*- C++ -*-===//
//
// The set of ops a motif.map body or a motif.reduce combiner may hold is
// defined once, in ScalarOps.def. The verifier refuses what is not in it (with
// the reason), the evaluator's ScalarProgram runs exactly what is in it, and
// every op in it lowers through convert-gpu-to-nvvm to PTX.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_DIALECT_MOTIF_IR_SCALAROPS_H
#define MOTIF_DIALECT_MOTIF_IR_SCALAROPS_H

#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace mlir::motif {

/// A unit attribute on an f32 `math.exp2` in a motif.map body: a result
/// below 2^-126 (a subnormal) may be flushed to +0. The lowering emits
/// ex2.approx.ftz.f32 (one MUFU.EX2; without ftz ptxas adds a range check and
/// two multiplies to keep subnormal results) and the evaluator flushes in
/// F32 mode. ApproximateMath sets it on exp(x - max) of a row's own max
/// (docs/residency.md, "Approximate math").
inline constexpr llvm::StringLiteral kFlushSubnormalAttr = "motif.ftz";

/// One supported body op, named after its op class (ScalarOps.def).
enum class ScalarOpKind : unsigned {
#define MOTIF_SCALAR_OP(Kind, OpClass) Kind,
#include "motif/Dialect/Motif/IR/ScalarOps.def"
};

/// The kind of `op` when its op class is in the supported list; nullopt
/// otherwise. Types and attributes are not checked: use verifyScalarBodyOp.
std::optional<ScalarOpKind> classifyScalarBodyOp(Operation *op);

/// Whether a body value may have type `type`: f32, f64, an integer of 1 to 64
/// bits (signless, as arith uses them) or index.
bool isSupportedScalarType(Type type);

/// The bit width of an integer or index value in a body (index is 64 bits, as
/// convert-gpu-to-nvvm lowers it); 0 for a float.
unsigned getScalarBitWidth(Type type);

/// Succeeds when `op`, an op directly inside a motif body, is one the whole
/// pipeline supports: its op class is in ScalarOps.def, every operand and
/// result has a supported scalar type, its operands are defined inside the
/// body, and its attributes are ones the evaluator honors. Otherwise emits a
/// located error "'<op>' op is not supported in a motif body: <why>". For the
/// body's `motif.yield` only the operands' origin (inside the body) is
/// checked: the caller checks their types against the motif's.
LogicalResult verifyScalarBodyOp(Operation *op);

} // namespace mlir::motif

#endif // MOTIF_DIALECT_MOTIF_IR_SCALAROPS_H
