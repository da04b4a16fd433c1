//===- FloatFormatTest.cpp - the evaluator's f16 and bf16 rounding --------===//
//
// roundToFormat / halfBits / fromHalfBits (motif/Evaluator/ScalarProgram.h)
// define what a stored f16 or bf16 element is; llvm::APFloat is the oracle:
// round to nearest, ties to even, overflow to infinity, subnormals kept.
//
//===----------------------------------------------------------------------===//
#include "motif/Evaluator/ScalarProgram.h"

#include "llvm/ADT/APFloat.h"

#include "gtest/gtest.h"

#include <cmath>
#include <random>

using namespace mlir::motif;

namespace {

const llvm::fltSemantics &semanticsOf(FloatFormat f) {
  return f == FloatFormat::F16 ? llvm::APFloat::IEEEhalf()
                               : llvm::APFloat::BFloat();
}

/// APFloat's rounding of `v` to `f`, as a double, and its bits.
std::pair<double, uint16_t> oracle(double v, FloatFormat f) {
  llvm::APFloat a(v);
  bool lost;
  (void)a.convert(semanticsOf(f), llvm::APFloat::rmNearestTiesToEven, &lost);
  auto bits = static_cast<uint16_t>(a.bitcastToAPInt().getZExtValue());
  (void)a.convert(llvm::APFloat::IEEEdouble(),
                  llvm::APFloat::rmNearestTiesToEven, &lost);
  return {a.convertToDouble(), bits};
}

void expectSame(double v, FloatFormat f) {
  auto [want, wantBits] = oracle(v, f);
  double got = roundToFormat(v, f);
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << v;
    return;
  }
  EXPECT_EQ(got, want) << "value " << v;
  EXPECT_EQ(std::signbit(got), std::signbit(want)) << "value " << v;
  EXPECT_EQ(halfBits(got, f), wantBits) << "value " << v;
  EXPECT_EQ(fromHalfBits(wantBits, f), want) << "bits " << wantBits;
}

class FloatFormatTest : public ::testing::TestWithParam<FloatFormat> {};

TEST_P(FloatFormatTest, EveryEncodingRoundTrips) {
  FloatFormat f = GetParam();
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    double v = fromHalfBits(static_cast<uint16_t>(bits), f);
    if (std::isnan(v))
      continue;
    EXPECT_EQ(roundToFormat(v, f), v) << "bits " << bits;
    EXPECT_EQ(halfBits(v, f), bits) << "bits " << bits;
  }
}

TEST_P(FloatFormatTest, MidpointsTieToEven) {
  // Half-way between two neighbours (and just off it), at every binade.
  FloatFormat f = GetParam();
  uint32_t maxFinite = f == FloatFormat::F16 ? 0x7bff : 0x7f7f;
  for (uint32_t bits = 0; bits < maxFinite; ++bits) {
    double a = fromHalfBits(static_cast<uint16_t>(bits), f);
    double b = fromHalfBits(static_cast<uint16_t>(bits + 1), f);
    if (!std::isfinite(a) || !std::isfinite(b))
      continue;
    double mid = 0.5 * (a + b);
    for (double v : {mid, std::nextafter(mid, 0.0), std::nextafter(mid, 1e300)}) {
      expectSame(v, f);
      expectSame(-v, f);
    }
  }
}

TEST_P(FloatFormatTest, RandomValuesOverflowAndSubnormals) {
  FloatFormat f = GetParam();
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> mantissa(0.5, 1.0);
  std::uniform_int_distribution<int> exponent(-160, 140);
  for (int i = 0; i < 200000; ++i) {
    double v = std::ldexp(mantissa(rng), exponent(rng));
    expectSame(v, f);
    expectSame(-v, f);
    expectSame(static_cast<double>(static_cast<float>(v)), f);
  }
  for (double v : {65504.0, 65519.99, 65520.0, 1e5, 3.4e38, 3.39e38, 1e300,
                   std::ldexp(1.0, -24), std::ldexp(1.0, -25),
                   std::ldexp(1.5, -25), std::ldexp(1.0, -133),
                   std::ldexp(1.0, -134), std::ldexp(1.0, -149), 0.0, -0.0,
                   double(INFINITY), -double(INFINITY)})
    expectSame(v, f);
  EXPECT_TRUE(std::isnan(roundToFormat(NAN, f)));
  EXPECT_TRUE(std::isnan(fromHalfBits(halfBits(NAN, f), f)));
}

INSTANTIATE_TEST_SUITE_P(Formats, FloatFormatTest,
                         ::testing::Values(FloatFormat::F16, FloatFormat::BF16),
                         [](const auto &info) {
                           return info.param == FloatFormat::F16 ? "f16"
                                                                 : "bf16";
                         });

} // namespace
