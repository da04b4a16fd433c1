//===- Evaluator.h - CPU reference evaluator for motif IR -------*- C++ -*-===//
//
// Runs a func.func of motif kernels on host buffers in a defined order, in
// float (bit-exact reference for residency rewrites) or in double (a float64
// reference), and compares two functions under a declared equivalence class.
// docs/evaluator.md defines the evaluation order.
//
//===----------------------------------------------------------------------===//

#ifndef MOTIF_EVALUATOR_EVALUATOR_H
#define MOTIF_EVALUATOR_EVALUATOR_H

#include "motif/Dialect/Motif/IR/MotifOps.h"
#include "motif/Evaluator/ScalarProgram.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace mlir::motif {

/// A dense row-major host tensor. Elements are stored as double; in F32 mode
/// every stored value is exactly representable in float.
struct Buffer {
  SmallVector<int64_t> shape;
  std::vector<double> data;

  /// The product of the extents (1 for a rank-0 tensor).
  int64_t getNumElements() const;
};

/// Evaluates `func` on `inputs` (one buffer per argument, shapes matching the
/// argument types). Fails with a diagnostic located on the offending op for
/// anything the evaluator does not support (dynamic shapes, non-f32 tensors,
/// unknown scalar ops, ops outside motif.kernel).
FailureOr<SmallVector<Buffer>> evaluate(func::FuncOp func,
                                        ArrayRef<Buffer> inputs,
                                        NumericMode mode);

/// Which meaning of a program the evaluator executes.
enum class EvaluationModel {
  /// Materializations are the identity and every reduction folds its
  /// elements in increasing order: what the program means, whatever its
  /// mapping (the float64 reference is always this).
  Sequential,
  /// The mapping executed thread by thread (the schedule model): register
  /// slots per thread, shared buffers per block, global memory between
  /// kernels, and the GPU's reduction tree. What the compiled kernel computes.
  Schedule,
};

/// The most thread-instance steps the schedule-faithful model simulates.
constexpr int64_t kDefaultScheduleWorkLimit = int64_t(1) << 31;
/// The most tensor elements (all values of a function together) either
/// model holds.
constexpr int64_t kDefaultEvaluatorElementLimit = int64_t(1) << 27;

/// Evaluates `func` under the schedule-faithful model. `unwritten`, when
/// given, receives per result the number of elements no thread stored.
FailureOr<SmallVector<Buffer>>
evaluateSchedule(func::FuncOp func, ArrayRef<Buffer> inputs, NumericMode mode,
                 SmallVectorImpl<int64_t> *unwritten = nullptr,
                 int64_t workLimit = kDefaultScheduleWorkLimit);

/// Fails (located, on the value that passes the limit) when the tensors of
/// `func` hold more than `limit` elements together.
LogicalResult checkEvaluationSize(func::FuncOp func,
                                  int64_t limit = kDefaultEvaluatorElementLimit);

/// Fresh inputs for `func`: one normal(0, 1) buffer per argument, never zero.
/// Fails (located) when an argument is not a static f32 tensor.
FailureOr<SmallVector<Buffer>> makeRandomInputs(func::FuncOp func,
                                                std::mt19937_64 &rng);

/// A seed from std::random_device, for runs that are not given one.
uint64_t freshSeed();

//===----------------------------------------------------------------------===//
// Equivalence checking
//===----------------------------------------------------------------------===//

/// What compareFunctions checks and how strictly.
struct CompareOptions {
  Equivalence equivalence = Equivalence::Bitwise;
  unsigned trials = 3;
  /// Seed for the input generator; a fresh one from std::random_device when
  /// absent. The seed used is reported so a failure reproduces.
  std::optional<uint64_t> seed;
  /// Relative error bound of the `tolerance` class.
  double rtol = 1e-5;
  /// `rtol` was stated (motif-equiv --rtol). Unstated, a function with a tf32
  /// contraction (`mma m16n8k8`) is held to at least kTf32Rtol instead.
  bool rtolStated = false;
  /// Relative error bound of the `mathematical` class (an f32 output; a
  /// half output takes the larger of this and 4 units of roundoff of its
  /// format, mathematicalBoundOf).
  double mathematicalRtol = 1e-3;
  /// How A and B are run (the f64 reference is always sequential).
  EvaluationModel model = EvaluationModel::Schedule;
  /// The most thread-instance steps the schedule model may take per run.
  int64_t scheduleWorkLimit = kDefaultScheduleWorkLimit;
};

/// The `tolerance` bound a tf32 contraction (`mma m16n8k8`) is held to when
/// no bound is stated: 2^-10, one rounding of each operand to tf32's 10
/// significand bits (docs/dialect.md, "tf32").
constexpr double kTf32Rtol = 1.0 / 1024;

/// The `mathematical` bound of an output of `format`: `rtol`, or for f16
/// and bf16 at least 4 units of roundoff (4 * 2^-11, 4 * 2^-8): the output
/// is rounded once to its format, and a half operand that a reordered
/// program rounds at another point (P of the flash form before P.V, not
/// after the division) carries one more rounding, amplified where the sum
/// cancels.
double mathematicalBoundOf(FloatFormat format, double rtol);

/// One output of the compared functions, aggregated over every trial.
struct OutputComparison {
  unsigned index = 0;
  std::string type;
  /// Every element of every trial has identical f32 bits in A and B.
  bool bitwiseEqual = true;
  /// Elements whose bits differ, summed over trials.
  int64_t differingElements = 0;
  /// Largest distance in units in the last place of the output's element
  /// type (f32, f16 or bf16) between A and B.
  uint64_t maxUlp = 0;
  /// The output's element format.
  FloatFormat format = FloatFormat::F32;
  /// max|x - ref| / max|ref| of A's and B's f32 results against A's f64
  /// result, the largest over trials.
  double relErrA = 0.0;
  double relErrB = 0.0;
  /// max|ref| over the trials (the scale the relative errors divide by).
  double refMax = 0.0;
  /// The relative error bound of this output (tolerance, mathematical): the
  /// function's, widened for a half output under `mathematical`.
  double bound = 0.0;
  /// Elements of A's and B's result no thread stored (schedule model),
  /// summed over trials: any fails every class.
  int64_t unwrittenA = 0;
  int64_t unwrittenB = 0;
  bool pass = false;
};

/// The outcome of comparing one pair of functions.
struct FunctionComparison {
  std::string name;
  Equivalence equivalence = Equivalence::Bitwise;
  uint64_t seed = 0;
  unsigned trials = 0;
  EvaluationModel model = EvaluationModel::Schedule;
  /// The relative error bound the verdict used (0 for bitwise and semantic).
  double bound = 0.0;
  /// Why the bound is not the one asked for (empty when it is): e.g. the
  /// tf32 bound of an unstated --rtol.
  std::string boundReason;
  SmallVector<OutputComparison> outputs;
  /// Every output passes.
  bool pass = false;
};

/// Runs `a` and `b` (same signature) on `options.trials` fresh random inputs
/// in F32 mode, and `a` in F64 mode as the reference, and judges the outputs
/// by `options.equivalence`. Fails with a located diagnostic when the
/// signatures differ or either function cannot be evaluated.
FailureOr<FunctionComparison> compareFunctions(func::FuncOp a, func::FuncOp b,
                                               const CompareOptions &options);

/// Prints the comparison as a table (one row per output) and a verdict line.
void printComparison(raw_ostream &os, const FunctionComparison &cmp);

//===----------------------------------------------------------------------===//
// A quick run on the CPU
//===----------------------------------------------------------------------===//

/// One output of a run on random inputs.
struct RunOutput {
  unsigned index = 0;
  std::string type;
  /// Sum of the f32 results (accumulated in double) and of their magnitudes.
  double sum = 0.0;
  double absSum = 0.0;
  /// The first few f32 results in row-major order.
  SmallVector<double> firstValues;
  /// max|f32 - f64| / max|f64|.
  double relErr = 0.0;
  /// Elements no thread stored (schedule model).
  int64_t unwritten = 0;
};

struct RunReport {
  std::string name;
  uint64_t seed = 0;
  /// The inputs came from the caller (no seed).
  bool inputsGiven = true;
  EvaluationModel model = EvaluationModel::Schedule;
  SmallVector<RunOutput> outputs;
};

/// Evaluates `func` once on fresh random inputs in F32 and F64 mode.
/// The f32 run uses `model`; the f64 reference is sequential.
FailureOr<RunReport>
runOnRandomInputs(func::FuncOp func, std::optional<uint64_t> seed,
                  EvaluationModel model = EvaluationModel::Schedule);

/// Evaluates `func` on the given inputs (the f32 run under `model`, the f64
/// reference sequential); the results go to `f32Out` / `f64Out` when given.
FailureOr<RunReport> runOnInputs(func::FuncOp func, ArrayRef<Buffer> inputs,
                                 EvaluationModel model,
                                 SmallVectorImpl<Buffer> *f32Out = nullptr,
                                 SmallVectorImpl<Buffer> *f64Out = nullptr);

void printRunReport(raw_ostream &os, const RunReport &report);

//===----------------------------------------------------------------------===//
// NumPy files
//===----------------------------------------------------------------------===//

/// Reads a C-ordered little-endian '<f4' or '<f8' .npy file. The error says
/// what is wrong with the file.
llvm::Expected<Buffer> readNpy(StringRef path);
/// Writes `buffer` as '<f4' (`asFloat32`) or '<f8'.
llvm::Error writeNpy(StringRef path, const Buffer &buffer, bool asFloat32);

} // namespace mlir::motif

#endif // MOTIF_EVALUATOR_EVALUATOR_H
