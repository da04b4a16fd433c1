//===- ScalarProgram.cpp - the scalar interpreter of motif bodies ---------===//
#include "motif/Evaluator/ScalarProgram.h"

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::detail;

//===----------------------------------------------------------------------===//
// Scalar arithmetic in a chosen precision
//===----------------------------------------------------------------------===//


/// One arithmetic step computed entirely in T (float or double).
template <typename T>
static T applyScalar(ScalarKind kind, T a, T b, T c) {
  switch (kind) {
  case ScalarKind::Add:
    return a + b;
  case ScalarKind::Sub:
    return a - b;
  case ScalarKind::Mul:
    return a * b;
  case ScalarKind::Div:
    return a / b;
  case ScalarKind::Neg:
    return -a;
  case ScalarKind::Maximum:
    return maximumOf(a, b);
  case ScalarKind::Minimum:
    return minimumOf(a, b);
  case ScalarKind::MaxNum:
    return std::fmax(a, b);
  case ScalarKind::MinNum:
    return std::fmin(a, b);
  case ScalarKind::Exp:
    return std::exp(a);
  case ScalarKind::Log:
    return std::log(a);
  case ScalarKind::Sqrt:
    return std::sqrt(a);
  case ScalarKind::Rsqrt:
    return T(1) / std::sqrt(a);
  case ScalarKind::Tanh:
    return std::tanh(a);
  case ScalarKind::Erf:
    return std::erf(a);
  case ScalarKind::Abs:
    return std::fabs(a);
  case ScalarKind::Fma:
    return std::fma(a, b, c);
  case ScalarKind::Pow:
    return std::pow(a, b);
  case ScalarKind::Convert:
  case ScalarKind::Constant:
    return a;
  case ScalarKind::Cmp:
  case ScalarKind::Select:
    break;
  }
  llvm_unreachable("not an arithmetic kind");
}

static bool compare(arith::CmpFPredicate p, double a, double b) {
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

/// Whether a value of type `t` is computed and stored in float.
static bool isNarrow(Type t, NumericMode mode) {
  return mode == NumericMode::F32 && t.isF32();
}

//===----------------------------------------------------------------------===//
// Scalar bodies: compiled once into a slot program, run per element
//===----------------------------------------------------------------------===//



static LogicalResult checkScalarType(Operation *op, Type t) {
  if (t.isF32() || t.isF64() || isa<IntegerType, IndexType>(t))
    return success();
  return op->emitOpError() << "the evaluator supports f32, f64 and integer "
                            "scalars only, got "
                         << t;
}

static std::optional<ScalarKind> classify(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<ScalarKind>>(op)
      .Case<arith::AddFOp>([](auto) { return ScalarKind::Add; })
      .Case<arith::SubFOp>([](auto) { return ScalarKind::Sub; })
      .Case<arith::MulFOp>([](auto) { return ScalarKind::Mul; })
      .Case<arith::DivFOp>([](auto) { return ScalarKind::Div; })
      .Case<arith::NegFOp>([](auto) { return ScalarKind::Neg; })
      .Case<arith::MaximumFOp>([](auto) { return ScalarKind::Maximum; })
      .Case<arith::MinimumFOp>([](auto) { return ScalarKind::Minimum; })
      .Case<arith::MaxNumFOp>([](auto) { return ScalarKind::MaxNum; })
      .Case<arith::MinNumFOp>([](auto) { return ScalarKind::MinNum; })
      .Case<arith::CmpFOp>([](auto) { return ScalarKind::Cmp; })
      .Case<arith::SelectOp>([](auto) { return ScalarKind::Select; })
      .Case<arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp, arith::UIToFPOp>(
          [](auto) { return ScalarKind::Convert; })
      .Case<math::ExpOp>([](auto) { return ScalarKind::Exp; })
      .Case<math::LogOp>([](auto) { return ScalarKind::Log; })
      .Case<math::SqrtOp>([](auto) { return ScalarKind::Sqrt; })
      .Case<math::RsqrtOp>([](auto) { return ScalarKind::Rsqrt; })
      .Case<math::TanhOp>([](auto) { return ScalarKind::Tanh; })
      .Case<math::ErfOp>([](auto) { return ScalarKind::Erf; })
      .Case<math::AbsFOp>([](auto) { return ScalarKind::Abs; })
      .Case<math::FmaOp>([](auto) { return ScalarKind::Fma; })
      .Case<math::PowFOp>([](auto) { return ScalarKind::Pow; })
      .Default([](Operation *) { return std::nullopt; });
}

FailureOr<ScalarProgram> ScalarProgram::compile(Region &region,
                                                NumericMode mode) {
  ScalarProgram program;
  Block &block = region.front();
  DenseMap<Value, unsigned> slotOf;
  unsigned numSlots = 0;
  for (BlockArgument arg : block.getArguments()) {
    if (failed(checkScalarType(region.getParentOp(), arg.getType())))
      return failure();
    slotOf[arg] = numSlots++;
  }
  program.numArgs = numSlots;

  for (Operation &op : block) {
    SmallVector<unsigned, 3> operands;
    for (Value v : op.getOperands()) {
      auto it = slotOf.find(v);
      if (it == slotOf.end())
        return op.emitOpError()
               << "uses a value defined outside its motif body; the "
                  "evaluator runs self-contained scalar bodies only";
      operands.push_back(it->second);
    }
    if (auto yield = dyn_cast<YieldOp>(op)) {
      program.yields.assign(operands.begin(), operands.end());
      continue;
    }
    if (op.getNumResults() != 1 || op.getNumRegions() != 0)
      return op.emitOpError() << "is not supported by the motif evaluator";
    Type resultType = op.getResult(0).getType();
    if (failed(checkScalarType(&op, resultType)))
      return failure();
    for (Value v : op.getOperands())
      if (failed(checkScalarType(&op, v.getType())))
        return failure();

    ScalarInst inst;
    inst.operands = operands;
    inst.result = numSlots;
    inst.narrow = isNarrow(resultType, mode);
    if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
      inst.kind = ScalarKind::Constant;
      if (auto f = dyn_cast<FloatAttr>(cst.getValue())) {
        inst.constant = f.getValue().convertToDouble();
      } else if (auto i = dyn_cast<IntegerAttr>(cst.getValue())) {
        const APInt &v = i.getValue();
        inst.constant = v.getBitWidth() == 1
                            ? static_cast<double>(v.getZExtValue())
                            : static_cast<double>(v.getSExtValue());
      } else {
        return op.emitOpError() << "constant " << cst.getValue()
                              << " is not supported by the motif evaluator "
                                 "(scalar float or integer constants only)";
      }
    } else if (std::optional<ScalarKind> kind = classify(&op)) {
      inst.kind = *kind;
      if (auto cmp = dyn_cast<arith::CmpFOp>(op))
        inst.predicate = cmp.getPredicate();
    } else {
      return op.emitOpError() << "is not supported by the motif evaluator";
    }
    program.insts.push_back(std::move(inst));
    slotOf[op.getResult(0)] = numSlots++;
  }
  program.slots.assign(numSlots, 0.0);
  return program;
}

void ScalarProgram::run(ArrayRef<double> args, MutableArrayRef<double> results) {
  std::copy(args.begin(), args.end(), slots.begin());
  for (const ScalarInst &inst : insts) {
    auto operand = [&](unsigned i) {
      return i < inst.operands.size() ? slots[inst.operands[i]] : 0.0;
    };
    double a = operand(0), b = operand(1), c = operand(2);
    double r;
    switch (inst.kind) {
    case ScalarKind::Cmp:
      r = compare(inst.predicate, a, b) ? 1.0 : 0.0;
      break;
    case ScalarKind::Select:
      r = a != 0.0 ? b : c;
      break;
    case ScalarKind::Constant:
      r = inst.narrow ? static_cast<float>(inst.constant) : inst.constant;
      break;
    default:
      if (inst.narrow)
        r = applyScalar<float>(inst.kind, static_cast<float>(a),
                               static_cast<float>(b), static_cast<float>(c));
      else
        r = applyScalar<double>(inst.kind, a, b, c);
      break;
    }
    slots[inst.result] = r;
  }
  for (auto [i, s] : llvm::enumerate(yields))
    results[i] = slots[s];
}

