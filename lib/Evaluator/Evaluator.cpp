//===- Evaluator.cpp - CPU reference evaluator for motif IR ---------------===//
//
// The evaluator defines what a motif program computes, bit for bit in F32
// mode: maps are elementwise; a reduction combines, for every output element,
// the input elements in increasing row-major order of the reduced iteration
// dims starting from the identity; a contraction accumulates fmaf(lhs, rhs,
// acc) from 0 in increasing row-major order of the contracted dims;
// broadcast, transpose and materialize copy. Residency rewrites must keep
// these bits; docs/evaluator.md explains the order and the classes.
//
// Every motif is evaluated through ComputeOpInterface: an outer loop over the
// result iteration dims (row-major, so the result is written in order) and an
// inner loop over the reduced/contracted iteration dims. Scalar bodies are
// compiled once into a small slot program and run per element.
//
//===----------------------------------------------------------------------===//

#include "motif/Dialect/Motif/IR/TensorCore.h"
#include "motif/Evaluator/Evaluator.h"
#include "motif/Evaluator/ScalarProgram.h"
#include "OnlineContract.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

using namespace mlir;
using namespace mlir::motif;

int64_t Buffer::getNumElements() const {
  int64_t n = 1;
  for (int64_t e : shape)
    n *= e;
  return n;
}

//===----------------------------------------------------------------------===//
// Tensor evaluation
//===----------------------------------------------------------------------===//

/// Checks that `t` is a static f32 tensor; the error is located on `op`.
static LogicalResult checkTensorType(Operation *op, Type t, StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  if (!tensor || !tensor.hasStaticShape())
    return op->emitOpError()
           << what << " has type " << t
           << "; the evaluator supports static shapes only (a leading runtime "
              "row count is given a value first: motif-equiv --rows)";
  Type element = tensor.getElementType();
  if (!isTensorElementType(element))
    return op->emitOpError() << what << " has type " << t
                           << "; the evaluator supports f32, f16 and bf16 "
                              "tensors only";
  return success();
}

/// Visits every index combination of the iteration `dims` (row-major: the
/// last of `dims` varies fastest), writing each into `point`.
template <typename Fn>
static void forEachIndex(ArrayRef<int64_t> extents, ArrayRef<int64_t> dims,
                         SmallVectorImpl<int64_t> &point, Fn &&fn) {
  for (int64_t d : dims) {
    if (extents[d] == 0)
      return;
    point[d] = 0;
  }
  while (true) {
    fn();
    int k = static_cast<int>(dims.size()) - 1;
    for (; k >= 0; --k) {
      if (++point[dims[k]] < extents[dims[k]])
        break;
      point[dims[k]] = 0;
    }
    if (k < 0)
      return;
  }
}

namespace {
/// Reads a tensor operand at an iteration point.
struct OperandAccess {
  const Buffer *buffer;
  SmallVector<int64_t> dims;
  SmallVector<int64_t> strides;

  OperandAccess(const Buffer &b, ArrayRef<int64_t> iterationDims)
      : buffer(&b), dims(iterationDims), strides(iterationDims.size(), 1) {
    for (int64_t k = static_cast<int64_t>(dims.size()) - 2; k >= 0; --k)
      strides[k] = strides[k + 1] * b.shape[k + 1];
  }
  double at(ArrayRef<int64_t> point) const {
    int64_t linear = 0;
    for (auto [d, s] : llvm::zip(dims, strides))
      linear += point[d] * s;
    return buffer->data[linear];
  }
};

class FunctionEvaluator {
public:
  explicit FunctionEvaluator(NumericMode mode) : mode(mode) {}
  FailureOr<SmallVector<Buffer>> run(func::FuncOp func,
                                     ArrayRef<Buffer> inputs);

private:
  LogicalResult evalKernel(KernelOp kernel);
  LogicalResult evalCompute(ComputeOpInterface op);
  LogicalResult evalReduce(ReduceOp op, ArrayRef<OperandAccess> inputs,
                           ArrayRef<int64_t> extents,
                           ArrayRef<int64_t> resultDims,
                           ArrayRef<int64_t> reducedDims,
                           SmallVectorImpl<Buffer> &results);
  const Buffer &lookup(Value v) { return *env.lookup(v); }
  bool has(Value v) { return env.count(v); }

  NumericMode mode;
  DenseMap<Value, std::shared_ptr<const Buffer>> env;
};
} // namespace

static Buffer emptyLike(Type t) {
  Buffer b;
  b.shape = llvm::to_vector(cast<RankedTensorType>(t).getShape());
  b.data.assign(b.getNumElements(), 0.0);
  return b;
}

FailureOr<SmallVector<Buffer>>
FunctionEvaluator::run(func::FuncOp func, ArrayRef<Buffer> inputs) {
  if (func.isExternal())
    return func.emitOpError() << "has no body to evaluate";
  if (inputs.size() != func.getNumArguments())
    return func.emitOpError() << "takes " << func.getNumArguments()
                            << " arguments but the evaluator was given "
                            << inputs.size();
  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    if (failed(checkTensorType(func, arg.getType(),
                               "argument #" + std::to_string(i))))
      return failure();
    auto type = cast<RankedTensorType>(arg.getType());
    if (ArrayRef<int64_t>(inputs[i].shape) != type.getShape() ||
        static_cast<int64_t>(inputs[i].data.size()) != type.getNumElements())
      return func.emitOpError() << "argument #" << i << " has type " << type
                              << " but its input buffer has another shape";
    auto bound = std::make_shared<Buffer>(inputs[i]);
    for (double &v : bound->data)
      v = roundInput(v, mode, type.getElementType());
    env[arg] = std::move(bound);
  }
  if (!func.getBody().hasOneBlock())
    return func.emitOpError() << "has control flow; the evaluator runs "
                               "straight-line functions of motif.kernel ops";
  for (Operation &op : func.getBody().front()) {
    if (auto kernel = dyn_cast<KernelOp>(op)) {
      if (failed(evalKernel(kernel)))
        return failure();
      continue;
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<Buffer> outputs;
      for (Value v : ret.getOperands()) {
        if (failed(checkTensorType(ret, v.getType(), "a returned value")))
          return failure();
        outputs.push_back(lookup(v));
      }
      return outputs;
    }
    return op.emitOpError() << "is not supported at function level by the "
                             "motif evaluator (only motif.kernel and "
                             "func.return)";
  }
  return func.emitOpError() << "has no func.return";
}

LogicalResult FunctionEvaluator::evalKernel(KernelOp kernel) {
  for (Operation &op : kernel.getBodyBlock()) {
    if (auto mat = dyn_cast<MaterializeOp>(op)) {
      // Materialization is the identity: residency never changes a value.
      env[mat.getResult()] = env.lookup(mat.getInput());
      continue;
    }
    if (auto yield = dyn_cast<YieldOp>(op)) {
      for (auto [result, v] : llvm::zip(kernel.getResults(), yield.getValues()))
        env[result] = env.lookup(v);
      continue;
    }
    if (auto compute = dyn_cast<ComputeOpInterface>(op)) {
      if (failed(evalCompute(compute)))
        return failure();
      continue;
    }
    return op.emitOpError() << "is not supported inside motif.kernel by the "
                             "motif evaluator";
  }
  return success();
}

LogicalResult FunctionEvaluator::evalCompute(ComputeOpInterface op) {
  Operation *operation = op.getOperation();
  for (auto [i, v] : llvm::enumerate(operation->getOperands())) {
    if (failed(checkTensorType(operation, v.getType(),
                               "operand #" + std::to_string(i))))
      return failure();
    if (!has(v))
      return operation->emitOpError()
             << "operand #" << i << " has no value (not defined by an "
                                    "argument, a kernel result or a "
                                    "materialization)";
  }
  for (auto [i, v] : llvm::enumerate(operation->getResults()))
    if (failed(checkTensorType(operation, v.getType(),
                               "result #" + std::to_string(i))))
      return failure();

  SmallVector<int64_t> extents = op.getIterationExtents();
  SmallVector<int64_t> resultDims = op.getResultIterationDims();
  SmallVector<int64_t> reducedDims = op.getReductionIterationDims();
  SmallVector<OperandAccess> access;
  for (auto [i, v] : llvm::enumerate(operation->getOperands()))
    access.emplace_back(lookup(v), op.getOperandIterationDims(i));
  SmallVector<int64_t> point(extents.size(), 0);
  SmallVector<Buffer> results;
  for (Value r : operation->getResults())
    results.push_back(emptyLike(r.getType()));

  LogicalResult status = success();
  llvm::TypeSwitch<Operation *>(operation)
      .Case<MapOp>([&](MapOp map) {
        FailureOr<ScalarProgram> body =
            ScalarProgram::compile(map.getBody(), mode);
        if (failed(body)) {
          status = failure();
          return;
        }
        SmallVector<double> args(access.size());
        double out = 0.0;
        Type resultElement = map.getResult().getType().getElementType();
        int64_t linear = 0;
        forEachIndex(extents, resultDims, point, [&] {
          for (auto [k, a] : llvm::enumerate(access))
            args[k] = a.at(point);
          body->run(args, MutableArrayRef<double>(out));
          results[0].data[linear++] = roundStored(out, mode, resultElement);
        });
      })
      .Case<BroadcastOp, TransposeOp>([&](Operation *) {
        int64_t linear = 0;
        forEachIndex(extents, resultDims, point, [&] {
          results[0].data[linear++] = access[0].at(point);
        });
      })
      .Case<ContractOp>([&](ContractOp) {
        int64_t linear = 0;
        forEachIndex(extents, resultDims, point, [&] {
          double acc;
          if (mode == NumericMode::F32) {
            float facc = 0.0f;
            forEachIndex(extents, reducedDims, point, [&] {
              facc = std::fma(static_cast<float>(access[0].at(point)),
                              static_cast<float>(access[1].at(point)), facc);
            });
            acc = facc;
          } else {
            acc = 0.0;
            forEachIndex(extents, reducedDims, point, [&] {
              acc = std::fma(access[0].at(point), access[1].at(point), acc);
            });
          }
          results[0].data[linear++] = acc;
        });
      })
      .Case<OnlineContractOp>([&](OnlineContractOp oc) {
        int64_t linear = 0;
        auto at = [&](unsigned i, ArrayRef<int64_t> p) {
          return access[i].at(p);
        };
        motif::detail::OnlineContractRows<float> f32;
        motif::detail::OnlineContractRows<double> f64;
        forEachIndex(extents, resultDims, point, [&] {
          double y = mode == NumericMode::F32
                         ? static_cast<double>(
                               f32.at(oc, extents, point, at, /*roundP=*/true))
                         : f64.at(oc, extents, point, at, /*roundP=*/false);
          results[0].data[linear++] =
              roundStored(y, mode, oc.getResult().getType().getElementType());
        });
      })
      .Case<ReduceOp>([&](ReduceOp reduce) {
        status = evalReduce(reduce, access, extents, resultDims, reducedDims,
                            results);
      })
      .Default([&](Operation *other) {
        status = other->emitOpError()
                 << "is not supported by the motif evaluator";
      });
  if (failed(status))
    return failure();
  for (auto [r, b] : llvm::zip(operation->getResults(), results))
    env[r] = std::make_shared<Buffer>(std::move(b));
  return success();
}

/// One step of a built-in combiner in T.
template <typename T>
static T combine(CombinerKind kind, T acc, T x) {
  switch (kind) {
  case CombinerKind::Add:
    return acc + x;
  case CombinerKind::Mul:
    return acc * x;
  case CombinerKind::Max:
    return maximumOf(acc, x);
  case CombinerKind::Min:
    return minimumOf(acc, x);
  }
  llvm_unreachable("unknown combiner");
}

template <typename T>
static T identity(CombinerKind kind) {
  switch (kind) {
  case CombinerKind::Add:
    return T(0);
  case CombinerKind::Mul:
    return T(1);
  case CombinerKind::Max:
    return -std::numeric_limits<T>::infinity();
  case CombinerKind::Min:
    return std::numeric_limits<T>::infinity();
  }
  llvm_unreachable("unknown combiner");
}

/// Reduces with a built-in combiner entirely in T.
template <typename T>
static void reduceBuiltin(CombinerKind kind, const OperandAccess &input,
                          ArrayRef<int64_t> extents,
                          ArrayRef<int64_t> resultDims,
                          ArrayRef<int64_t> reducedDims,
                          SmallVectorImpl<int64_t> &point, Buffer &result) {
  int64_t linear = 0;
  forEachIndex(extents, resultDims, point, [&] {
    T acc = identity<T>(kind);
    forEachIndex(extents, reducedDims, point, [&] {
      acc = combine<T>(kind, acc, static_cast<T>(input.at(point)));
    });
    result.data[linear++] = static_cast<double>(acc);
  });
}

LogicalResult FunctionEvaluator::evalReduce(ReduceOp op,
                                            ArrayRef<OperandAccess> inputs,
                                            ArrayRef<int64_t> extents,
                                            ArrayRef<int64_t> resultDims,
                                            ArrayRef<int64_t> reducedDims,
                                            SmallVectorImpl<Buffer> &results) {
  SmallVector<int64_t> point(extents.size(), 0);
  if (std::optional<CombinerKind> kind = op.getKind()) {
    if (mode == NumericMode::F32)
      reduceBuiltin<float>(*kind, inputs[0], extents, resultDims, reducedDims,
                           point, results[0]);
    else
      reduceBuiltin<double>(*kind, inputs[0], extents, resultDims,
                            reducedDims, point, results[0]);
    return success();
  }

  // A general combiner: the state starts at `init`; each element is folded
  // in as combine(state..., element...).
  std::optional<ArrayAttr> initAttr = op.getInit();
  if (!initAttr)
    return op.emitOpError() << "has a combiner region but no 'init'";
  SmallVector<double> init;
  for (Attribute a : *initAttr) {
    auto f = dyn_cast<FloatAttr>(a);
    if (!f)
      return op.emitOpError() << "init value " << a
                            << " is not a float; the evaluator supports "
                               "float states only";
    init.push_back(
        roundStored(f.getValue().convertToDouble(), mode, f.getType()));
  }
  FailureOr<ScalarProgram> combiner =
      ScalarProgram::compile(op.getCombiner(), mode);
  if (failed(combiner))
    return failure();
  size_t n = inputs.size();
  if (combiner->getNumResults() != n)
    return op.emitOpError() << "combiner yields " << combiner->getNumResults()
                          << " values for " << n << " inputs";
  SmallVector<double> args(2 * n), state(n);
  int64_t linear = 0;
  forEachIndex(extents, resultDims, point, [&] {
    state.assign(init.begin(), init.end());
    forEachIndex(extents, reducedDims, point, [&] {
      for (size_t k = 0; k < n; ++k) {
        args[k] = state[k];
        args[n + k] = inputs[k].at(point);
      }
      combiner->run(args, state);
    });
    for (size_t k = 0; k < n; ++k)
      results[k].data[linear] = roundStored(
          state[k], mode, getElementTypeOrSelf(op.getResult(k).getType()));
    ++linear;
  });
  return success();
}

FailureOr<SmallVector<Buffer>> mlir::motif::evaluate(func::FuncOp func,
                                                     ArrayRef<Buffer> inputs,
                                                     NumericMode mode) {
  FunctionEvaluator evaluator(mode);
  return evaluator.run(func, inputs);
}

LogicalResult mlir::motif::checkEvaluationSize(func::FuncOp func,
                                              int64_t limit) {
  int64_t total = 0;
  auto count = [&](Value v, Operation *at) -> LogicalResult {
    auto t = dyn_cast<RankedTensorType>(v.getType());
    if (!t || !t.hasStaticShape())
      return success();
    int64_t n = 1;
    bool overflow = false;
    for (int64_t e : t.getShape())
      overflow |= llvm::MulOverflow(n, e, n);
    if (overflow || llvm::AddOverflow(total, n, total) || total > limit)
      return at->emitOpError()
             << "needs more than " << limit
             << " tensor elements in all to evaluate (the evaluator's memory "
                "bound); evaluate a smaller shape";
    return success();
  };
  for (BlockArgument arg : func.getArguments())
    if (failed(count(arg, func)))
      return failure();
  WalkResult r = func.walk([&](Operation *op) {
    if (isa<func::FuncOp>(op))
      return WalkResult::advance();
    for (Value v : op->getResults())
      if (failed(count(v, op)))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(r.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Random inputs
//===----------------------------------------------------------------------===//

uint64_t mlir::motif::freshSeed() {
  std::random_device device;
  return (static_cast<uint64_t>(device()) << 32) ^ device();
}

FailureOr<SmallVector<Buffer>>
mlir::motif::makeRandomInputs(func::FuncOp func, std::mt19937_64 &rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  SmallVector<Buffer> inputs;
  for (auto [i, t] : llvm::enumerate(func.getArgumentTypes())) {
    if (failed(checkTensorType(func, t, "argument #" + std::to_string(i))))
      return failure();
    Buffer b = emptyLike(t);
    FloatFormat format =
        floatFormatOf(cast<RankedTensorType>(t).getElementType());
    for (double &v : b.data) {
      // Never zero: a zero input hides a wrong operand in a product. A half
      // input is a value of its format.
      do {
        v = roundToFormat(static_cast<float>(normal(rng)), format);
      } while (v == 0.0);
    }
    inputs.push_back(std::move(b));
  }
  return inputs;
}

//===----------------------------------------------------------------------===//
// Comparison
//===----------------------------------------------------------------------===//

/// Maps float bits onto a line where adjacent floats differ by one.
static int64_t orderedBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  if (bits & 0x80000000u)
    return -static_cast<int64_t>(bits & 0x7fffffffu);
  return static_cast<int64_t>(bits);
}

/// Units in the last place of `format` between two values of it.
static uint64_t ulpDistance(double u, double v, FloatFormat format) {
  if (format == FloatFormat::F16 || format == FloatFormat::BF16) {
    auto ordered = [&](double x) {
      uint16_t bits = halfBits(x, format);
      return (bits & 0x8000) ? -static_cast<int64_t>(bits & 0x7fff)
                             : static_cast<int64_t>(bits);
    };
    return static_cast<uint64_t>(std::llabs(ordered(u) - ordered(v)));
  }
  return static_cast<uint64_t>(std::llabs(
      orderedBits(static_cast<float>(u)) - orderedBits(static_cast<float>(v))));
}

static uint32_t floatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  return bits;
}

/// max|x - ref| / max|ref| (the absolute error when ref is all zero); NaN
/// when x has a NaN or an infinity that ref does not.
static double relativeError(const Buffer &x, const Buffer &ref) {
  double maxDiff = 0.0, maxRef = 0.0;
  for (auto [v, r] : llvm::zip(x.data, ref.data)) {
    double diff = std::fabs(v - r);
    if (std::isnan(diff)) {
      if (std::isnan(v) && std::isnan(r))
        continue;
      if (std::isinf(v) && v == r)
        continue;
      return std::numeric_limits<double>::quiet_NaN();
    }
    maxDiff = std::max(maxDiff, diff);
    maxRef = std::max(maxRef, std::fabs(r));
  }
  return maxRef == 0.0 ? maxDiff : maxDiff / maxRef;
}

static std::string typeString(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

static double maxNanAware(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<double>::quiet_NaN();
  return std::max(a, b);
}

FailureOr<FunctionComparison>
mlir::motif::compareFunctions(func::FuncOp a, func::FuncOp b,
                              const CompareOptions &options) {
  if (a.getFunctionType() != b.getFunctionType()) {
    InFlightDiagnostic diag =
        b.emitError() << "signature of @" << b.getName() << " "
                      << b.getFunctionType() << " differs from "
                      << a.getFunctionType()
                      << ": equivalent functions take and return the same "
                         "types";
    diag.attachNote(a.getLoc()) << "compared against this function";
    return diag;
  }
  // A tensor-core contraction sums each 16-wide step of k the instruction's
  // way, which the evaluator does not model bit for bit: such a program is
  // never claimed bitwise (docs/evaluator.md, "Tensor cores").
  if (options.equivalence == Equivalence::Bitwise)
    for (func::FuncOp f : {a, b}) {
      ContractOp mma;
      f.walk([&](ContractOp c) {
        if (!mma && runsOnTensorCores(c))
          mma = c;
      });
      if (mma) {
        MmaShape shape = *mma.getMma();
        return mma.emitError()
               << "runs on tensor cores (mma " << stringifyMmaShape(shape)
               << "): its sum over each " << mmaShapeK(shape)
               << "-wide step of k is the instruction's, whose rounding "
                  "the evaluator does not model, so @"
               << f.getName()
               << " is compared under --class=tolerance at most, never "
                  "bitwise";
      }
    }
  FunctionComparison cmp;
  cmp.name = a.getName().str();
  cmp.equivalence = options.equivalence;
  cmp.seed = options.seed ? *options.seed : freshSeed();
  cmp.trials = options.trials;
  switch (options.equivalence) {
  case Equivalence::Tolerance:
    cmp.bound = options.rtol;
    // tf32 rounds every operand to 10 significand bits: with no bound
    // stated, the one its products can meet.
    if (!options.rtolStated && cmp.bound < kTf32Rtol)
      for (func::FuncOp f : {a, b}) {
        bool tf32 = false;
        f.walk([&](ContractOp c) {
          tf32 |= c.getMma() == MmaShape::M16N8K8;
        });
        if (tf32) {
          cmp.bound = kTf32Rtol;
          cmp.boundReason = "2^-10: @" + f.getName().str() +
                            " multiplies on tf32 (mma m16n8k8); --rtol "
                            "states another bound";
          break;
        }
      }
    break;
  case Equivalence::Mathematical:
    cmp.bound = options.mathematicalRtol;
    break;
  default:
    cmp.bound = 0.0;
    break;
  }
  for (auto [i, t] : llvm::enumerate(a.getResultTypes())) {
    OutputComparison out;
    out.index = i;
    out.type = typeString(t);
    out.format = floatFormatOf(getElementTypeOrSelf(t));
    out.bound = options.equivalence == Equivalence::Mathematical
                    ? mathematicalBoundOf(out.format, cmp.bound)
                    : cmp.bound;
    cmp.outputs.push_back(out);
  }

  cmp.model = options.model;
  if (failed(checkEvaluationSize(a)) || failed(checkEvaluationSize(b)))
    return failure();
  std::mt19937_64 rng(cmp.seed);
  for (unsigned trial = 0; trial < options.trials; ++trial) {
    FailureOr<SmallVector<Buffer>> inputs = makeRandomInputs(a, rng);
    if (failed(inputs))
      return failure();
    SmallVector<int64_t> unwrittenA, unwrittenB;
    auto run = [&](func::FuncOp f, SmallVector<int64_t> &unwritten) {
      if (options.model == EvaluationModel::Schedule)
        return evaluateSchedule(f, *inputs, NumericMode::F32, &unwritten,
                                options.scheduleWorkLimit);
      return evaluate(f, *inputs, NumericMode::F32);
    };
    FailureOr<SmallVector<Buffer>> ra = run(a, unwrittenA);
    if (failed(ra))
      return failure();
    FailureOr<SmallVector<Buffer>> rb = run(b, unwrittenB);
    if (failed(rb))
      return failure();
    for (OutputComparison &out : cmp.outputs) {
      if (out.index < unwrittenA.size())
        out.unwrittenA += unwrittenA[out.index];
      if (out.index < unwrittenB.size())
        out.unwrittenB += unwrittenB[out.index];
    }
    FailureOr<SmallVector<Buffer>> ref =
        evaluate(a, *inputs, NumericMode::F64);
    if (failed(ref))
      return failure();
    for (OutputComparison &out : cmp.outputs) {
      const Buffer &x = (*ra)[out.index], &y = (*rb)[out.index];
      for (auto [u, v] : llvm::zip(x.data, y.data)) {
        float fu = static_cast<float>(u), fv = static_cast<float>(v);
        if (floatBits(fu) == floatBits(fv))
          continue;
        out.bitwiseEqual = false;
        ++out.differingElements;
        uint64_t ulp =
            (std::isnan(fu) || std::isnan(fv))
                ? std::numeric_limits<uint32_t>::max()
                : ulpDistance(u, v, out.format);
        out.maxUlp = std::max(out.maxUlp, ulp);
      }
      for (double r : (*ref)[out.index].data)
        if (std::isfinite(r))
          out.refMax = std::max(out.refMax, std::fabs(r));
      out.relErrA = maxNanAware(out.relErrA,
                                relativeError(x, (*ref)[out.index]));
      out.relErrB = maxNanAware(out.relErrB,
                                relativeError(y, (*ref)[out.index]));
    }
  }

  cmp.pass = true;
  for (OutputComparison &out : cmp.outputs) {
    switch (options.equivalence) {
    case Equivalence::Bitwise:
      out.pass = out.bitwiseEqual;
      break;
    case Equivalence::Tolerance:
    case Equivalence::Mathematical:
      // Written so that a NaN error fails.
      out.pass = out.relErrA <= out.bound && out.relErrB <= out.bound;
      break;
    case Equivalence::Semantic:
      out.pass = true;
      break;
    }
    // An element no thread stored is never a valid result.
    out.pass &= out.unwrittenA == 0 && out.unwrittenB == 0;
    cmp.pass &= out.pass;
  }
  return cmp;
}

double mlir::motif::mathematicalBoundOf(FloatFormat format, double rtol) {
  switch (format) {
  case FloatFormat::F16:
    return std::max(rtol, 4.0 * std::ldexp(1.0, -11));
  case FloatFormat::BF16:
    return std::max(rtol, 4.0 * std::ldexp(1.0, -8));
  default:
    return rtol;
  }
}

static std::string sci(double v) {
  if (std::isnan(v))
    return "nan";
  std::string s;
  llvm::raw_string_ostream(s) << llvm::format("%.2e", v);
  return s;
}

void mlir::motif::printComparison(raw_ostream &os,
                                  const FunctionComparison &cmp) {
  os << "@" << cmp.name << ": class " << stringifyEquivalence(cmp.equivalence)
     << ", " << cmp.trials << " trials, seed " << cmp.seed << ", model "
     << (cmp.model == EvaluationModel::Schedule ? "schedule" : "sequential")
     << "\n";
  os << llvm::format("  %-7s %-24s %-13s %-8s %-10s %-10s %-10s %-10s %s\n",
                     "output", "type", "class", "bitwise", "differing",
                     "max-ulp", "rel-err-A", "rel-err-B", "verdict");
  for (const OutputComparison &out : cmp.outputs) {
    std::string ulp = out.maxUlp == std::numeric_limits<uint32_t>::max()
                          ? "nan"
                          : std::to_string(out.maxUlp);
    os << llvm::format(
        "  %-7s %-24s %-13s %-8s %-10lld %-10s %-10s %-10s %s\n",
        ("#" + std::to_string(out.index)).c_str(), out.type.c_str(),
        stringifyEquivalence(cmp.equivalence).str().c_str(),
        out.bitwiseEqual ? "yes" : "no",
        static_cast<long long>(out.differingElements), ulp.c_str(),
        sci(out.relErrA).c_str(), sci(out.relErrB).c_str(),
        out.pass ? "PASS" : "FAIL");
  }
  for (const OutputComparison &out : cmp.outputs)
    if (out.unwrittenA || out.unwrittenB)
      os << "  #" << out.index << ": " << out.unwrittenA << " (A) and "
         << out.unwrittenB
         << " (B) elements were never stored by any thread\n";
  os << "@" << cmp.name << ": " << (cmp.pass ? "PASS" : "FAIL");
  switch (cmp.equivalence) {
  case Equivalence::Bitwise:
    os << " (bitwise: every output bit-identical)";
    break;
  case Equivalence::Tolerance:
  case Equivalence::Mathematical:
    os << " (" << stringifyEquivalence(cmp.equivalence) << ": rel err <= "
       << sci(cmp.bound);
    for (const OutputComparison &out : cmp.outputs)
      if (out.bound != cmp.bound)
        os << ", #" << out.index << " " << sci(out.bound) << " ("
           << out.type << ")";
    os << " against the f64 reference";
    if (!cmp.boundReason.empty())
      os << "; " << cmp.boundReason;
    os << ")";
    break;
  case Equivalence::Semantic:
    os << " (semantic: signatures match; numerics not checked)";
    break;
  }
  os << "\n";
}

//===----------------------------------------------------------------------===//
// A quick run on the CPU
//===----------------------------------------------------------------------===//

FailureOr<RunReport>
mlir::motif::runOnRandomInputs(func::FuncOp func,
                               std::optional<uint64_t> seed,
                               EvaluationModel model) {
  uint64_t s = seed ? *seed : freshSeed();
  if (failed(checkEvaluationSize(func)))
    return failure();
  std::mt19937_64 rng(s);
  FailureOr<SmallVector<Buffer>> inputs = makeRandomInputs(func, rng);
  if (failed(inputs))
    return failure();
  FailureOr<RunReport> report = runOnInputs(func, *inputs, model);
  if (succeeded(report)) {
    report->seed = s;
    report->inputsGiven = false;
  }
  return report;
}

FailureOr<RunReport> mlir::motif::runOnInputs(func::FuncOp func,
                                              ArrayRef<Buffer> inputs,
                                              EvaluationModel model,
                                              SmallVectorImpl<Buffer> *f32Out,
                                              SmallVectorImpl<Buffer> *f64Out) {
  RunReport report;
  report.name = func.getName().str();
  if (failed(checkEvaluationSize(func)))
    return failure();
  report.model = model;
  SmallVector<int64_t> unwritten;
  FailureOr<SmallVector<Buffer>> f32 =
      model == EvaluationModel::Schedule
          ? evaluateSchedule(func, inputs, NumericMode::F32, &unwritten)
          : evaluate(func, inputs, NumericMode::F32);
  if (failed(f32))
    return failure();
  FailureOr<SmallVector<Buffer>> f64 = evaluate(func, inputs, NumericMode::F64);
  if (failed(f64))
    return failure();
  for (auto [i, t] : llvm::enumerate(func.getResultTypes())) {
    RunOutput out;
    out.index = i;
    out.type = typeString(t);
    const Buffer &x = (*f32)[i];
    for (double v : x.data) {
      out.sum += v;
      out.absSum += std::fabs(v);
    }
    for (size_t k = 0; k < std::min<size_t>(4, x.data.size()); ++k)
      out.firstValues.push_back(x.data[k]);
    out.relErr = relativeError(x, (*f64)[i]);
    if (i < unwritten.size())
      out.unwritten = unwritten[i];
    report.outputs.push_back(std::move(out));
  }
  if (f32Out)
    f32Out->assign(f32->begin(), f32->end());
  if (f64Out)
    f64Out->assign(f64->begin(), f64->end());
  return report;
}

void mlir::motif::printRunReport(raw_ostream &os, const RunReport &report) {
  os << "@" << report.name << ": ";
  if (report.inputsGiven)
    os << "inputs given";
  else
    os << "seed " << report.seed;
  os << ", model "
     << (report.model == EvaluationModel::Schedule ? "schedule" : "sequential")
     << "\n";
  for (const RunOutput &out : report.outputs) {
    os << "  #" << out.index << " " << out.type
       << llvm::format(" sum %.7e abs-sum %.7e first [", out.sum, out.absSum);
    llvm::interleave(
        out.firstValues, os,
        [&](double v) { os << llvm::format("%.7e", v); }, ", ");
    os << "] rel-err f32 vs f64 " << sci(out.relErr);
    if (out.unwritten)
      os << " (" << out.unwritten << " elements never stored)";
    os << "\n";
  }
}
