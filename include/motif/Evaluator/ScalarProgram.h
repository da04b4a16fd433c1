//===- ScalarProgram.h - the scalar interpreter of motif bodies -*- C++ -*-===//
//
// A map body or a combiner region compiled once into straight-line code over
// value slots and run per element, in float (an f32 result in F32 mode) or in
// double. The evaluator (both its models) and the combiner-law check run
// bodies through it; docs/evaluator.md lists the ops it knows.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_EVALUATOR_SCALARPROGRAM_H
#define MOTIF_EVALUATOR_SCALARPROGRAM_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Region.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <cmath>
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
enum class ScalarKind : unsigned {
  Constant,
  Add,
  Sub,
  Mul,
  Div,
  Neg,
  Maximum,
  Minimum,
  MaxNum,
  MinNum,
  Cmp,
  Select,
  Exp,
  Log,
  Sqrt,
  Rsqrt,
  Tanh,
  Erf,
  Abs,
  Fma,
  Pow,
  Convert,
};

struct ScalarInst {
  ScalarKind kind;
  SmallVector<unsigned, 3> operands;
  unsigned result = 0;
  /// Computed in float (an f32 result in F32 mode).
  bool narrow = false;
  double constant = 0.0;
  arith::CmpFPredicate predicate = arith::CmpFPredicate::AlwaysFalse;
};

} // namespace detail

/// A map body or combiner region as straight-line code over value slots.
class ScalarProgram {
public:
  /// Compiles `region`'s single block. Unknown ops, values from outside the
  /// body and unsupported types fail with a diagnostic on the op.
  static FailureOr<ScalarProgram> compile(Region &region, NumericMode mode);

  /// Runs the body on `args` and writes the yielded values to `results`.
  void run(ArrayRef<double> args, MutableArrayRef<double> results);

  unsigned getNumArguments() const { return numArgs; }
  unsigned getNumResults() const { return yields.size(); }

private:
  unsigned numArgs = 0;
  SmallVector<detail::ScalarInst> insts;
  SmallVector<unsigned> yields;
  std::vector<double> slots;
};

} // namespace mlir::motif

#endif // MOTIF_EVALUATOR_SCALARPROGRAM_H
