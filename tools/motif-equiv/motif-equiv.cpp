//===- motif-equiv.cpp - check two motif programs on the CPU --------------===//
//
//   motif-equiv A.mlir B.mlir [--function=NAME] [--class=bitwise|tolerance|
//               mathematical|semantic] [--trials=N] [--seed=S] [--rtol=X]
//               [--model=schedule|sequential]
//   motif-equiv --run A.mlir --function=NAME [--seed=S] [--model=...]
//
// Argument handling only; the evaluator and the comparison live in
// lib/Evaluator. Exit status: 0 every verdict passes, 1 a verdict fails,
// 2 bad input (a bad option, unparsable file, missing function, unsupported
// IR).
//
//===----------------------------------------------------------------------===//

#include "motif/Dialect/Motif/IR/RowCount.h"
#include "motif/Evaluator/Evaluator.h"
#include "motif/InitAll.h"
#include "motif/InputGuard.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace mlir;
using namespace mlir::motif;
namespace cl = llvm::cl;

static cl::OptionCategory equivCategory("motif-equiv options");
static cl::list<std::string> inputFiles(cl::Positional, cl::OneOrMore,
                                        cl::desc("A.mlir [B.mlir]"), cl::cat(equivCategory));
static cl::opt<bool> runOnly("run",
                             cl::desc("run A on random inputs and print its "
                                      "outputs and f32-vs-f64 error"), cl::cat(equivCategory));
static cl::opt<std::string>
    functionName("function",
                 cl::desc("function to check (default: every function of A, "
                          "matched by name in B)"), cl::cat(equivCategory));
static cl::opt<Equivalence> equivalence(
    "class", cl::desc("equivalence class to check"),
    cl::init(Equivalence::Bitwise),
    cl::values(clEnumValN(Equivalence::Bitwise, "bitwise",
                          "every output bit-identical"),
               clEnumValN(Equivalence::Tolerance, "tolerance",
                          "both within --rtol of the f64 reference"),
               clEnumValN(Equivalence::Mathematical, "mathematical",
                          "both within 1e-3 of the f64 reference"),
               clEnumValN(Equivalence::Semantic, "semantic",
                          "signatures only; numerics not checked")), cl::cat(equivCategory));
static cl::opt<unsigned> trials("trials",
                                cl::desc("random input sets (>= 1)"),
                                cl::init(3), cl::cat(equivCategory));
static cl::opt<uint64_t>
    seed("seed", cl::desc("input generator seed (default: random_device)"), cl::cat(equivCategory));
static cl::opt<double> rtol("rtol",
                            cl::desc("relative error bound of 'tolerance' "
                                     "(finite, >= 0; default 1e-5, 2^-10 for "
                                     "a program with a tf32 contraction)"),
                            cl::init(1e-5), cl::cat(equivCategory));
static cl::opt<EvaluationModel> model(
    "model", cl::desc("how A and B run (the f64 reference is sequential)"),
    cl::init(EvaluationModel::Schedule),
    cl::values(clEnumValN(EvaluationModel::Schedule, "schedule",
                          "the mapping executed thread by thread: register "
                          "slots, shared buffers per block, the GPU's "
                          "reduction tree (what the kernel computes)"),
               clEnumValN(EvaluationModel::Sequential, "sequential",
                          "materializations are the identity, reductions "
                          "fold in order (what the program means)")), cl::cat(equivCategory));
static cl::list<std::string> inputArrays(
    "inputs", cl::CommaSeparated,
    cl::desc("--run: .npy files (f4/f8, C order), one per argument, instead "
             "of random inputs"), cl::cat(equivCategory));
static cl::opt<std::string> dumpDir(
    "dump", cl::desc("--run: write out<k>.npy (f32, the --model run) and "
                     "out<k>.f64.npy (the sequential float64 meaning) here"), cl::cat(equivCategory));
static cl::list<int64_t> rowCounts(
    "rows", cl::CommaSeparated,
    cl::desc("row counts to run a function with a runtime row count at "
             "(tensor<?x...>; default 1,3,17; --run --inputs: the inputs' "
             "leading dim)"),
    cl::cat(equivCategory));
static int savedArgc;
static char **savedArgv;

static cl::opt<bool> verifyDiagnostics(
    "verify-diagnostics",
    cl::desc("check diagnostics against expected-* lines in the inputs"), cl::cat(equivCategory));

/// Parses `path`; the buffer is also registered with `diagMgr` so diagnostics
/// print (and are verified) against it.
static OwningOpRef<ModuleOp> parseFile(StringRef path, MLIRContext &ctx,
                                       llvm::SourceMgr &diagMgr,
                                       llvm::SourceMgr &fileMgr) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file = openInputFile(path, &error);
  if (!file) {
    llvm::errs() << "motif-equiv: " << error << "\n";
    return nullptr;
  }
  diagMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(file->getBuffer(),
                                           file->getBufferIdentifier()),
      llvm::SMLoc());
  unsigned id = fileMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  if (failed(checkInputText(fileMgr, id)))
    return nullptr;
  return parseSourceFile<ModuleOp>(fileMgr, &ctx);
}

/// Checks what the option parser cannot: ranges and combinations. Prints
/// "motif-equiv: error: ..." naming the option and its value.
static bool checkOptions() {
  auto error = [](const Twine &message) {
    llvm::WithColor::error(llvm::errs(), "motif-equiv") << message << "\n";
    return false;
  };
  // The value as given on the command line, for the message.
  auto given = [](const cl::Option &opt) -> std::string {
    std::string value;
    for (int i = 1; i < savedArgc; ++i) {
      StringRef arg = StringRef(savedArgv[i]).ltrim('-');
      if (arg == opt.ArgStr && i + 1 < savedArgc)
        value = savedArgv[++i];
      else if (arg.starts_with((opt.ArgStr + "=").str()))
        value = arg.drop_front(opt.ArgStr.size() + 1).str();
    }
    return value; // the last occurrence, the one cl::opt keeps
  };
  for (int64_t r : rowCounts)
    if (r < 1)
      return error("--rows=" + given(rowCounts) +
                   ": every row count must be at least 1");
  if (functionName.getNumOccurrences() && functionName.empty())
    return error("--function= is empty: name a function, or leave --function "
                 "out to check every function");
  if (runOnly) {
    for (const cl::Option *opt :
         {static_cast<const cl::Option *>(&equivalence),
          static_cast<const cl::Option *>(&trials),
          static_cast<const cl::Option *>(&rtol)})
      if (opt->getNumOccurrences())
        return error("--" + opt->ArgStr +
                     " compares two programs; it does not apply to --run");
    if (dumpDir.getNumOccurrences() && dumpDir.empty())
      return error("--dump= is empty: name a folder");
    if (dumpDir.getNumOccurrences() && !inputArrays.getNumOccurrences())
      return error("--dump writes the results of --inputs: give --inputs too");
    if (inputArrays.getNumOccurrences() && !functionName.getNumOccurrences())
      return error("--inputs are the arguments of one function: give --function");
    return true;
  }
  if (inputArrays.getNumOccurrences())
    return error("--inputs applies to --run only");
  if (dumpDir.getNumOccurrences())
    return error("--dump applies to --run only");
  if (trials == 0)
    return error("--trials=" + given(trials) + " must be at least 1");
  if (rtol.getNumOccurrences()) {
    if (!std::isfinite(rtol) || rtol < 0)
      return error("--rtol=" + given(rtol) + " must be finite and >= 0");
    if (equivalence != Equivalence::Tolerance)
      return error("--rtol=" + given(rtol) +
                   " applies to --class=tolerance only (the class is '" +
                   stringifyEquivalence(equivalence) + "')");
  }
  return true;
}

/// 0 pass, 1 a verdict failed, 2 bad input.
static int run(ArrayRef<OwningOpRef<ModuleOp>> modules) {
  ModuleOp a = *modules[0];
  SmallVector<func::FuncOp> functions;
  if (!functionName.empty()) {
    auto f = a.lookupSymbol<func::FuncOp>(functionName);
    if (!f) {
      a.emitError() << "no function @" << functionName << " in "
                    << inputFiles[0];
      return 2;
    }
    functions.push_back(f);
  } else {
    llvm::append_range(functions, a.getOps<func::FuncOp>());
  }
  if (functions.empty()) {
    a.emitError() << "no function to evaluate in " << inputFiles[0];
    return 2;
  }
  std::optional<uint64_t> theSeed;
  if (seed.getNumOccurrences())
    theSeed = seed;
  else
    theSeed = freshSeed(); // One seed for every function: --seed reproduces.

  // A function with a runtime row count runs as its specialization at each
  // row count (docs/dialect.md, "Runtime row counts"): a clone in a scratch
  // module, verified, so that a count past the function's limits is a
  // located error.
  SmallVector<int64_t> rows(rowCounts.begin(), rowCounts.end());
  if (rows.empty())
    rows = {1, 3, 17};
  SmallVector<OwningOpRef<ModuleOp>> scratch;
  auto specialized = [&](func::FuncOp f, int64_t r) -> func::FuncOp {
    scratch.push_back(cloneAtRows(f, r));
    return scratch.back() ? *scratch.back()->getOps<func::FuncOp>().begin()
                          : nullptr;
  };

  // Every function is tried even after a failure, so one run reports all.
  int status = 0;
  if (runOnly) {
    for (func::FuncOp f : functions) {
      if (hasRuntimeRows(f)) {
        // Given inputs fix the row count; random ones take the first.
        int64_t r = rows.front();
        if (!inputArrays.empty()) {
          for (auto [arg, path] : llvm::zip(f.getArguments(), inputArrays))
            if (hasDynamicRows(arg.getType())) {
              llvm::Expected<Buffer> b = readNpy(path);
              if (b && !b->shape.empty())
                r = b->shape.front();
              else if (!b)
                llvm::consumeError(b.takeError());
              break;
            }
        }
        llvm::outs() << "@" << f.getName() << " at rows = " << r << "\n";
        f = specialized(f, r);
        if (!f) {
          status = 2;
          continue;
        }
      }
      FailureOr<RunReport> report = failure();
      SmallVector<Buffer> f32, f64;
      if (!inputArrays.empty()) {
        SmallVector<Buffer> inputs;
        for (const std::string &path : inputArrays) {
          llvm::Expected<Buffer> b = readNpy(path);
          if (!b) {
            llvm::errs() << "motif-equiv: --inputs: "
                         << llvm::toString(b.takeError()) << "\n";
            return 2;
          }
          inputs.push_back(std::move(*b));
        }
        report = runOnInputs(f, inputs, model, &f32, &f64);
      } else {
        report = runOnRandomInputs(f, theSeed, model);
      }
      if (failed(report)) {
        status = 2;
        continue;
      }
      printRunReport(llvm::outs(), *report);
      if (!dumpDir.empty()) {
        llvm::sys::fs::create_directories(dumpDir);
        for (size_t k = 0; k < f32.size(); ++k) {
          std::string base = dumpDir + "/out" + std::to_string(k);
          if (llvm::Error e = writeNpy(base + ".npy", f32[k], true)) {
            llvm::errs() << "motif-equiv: " << llvm::toString(std::move(e)) << "\n";
            return 2;
          }
          if (llvm::Error e = writeNpy(base + ".f64.npy", f64[k], false)) {
            llvm::errs() << "motif-equiv: " << llvm::toString(std::move(e)) << "\n";
            return 2;
          }
        }
      }
    }
    return status;
  }

  ModuleOp b = *modules[1];
  CompareOptions options;
  options.equivalence = equivalence;
  options.trials = trials;
  options.seed = theSeed;
  options.rtol = rtol;
  options.rtolStated = rtol.getNumOccurrences() > 0;
  options.model = model;
  for (func::FuncOp fa : functions) {
    auto fb = b.lookupSymbol<func::FuncOp>(fa.getName());
    if (!fb) {
      fa.emitError() << "no function @" << fa.getName() << " in "
                     << inputFiles[1];
      status = 2;
      continue;
    }
    // One comparison, printed; false when it could not be made (bad input).
    auto compare = [&](func::FuncOp a, func::FuncOp b) {
      FailureOr<FunctionComparison> cmp =
          a && b ? compareFunctions(a, b, options)
                 : FailureOr<FunctionComparison>(failure());
      if (failed(cmp)) {
        status = 2;
        return false;
      }
      printComparison(llvm::outs(), *cmp);
      if (!cmp->pass)
        status = std::max(status, 1);
      return true;
    };
    if (!hasRuntimeRows(fa) && !hasRuntimeRows(fb)) {
      compare(fa, fb);
      continue;
    }
    for (int64_t r : rows) {
      llvm::outs() << "@" << fa.getName() << " at rows = " << r << "\n";
      if (!compare(specialized(fa, r), specialized(fb, r)))
        break;
    }
  }
  return status;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // --help lists this tool's options, not every LLVM backend's.
  cl::HideUnrelatedOptions(equivCategory);
  savedArgc = argc;
  savedArgv = argv;
  // A bad option is bad input (2), not a failed verdict (1).
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "motif-equiv: run motif programs on the "
                                   "CPU and check a declared equivalence "
                                   "class\n",
                                   &llvm::errs()))
    return 2;
  if (!checkOptions())
    return 2;
  size_t expected = runOnly ? 1 : 2;
  if (inputFiles.size() != expected) {
    llvm::errs() << "motif-equiv: expected " << expected
                 << (runOnly ? " file with --run" : " files (A.mlir B.mlir)")
                 << ", got " << inputFiles.size() << "\n";
    return 2;
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();
  // Diagnostics point at the op's source line; a generic-form dump of the op
  // (whole functions, for signature errors) would only bury it.
  ctx.printOpOnDiagnostic(false);

  llvm::SourceMgr diagMgr;
  std::vector<llvm::SourceMgr> fileMgrs(inputFiles.size());
  SmallVector<OwningOpRef<ModuleOp>> modules;
  // The verifier handler reads expected-* lines from every buffer registered
  // at construction, so load the files first when verifying.
  if (verifyDiagnostics) {
    for (auto [path, mgr] : llvm::zip(inputFiles, fileMgrs)) {
      std::string error;
      auto file = openInputFile(path, &error);
      if (!file) {
        llvm::errs() << "motif-equiv: " << error << "\n";
        return 2;
      }
      diagMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    }
    SourceMgrDiagnosticVerifierHandler handler(diagMgr, &ctx);
    for (auto [path, mgr] : llvm::zip(inputFiles, fileMgrs)) {
      std::string error;
      mgr.AddNewSourceBuffer(openInputFile(path, &error), llvm::SMLoc());
      modules.push_back(parseSourceFile<ModuleOp>(mgr, &ctx));
    }
    if (llvm::all_of(modules, [](auto &m) { return bool(m); }))
      (void)run(modules);
    return failed(handler.verify()) ? 1 : 0;
  }

  SourceMgrDiagnosticHandler handler(diagMgr, &ctx);
  for (auto [path, mgr] : llvm::zip(inputFiles, fileMgrs)) {
    modules.push_back(parseFile(path, ctx, diagMgr, mgr));
    if (!modules.back())
      return 2;
  }
  return run(modules);
}
