//===- CombinerLaws.cpp - sampled laws of a general combiner --------------===//
#include "motif/Evaluator/CombinerLaws.h"
#include "motif/Evaluator/ScalarProgram.h"
#include "motif/Support/ThreadDiagnostics.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <random>

using namespace mlir;
using namespace mlir::motif;

bool mlir::motif::combinesInATree(ReduceOp op) {
  auto iface = cast<ComputeOpInterface>(op.getOperation());
  for (int64_t d : iface.getReductionIterationDims()) {
    Level l = iface.getLevel(d);
    if (l == Level::Thread || l == Level::Warp || l == Level::Lane)
      return true;
  }
  return false;
}

namespace {
using State = SmallVector<double, 4>;

/// Whether two states agree up to rounding; non-finite samples say nothing.
std::optional<bool> close(const State &a, const State &b) {
  for (auto [x, y] : llvm::zip(a, b)) {
    if (!std::isfinite(x) || !std::isfinite(y)) {
      if (x == y || (std::isnan(x) && std::isnan(y)))
        continue;
      return std::nullopt;
    }
    double scale = std::max({std::fabs(x), std::fabs(y), 1e-30});
    if (std::fabs(x - y) > 1e-9 * scale + 1e-300)
      return false;
  }
  return true;
}

std::string show(const State &s) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "(";
  llvm::interleaveComma(s, os, [&](double v) { os << llvm::format("%.6g", v); });
  os << ")";
  return out;
}
} // namespace

std::optional<std::string> mlir::motif::checkCombinerLaws(ReduceOp op) {
  if (op.getKind() || op.getCombiner().empty() || !op.getInit())
    return std::nullopt;
  // The region cannot run (an op the evaluator refuses): the verifier's op
  // table reports that; the laws are then not checked here.
  FailureOr<ScalarProgram> program = [&]() -> FailureOr<ScalarProgram> {
    ThreadDiagnosticHandler quiet(op.getContext());
    return ScalarProgram::compile(op.getCombiner(), NumericMode::F64);
  }();
  if (failed(program))
    return std::nullopt;
  size_t n = op.getInputs().size();
  State init;
  ArrayAttr initAttr = *op.getInit();
  for (Attribute a : initAttr) {
    auto f = dyn_cast<FloatAttr>(a);
    if (!f)
      return std::nullopt;
    init.push_back(f.getValue().convertToDouble());
  }
  auto combine = [&](const State &a, const State &b) {
    State args(a);
    args.append(b.begin(), b.end());
    State out(n);
    program->run(args, out);
    return out;
  };
  std::mt19937_64 rng(0x6d6f74696675ull);
  std::normal_distribution<double> normal(0.0, 1.0);
  // A state reachable by folding one to three elements from init.
  auto sample = [&]() {
    State s = init;
    for (int k = 0, e = 1 + rng() % 3; k < e; ++k) {
      State x(n);
      for (double &v : x)
        v = normal(rng);
      s = combine(s, x);
    }
    return s;
  };
  for (int trial = 0; trial < 16; ++trial) {
    State a = sample(), b = sample(), c = sample();
    State ab = combine(a, b), ba = combine(b, a);
    if (close(ab, ba) == false)
      return "is not commutative: combine(a, b) = " + show(ab) +
             " but combine(b, a) = " + show(ba) + " for a = " + show(a) +
             ", b = " + show(b);
    State left = combine(ab, c), right = combine(a, combine(b, c));
    if (close(left, right) == false)
      return "is not associative: combine(combine(a, b), c) = " + show(left) +
             " but combine(a, combine(b, c)) = " + show(right) +
             " for a = " + show(a) + ", b = " + show(b) + ", c = " + show(c);
    State ia = combine(init, a);
    if (close(ia, a) == false)
      return "does not have 'init' as its identity: combine(init, a) = " +
             show(ia) + " for a = " + show(a);
  }
  return std::nullopt;
}
