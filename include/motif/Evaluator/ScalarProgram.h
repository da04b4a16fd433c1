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
#include "mlir/IR/Types.h"
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

/// The binary floating-point formats a value can be stored in.
enum class FloatFormat { F64, F32, F16, BF16 };

/// The format of a float type: f16, bf16, f32; F64 for anything else.
FloatFormat floatFormatOf(Type t);

/// Rounds `v` to the nearest value of `format`, ties to even (IEEE 754
/// roundTiesToEven, as the GPU's cvt.rn and arith.truncf do): overflow goes
/// to infinity, small values to subnormals, NaN stays NaN. F64 is the identity.
double roundToFormat(double v, FloatFormat format);

/// Rounds the f32 value `v` to tf32 (10 stored significand bits, f32's
/// exponent range) as cvt.rna.tf32.f32 does: to nearest, ties away from
/// zero; NaN and infinities stay, a value past tf32's largest finite goes to
/// infinity. What a tensor-core contraction `mma m16n8k8` multiplies
/// (docs/evaluator.md, "Tensor cores").
double roundToTf32(double v);

/// The 16 bits of `v` (which `roundToFormat` already rounded) in f16 or bf16.
uint16_t halfBits(double v, FloatFormat format);
/// The value of the 16 bits `bits` of an f16 or bf16.
double fromHalfBits(uint16_t bits, FloatFormat format);

/// Rounds `v` as a stored tensor element of the given mode.
inline double roundStored(double v, NumericMode mode) {
  return mode == NumericMode::F32 ? static_cast<double>(static_cast<float>(v))
                                  : v;
}

/// Rounds an input element of type `element`: an f16 or bf16 input holds a
/// value of its format in both modes (the float64 reference reads the same
/// inputs); an f32 one is rounded in F32 mode only.
inline double roundInput(double v, NumericMode mode, Type element) {
  FloatFormat f = floatFormatOf(element);
  if (f == FloatFormat::F16 || f == FloatFormat::BF16)
    return roundToFormat(v, f);
  return roundStored(v, mode);
}

/// Rounds `v` as a stored element of type `element` (f32, f16 or bf16) in
/// the given mode: F32 mode stores every element in its own format; F64 mode
/// keeps the double (the float64 reference).
inline double roundStored(double v, NumericMode mode, Type element) {
  return mode == NumericMode::F32 ? roundToFormat(v, floatFormatOf(element))
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
  /// A result below float's smallest normal becomes +0 (a narrow
  /// `math.exp2 {motif.ftz}`: ex2.approx.ftz.f32 flushes subnormal results).
  bool flushSubnormal = false;
  /// The bit width of an integer result; 0 for a float result.
  unsigned resultWidth = 0;
  /// The bit width of an integer first operand; 0 for a float one.
  unsigned operandWidth = 0;
  /// The formats of a float result and first operand (F64 for others).
  FloatFormat resultFormat = FloatFormat::F64, operandFormat = FloatFormat::F64;
  /// The format the result is rounded to after it is computed: f16 or bf16
  /// in F32 mode; F64 (none) otherwise.
  FloatFormat roundTo = FloatFormat::F64;
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
