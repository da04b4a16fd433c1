//===- ScalarProgram.cpp - the scalar interpreter of motif bodies ---------===//
//
// Runs the ops of ScalarOps.def. Floats are computed in the precision of the
// mode (float for an f32 result in F32 mode, double otherwise) with the host's
// libm; integers wrap in the width of their type. The switch in run() covers
// every ScalarOpKind, so an op added to the list does not build until it is
// evaluated here.
//
//===----------------------------------------------------------------------===//
#include "motif/Evaluator/ScalarProgram.h"

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::detail;

//===----------------------------------------------------------------------===//
// Storage formats: f32, f16, bf16
//===----------------------------------------------------------------------===//

FloatFormat mlir::motif::floatFormatOf(Type t) {
  if (t.isF32())
    return FloatFormat::F32;
  if (t.isF16())
    return FloatFormat::F16;
  if (t.isBF16())
    return FloatFormat::BF16;
  return FloatFormat::F64;
}

namespace {
/// A binary format: significand bits (with the implicit one), the least
/// normal and the greatest exponent.
struct FormatLimits {
  int precision, minExponent, maxExponent;
};
} // namespace

static FormatLimits limitsOf(FloatFormat f) {
  switch (f) {
  case FloatFormat::F32:
    return {24, -126, 127};
  case FloatFormat::F16:
    return {11, -14, 15};
  case FloatFormat::BF16:
    return {8, -126, 127};
  case FloatFormat::F64:
    break;
  }
  return {53, -1022, 1023};
}

double mlir::motif::roundToFormat(double v, FloatFormat format) {
  if (format == FloatFormat::F64 || v == 0.0 || !std::isfinite(v))
    return v;
  if (format == FloatFormat::F32)
    return static_cast<double>(static_cast<float>(v));
  FormatLimits f = limitsOf(format);
  int e;
  (void)std::frexp(v, &e); // v = m * 2^e, 0.5 <= |m| < 1
  // The quantum (one unit in the last place) at v's binade, or the
  // subnormals' below the least normal exponent. Scaling by powers of two
  // is exact; nearbyint rounds ties to even in the default rounding mode.
  int exponent = std::max(e - 1, f.minExponent);
  double quantum = std::ldexp(1.0, exponent - (f.precision - 1));
  double r = std::nearbyint(v / quantum) * quantum;
  double maxFinite =
      std::ldexp(2.0 - std::ldexp(1.0, 1 - f.precision), f.maxExponent);
  if (std::fabs(r) > maxFinite)
    return std::copysign(std::numeric_limits<double>::infinity(), v);
  return r;
}

double mlir::motif::roundToTf32(double v) {
  float f = static_cast<float>(v);
  if (!std::isfinite(f))
    return f;
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  // Half of the dropped 13 bits' unit added to the magnitude, then
  // truncated: ties go away from zero; a carry out of the significand bumps
  // the exponent (to infinity past the largest finite), as it should.
  bits = (bits + 0x1000u) & 0xffffe000u;
  std::memcpy(&f, &bits, sizeof(bits));
  return f;
}

uint16_t mlir::motif::halfBits(double v, FloatFormat format) {
  if (format == FloatFormat::BF16) {
    float f = static_cast<float>(v); // exact: v is a bf16 value
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    if (std::isnan(f))
      return static_cast<uint16_t>((bits >> 16) | 0x40);
    return static_cast<uint16_t>(bits >> 16);
  }
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  double a = std::fabs(v);
  if (std::isnan(v))
    return sign | 0x7e00;
  if (std::isinf(a))
    return sign | 0x7c00;
  if (a == 0.0)
    return sign;
  int e;
  double m = std::frexp(a, &e); // a = m * 2^e
  if (e - 1 < -14) // subnormal: a = k * 2^-24
    return sign | static_cast<uint16_t>(std::ldexp(a, 24));
  auto fraction = static_cast<uint16_t>(std::ldexp(m, 11) - 1024.0);
  return sign | static_cast<uint16_t>((e - 1 + 15) << 10) | fraction;
}

double mlir::motif::fromHalfBits(uint16_t bits, FloatFormat format) {
  if (format == FloatFormat::BF16) {
    uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float f;
    std::memcpy(&f, &wide, sizeof(f));
    return f;
  }
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  int exponent = (bits >> 10) & 0x1f;
  int fraction = bits & 0x3ff;
  if (exponent == 0x1f)
    return fraction ? std::numeric_limits<double>::quiet_NaN()
                    : sign * std::numeric_limits<double>::infinity();
  if (exponent == 0)
    return sign * std::ldexp(static_cast<double>(fraction), -24);
  return sign * std::ldexp(1024.0 + fraction, exponent - 25);
}

//===----------------------------------------------------------------------===//
// Floats in a chosen precision
//===----------------------------------------------------------------------===//

/// Rounds half-way cases to even (math.roundeven), whatever the host's
/// rounding mode.
template <typename T>
static T roundEven(T a) {
  if (std::fabs(a - std::trunc(a)) == T(0.5))
    return T(2) * std::round(a / T(2));
  return std::round(a);
}

/// a^n for an integer n (math.fpowi). T(n) may round an odd n to an even
/// float (|n| > 2^24 in float); the sign an odd power of a negative base has
/// is kept.
template <typename T>
static T powInteger(T a, int64_t n) {
  T r = std::pow(a, static_cast<T>(n));
  if ((n & 1) && std::signbit(a) && !std::signbit(r))
    r = -r;
  return r;
}

/// One float op whose operands and result are floats, computed entirely in T
/// (float or double): the float overloads call libm's float functions
/// (log1pf, atan2f, ...).
template <typename T>
static T applyFloat(ScalarOpKind kind, T a, T b, T c) {
  using K = ScalarOpKind;
  switch (kind) {
  case K::AddF:
    return a + b;
  case K::SubF:
    return a - b;
  case K::MulF:
    return a * b;
  case K::DivF:
    return a / b;
  case K::RemF: // LLVM frem: C's fmod, the sign of the dividend
    return std::fmod(a, b);
  case K::NegF:
    return -a;
  case K::MaximumF:
    return maximumOf(a, b);
  case K::MinimumF:
    return minimumOf(a, b);
  case K::MaxNumF:
    return std::fmax(a, b);
  case K::MinNumF:
    return std::fmin(a, b);
  case K::ExtF:
  case K::TruncF: // rounds to T: nearest even in float, exact in double
    return a;
  case K::AbsF:
    return std::fabs(a);
  case K::Ceil:
    return std::ceil(a);
  case K::Floor:
    return std::floor(a);
  case K::Round: // half away from zero
    return std::round(a);
  case K::RoundEven:
    return roundEven(a);
  case K::Sqrt:
    return std::sqrt(a);
  case K::Rsqrt:
    return T(1) / std::sqrt(a);
  case K::Cbrt:
    return std::cbrt(a);
  case K::Exp:
    return std::exp(a);
  case K::Exp2:
    return std::exp2(a);
  case K::ExpM1:
    return std::expm1(a);
  case K::Log:
    return std::log(a);
  case K::Log2:
    return std::log2(a);
  case K::Log10:
    return std::log10(a);
  case K::Log1p:
    return std::log1p(a);
  case K::Sin:
    return std::sin(a);
  case K::Cos:
    return std::cos(a);
  case K::Tan:
    return std::tan(a);
  case K::Asin:
    return std::asin(a);
  case K::Acos:
    return std::acos(a);
  case K::Atan:
    return std::atan(a);
  case K::Sinh:
    return std::sinh(a);
  case K::Cosh:
    return std::cosh(a);
  case K::Tanh:
    return std::tanh(a);
  case K::Asinh:
    return std::asinh(a);
  case K::Acosh:
    return std::acosh(a);
  case K::Atanh:
    return std::atanh(a);
  case K::Erf:
    return std::erf(a);
  case K::Erfc:
    return std::erfc(a);
  case K::Atan2: // math.atan2 %y, %x
    return std::atan2(a, b);
  case K::CopySign: // the magnitude of a, the sign of b
    return std::copysign(a, b);
  case K::PowF:
    return std::pow(a, b);
  case K::Fma:
    return std::fma(a, b, c);
  default:
    break;
  }
  llvm_unreachable("not a float-to-float op");
}

static bool compareFloat(arith::CmpFPredicate p, double a, double b) {
  bool unordered = std::isnan(a) || std::isnan(b);
  using P = arith::CmpFPredicate;
  switch (p) {
  case P::AlwaysFalse:
    return false;
  case P::AlwaysTrue:
    return true;
  case P::OEQ:
    return !unordered && a == b;
  case P::OGT:
    return !unordered && a > b;
  case P::OGE:
    return !unordered && a >= b;
  case P::OLT:
    return !unordered && a < b;
  case P::OLE:
    return !unordered && a <= b;
  case P::ONE:
    return !unordered && a != b;
  case P::ORD:
    return !unordered;
  case P::UEQ:
    return unordered || a == b;
  case P::UGT:
    return unordered || a > b;
  case P::UGE:
    return unordered || a >= b;
  case P::ULT:
    return unordered || a < b;
  case P::ULE:
    return unordered || a <= b;
  case P::UNE:
    return unordered || a != b;
  case P::UNO:
    return unordered;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Integers in the width of their type
//===----------------------------------------------------------------------===//

/// The low `width` bits of `v`, sign-extended: the slot form of an integer.
static int64_t signExtend(uint64_t v, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(v);
  unsigned shift = 64 - width;
  return static_cast<int64_t>(v << shift) >> shift;
}

/// The low `width` bits of `v`: its unsigned value.
static uint64_t zeroExtend(int64_t v, unsigned width) {
  auto u = static_cast<uint64_t>(v);
  return width >= 64 ? u : u & ((uint64_t(1) << width) - 1);
}

static bool compareInt(arith::CmpIPredicate p, int64_t a, int64_t b,
                       unsigned width) {
  uint64_t ua = zeroExtend(a, width), ub = zeroExtend(b, width);
  using P = arith::CmpIPredicate;
  switch (p) {
  case P::eq:
    return a == b;
  case P::ne:
    return a != b;
  case P::slt:
    return a < b;
  case P::sle:
    return a <= b;
  case P::sgt:
    return a > b;
  case P::sge:
    return a >= b;
  case P::ult:
    return ua < ub;
  case P::ule:
    return ua <= ub;
  case P::ugt:
    return ua > ub;
  case P::uge:
    return ua >= ub;
  }
  return false;
}

/// arith.fptosi. Out-of-range values are poison in LLVM; here they saturate
/// and NaN gives 0, as PTX's cvt.rzi does.
static int64_t floatToSigned(double v, unsigned width) {
  if (std::isnan(v))
    return 0;
  double t = std::trunc(v);
  double bound = std::ldexp(1.0, static_cast<int>(width) - 1); // 2^(w-1)
  if (t < -bound)
    return signExtend(uint64_t(1) << (width - 1), width); // the minimum
  if (t >= bound)
    return width >= 64 ? std::numeric_limits<int64_t>::max()
                       : (int64_t(1) << (width - 1)) - 1;
  return static_cast<int64_t>(t);
}

/// arith.fptoui, saturating like floatToSigned.
static int64_t floatToUnsigned(double v, unsigned width) {
  if (std::isnan(v))
    return 0;
  double t = std::trunc(v);
  if (t < 0.0)
    return 0;
  if (t >= std::ldexp(1.0, static_cast<int>(width)))
    return signExtend(~uint64_t(0), width); // all ones
  return signExtend(static_cast<uint64_t>(t), width);
}

/// arith.bitcast between a float and an integer of the same width (a cast
/// within floats or within integers is the identity). An f32 in F64 mode is
/// rounded to float first: its bits are a float's; an f16 or bf16 likewise.
static ScalarSlot bitcast(ScalarSlot a, unsigned operandWidth,
                          unsigned resultWidth, FloatFormat operandFormat,
                          FloatFormat resultFormat) {
  ScalarSlot r = a;
  if (operandWidth == 0 && resultWidth == 16) {
    r.i = signExtend(halfBits(roundToFormat(a.f, operandFormat), operandFormat),
                     16);
  } else if (operandWidth == 16 && resultWidth == 0) {
    r.f = fromHalfBits(static_cast<uint16_t>(a.i), resultFormat);
  } else if (operandWidth == 0 && resultWidth == 32) {
    auto f = static_cast<float>(a.f);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof(bits));
    r.i = signExtend(bits, 32);
  } else if (operandWidth == 0 && resultWidth == 64) {
    std::memcpy(&r.i, &a.f, sizeof(r.i));
  } else if (operandWidth == 32 && resultWidth == 0) {
    auto bits = static_cast<uint32_t>(a.i);
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    r.f = f;
  } else if (operandWidth == 64 && resultWidth == 0) {
    std::memcpy(&r.f, &a.i, sizeof(r.f));
  }
  return r;
}

//===----------------------------------------------------------------------===//
// Scalar bodies: compiled once into a slot program, run per element
//===----------------------------------------------------------------------===//

/// Whether a value of type `t` is computed in float: an f32, and an f16 or
/// bf16 (then rounded to its format), in F32 mode.
static bool isNarrow(Type t, NumericMode mode) {
  return mode == NumericMode::F32 && (t.isF32() || t.isF16() || t.isBF16());
}

FailureOr<ScalarProgram> ScalarProgram::compile(Region &region,
                                                NumericMode mode) {
  ScalarProgram program;
  Block &block = region.front();
  DenseMap<Value, unsigned> slotOf;
  unsigned numSlots = 0;
  for (BlockArgument arg : block.getArguments()) {
    if (!isSupportedScalarType(arg.getType()))
      return region.getParentOp()->emitOpError()
             << "body argument #" << arg.getArgNumber() << " has type "
             << arg.getType()
             << "; body values are f32, f16, bf16, f64, integers of 1 to 64 "
                "bits or index";
    program.argWidths.push_back(getScalarBitWidth(arg.getType()));
    slotOf[arg] = numSlots++;
  }
  program.numArgs = numSlots;

  for (Operation &op : block) {
    if (failed(verifyScalarBodyOp(&op)))
      return failure();
    SmallVector<unsigned, 3> operands;
    for (Value v : op.getOperands())
      operands.push_back(slotOf.lookup(v)); // defined inside: verified
    if (isa<YieldOp>(op)) {
      program.yields.assign(operands.begin(), operands.end());
      for (Value v : op.getOperands())
        program.yieldWidths.push_back(getScalarBitWidth(v.getType()));
      continue;
    }
    Type resultType = op.getResult(0).getType();
    ScalarInst inst;
    inst.kind = *classifyScalarBodyOp(&op);
    inst.operands = operands;
    inst.result = numSlots;
    inst.narrow = isNarrow(resultType, mode);
    inst.flushSubnormal = inst.narrow && isa<math::Exp2Op>(op) &&
                          resultType.isF32() &&
                          op.hasAttr(kFlushSubnormalAttr);
    inst.resultWidth = getScalarBitWidth(resultType);
    inst.resultFormat = floatFormatOf(resultType);
    if (op.getNumOperands() != 0) {
      inst.operandWidth = getScalarBitWidth(op.getOperand(0).getType());
      inst.operandFormat = floatFormatOf(op.getOperand(0).getType());
    }
    if (mode == NumericMode::F32 && (inst.resultFormat == FloatFormat::F16 ||
                                     inst.resultFormat == FloatFormat::BF16)) {
      inst.roundTo = inst.resultFormat;
      // A half result is rounded once from float, which is correctly
      // rounded for +, -, *, / and sqrt of half operands (float has more
      // than twice their precision) and is what the GPU does for math
      // functions (extend, f32 libdevice call, truncate). An fma, an integer
      // or an f64 operand is computed in double and rounded once.
      if (inst.kind == ScalarOpKind::Fma ||
          inst.kind == ScalarOpKind::SIToFP ||
          inst.kind == ScalarOpKind::UIToFP ||
          llvm::any_of(op.getOperandTypes(),
                       [](Type t) { return t.isF64(); }))
        inst.narrow = false;
    }
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      if (auto f = dyn_cast<FloatAttr>(cst.getValue())) {
        double v = f.getValue().convertToDouble();
        inst.constant.f = inst.narrow ? static_cast<float>(v) : v;
        if (inst.roundTo != FloatFormat::F64)
          inst.constant.f = roundToFormat(v, inst.roundTo);
      } else {
        const APInt &v = cast<IntegerAttr>(cst.getValue()).getValue();
        inst.constant.i = signExtend(v.getZExtValue(), v.getBitWidth());
      }
    } else if (auto cmp = dyn_cast<arith::CmpFOp>(op)) {
      inst.predicate = static_cast<unsigned>(cmp.getPredicate());
    } else if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
      inst.predicate = static_cast<unsigned>(cmp.getPredicate());
    }
    program.insts.push_back(std::move(inst));
    slotOf[op.getResult(0)] = numSlots++;
  }
  program.slots.assign(numSlots, ScalarSlot{0.0});
  return program;
}

void ScalarProgram::run(ArrayRef<double> args, MutableArrayRef<double> results) {
  for (auto [k, v] : llvm::enumerate(args)) {
    if (argWidths[k] != 0)
      slots[k].i = signExtend(static_cast<uint64_t>(static_cast<int64_t>(v)),
                              argWidths[k]);
    else
      slots[k].f = v;
  }
  using K = ScalarOpKind;
  for (const ScalarInst &inst : insts) {
    auto operand = [&](unsigned i) {
      return i < inst.operands.size() ? slots[inst.operands[i]]
                                      : ScalarSlot{0.0};
    };
    ScalarSlot a = operand(0), b = operand(1), c = operand(2);
    unsigned rw = inst.resultWidth, ow = inst.operandWidth;
    ScalarSlot r{0.0};
    switch (inst.kind) {
    case K::Constant:
      r = inst.constant;
      break;
    case K::CmpF:
      r.i = compareFloat(static_cast<arith::CmpFPredicate>(inst.predicate),
                         a.f, b.f)
                ? -1
                : 0;
      break;
    case K::CmpI:
      r.i = compareInt(static_cast<arith::CmpIPredicate>(inst.predicate), a.i,
                       b.i, ow)
                ? -1
                : 0;
      break;
    case K::Select:
      r = a.i != 0 ? b : c;
      break;
    case K::AddI:
      r.i = signExtend(uint64_t(a.i) + uint64_t(b.i), rw);
      break;
    case K::SubI:
      r.i = signExtend(uint64_t(a.i) - uint64_t(b.i), rw);
      break;
    case K::MulI:
      r.i = signExtend(uint64_t(a.i) * uint64_t(b.i), rw);
      break;
    case K::AndI:
      r.i = a.i & b.i;
      break;
    case K::OrI:
      r.i = a.i | b.i;
      break;
    case K::XOrI:
      r.i = a.i ^ b.i;
      break;
    case K::MaxSI:
      r.i = std::max(a.i, b.i);
      break;
    case K::MinSI:
      r.i = std::min(a.i, b.i);
      break;
    case K::MaxUI:
      r.i = zeroExtend(a.i, rw) >= zeroExtend(b.i, rw) ? a.i : b.i;
      break;
    case K::MinUI:
      r.i = zeroExtend(a.i, rw) <= zeroExtend(b.i, rw) ? a.i : b.i;
      break;
    case K::SIToFP:
      r.f = inst.narrow ? static_cast<float>(a.i) : static_cast<double>(a.i);
      break;
    case K::UIToFP: {
      uint64_t u = zeroExtend(a.i, ow);
      r.f = inst.narrow ? static_cast<float>(u) : static_cast<double>(u);
      break;
    }
    case K::FPToSI:
      r.i = floatToSigned(a.f, rw);
      break;
    case K::FPToUI:
      r.i = floatToUnsigned(a.f, rw);
      break;
    case K::ExtSI:
    case K::TruncI:
    case K::IndexCast: // sign-extends or truncates
      r.i = signExtend(uint64_t(a.i), rw);
      break;
    case K::ExtUI:
    case K::IndexCastUI: // zero-extends or truncates
      r.i = signExtend(zeroExtend(a.i, ow), rw);
      break;
    case K::Bitcast:
      r = bitcast(a, ow, rw, inst.operandFormat, inst.resultFormat);
      break;
    case K::IsNaN:
      r.i = std::isnan(a.f) ? -1 : 0;
      break;
    case K::IsInf:
      r.i = std::isinf(a.f) ? -1 : 0;
      break;
    case K::IsFinite:
      r.i = std::isfinite(a.f) ? -1 : 0;
      break;
    case K::FPowI:
      r.f = inst.narrow ? powInteger(static_cast<float>(a.f), b.i)
                        : powInteger(a.f, b.i);
      break;
    case K::AddF:
    case K::SubF:
    case K::MulF:
    case K::DivF:
    case K::RemF:
    case K::NegF:
    case K::MaximumF:
    case K::MinimumF:
    case K::MaxNumF:
    case K::MinNumF:
    case K::ExtF:
    case K::TruncF:
    case K::AbsF:
    case K::Ceil:
    case K::Floor:
    case K::Round:
    case K::RoundEven:
    case K::Sqrt:
    case K::Rsqrt:
    case K::Cbrt:
    case K::Exp:
    case K::Exp2:
    case K::ExpM1:
    case K::Log:
    case K::Log2:
    case K::Log10:
    case K::Log1p:
    case K::Sin:
    case K::Cos:
    case K::Tan:
    case K::Asin:
    case K::Acos:
    case K::Atan:
    case K::Sinh:
    case K::Cosh:
    case K::Tanh:
    case K::Asinh:
    case K::Acosh:
    case K::Atanh:
    case K::Erf:
    case K::Erfc:
    case K::Atan2:
    case K::CopySign:
    case K::PowF:
    case K::Fma:
      r.f = inst.narrow
                ? applyFloat<float>(inst.kind, static_cast<float>(a.f),
                                    static_cast<float>(b.f),
                                    static_cast<float>(c.f))
                : applyFloat<double>(inst.kind, a.f, b.f, c.f);
      break;
    }
    if (inst.flushSubnormal &&
        std::fabs(r.f) < std::numeric_limits<float>::min())
      r.f = 0.0;
    if (inst.roundTo != FloatFormat::F64 && inst.resultWidth == 0)
      r.f = roundToFormat(r.f, inst.roundTo);
    slots[inst.result] = r;
  }
  for (auto [k, s] : llvm::enumerate(yields))
    results[k] = yieldWidths[k] != 0 ? static_cast<double>(slots[s].i)
                                     : slots[s].f;
}
