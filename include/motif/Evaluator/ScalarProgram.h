//===- ScalarProgram.h - the scalar interpreter of motif bodies -*- C++ -*-===//
//
// A map body or a combiner region compiled once into straight-line code over
// value slots and run per element, in float (an f32 result in F32 mode) or in
// double. The evaluator (both its models) and the combiner-law check run
// bodies through it. It runs exactly the ops of ScalarOps.def (what
// verifyScalarBodyOp admits); docs/evaluator.md gives their semantics.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_EVALUATOR_SCALARPROGRAM_H
#define MOTIF_EVALUATOR_SCALARPROGRAM_H

#include "motif/Dialect/Motif/IR/ScalarOps.h"

#include "mlir/IR/Region.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace mlir::motif {

/// How every scalar is computed.
enum class NumericMode {
  /// Every f32 value is computed and stored in float: the bitwise reference.
  F32,
  /// Everything is computed in double: a float64 reference.
  F64,
};

/// IEEE maximum as arith.maximumf: NaN propagates, +0 > -0.
template <typename T>
T maximumOf(T a, T b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

/// IEEE minimum as arith.minimumf: NaN propagates, -0 < +0.
template <typename T>
T minimumOf(T a, T b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<T>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// Rounds `v` as a stored tensor element of the given mode.
inline double roundStored(double v, NumericMode mode) {
  return mode == NumericMode::F32 ? static_cast<double>(static_cast<float>(v))
                                  : v;
}

namespace detail {
/// One value of a body: a float (held in a double; in float precision when
/// computed narrow) or an integer (sign-extended from its bit width into 64
/// bits, so i1 true is -1).
union ScalarSlot {
  double f;
  int64_t i;
};

struct ScalarInst {
  ScalarOpKind kind;
  SmallVector<unsigned, 3> operands;
  unsigned result = 0;
  /// Computed in float (an f32 result in F32 mode).
  bool narrow = false;
  /// The bit width of an integer result; 0 for a float result.
  unsigned resultWidth = 0;
  /// The bit width of an integer first operand; 0 for a float one.
  unsigned operandWidth = 0;
  /// A constant's value, prepared in the precision of the mode.
  ScalarSlot constant{0.0};
  /// An arith.cmpf or arith.cmpi predicate.
  unsigned predicate = 0;
};

} // namespace detail

/// A map body or combiner region as straight-line code over value slots.
class ScalarProgram {
public:
  /// Compiles `region`'s single block. An op verifyScalarBodyOp refuses (an
  /// op outside ScalarOps.def, a value from outside the body, an unsupported
  /// type) fails with its diagnostic on the op.
  static FailureOr<ScalarProgram> compile(Region &region, NumericMode mode);

  /// Runs the body on `args` and writes the yielded values to `results`
  /// (integers are passed as their signed values).
  void run(ArrayRef<double> args, MutableArrayRef<double> results);

  unsigned getNumArguments() const { return numArgs; }
  unsigned getNumResults() const { return yields.size(); }

private:
  unsigned numArgs = 0;
  /// The bit width of each integer argument and yield; 0 for a float.
  SmallVector<unsigned> argWidths, yieldWidths;
  SmallVector<detail::ScalarInst> insts;
  SmallVector<unsigned> yields;
  std::vector<detail::ScalarSlot> slots;
};

} // namespace mlir::motif

#endif // MOTIF_EVALUATOR_SCALARPROGRAM_H
