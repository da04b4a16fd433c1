//===- motif-compile.cpp - motif IR to PTX, cubin, SASS, manifest, header -===//
//
// Argument handling only; the logic is in lib/Driver (docs/motif-compile.md).
//
//===----------------------------------------------------------------------===//

#include "motif/Driver/Compile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
namespace driver = mlir::motif::driver;

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::OptionCategory category("motif-compile options");

  cl::opt<std::string> input(cl::Positional, cl::desc("<input .mlir>"),
                             cl::Required, cl::cat(category));
  cl::opt<std::string> output("o", cl::desc("Output folder"),
                              cl::value_desc("OUTDIR"), cl::Required,
                              cl::cat(category));
  std::string chipHelp =
      "Target chip: " + join(driver::supportedChips(), ", ");
  cl::opt<std::string> chip("chip", cl::desc(chipHelp), cl::init("sm_90"),
                            cl::cat(category));
  cl::opt<bool> fuse("fuse-materialization",
                     cl::desc("Run fuse-materialization before lowering"),
                     cl::cat(category));
  cl::opt<std::string> fuseOptions(
      "fuse-options",
      cl::desc("fuse-materialization options, e.g. \"shared-budget=49152 "
               "register-budget=64 equivalence-cap=bitwise\""),
      cl::cat(category));
  cl::opt<std::string> lowerOptions(
      "lower-options",
      cl::desc("convert-motif-to-gpu options, e.g. \"reverse-rereads=false\""),
      cl::cat(category));
  cl::opt<std::string> l2LoadPolicy(
      "l2-load-policy",
      cl::desc("L2 eviction policy of the kernels' read-only global loads "
               "(motif-ptx-l2-load-policy): evict_last (default), "
               "evict_first, evict_normal, none"),
      cl::init("evict_last"), cl::cat(category));
  cl::opt<bool> preciseMath(
      "precise-math",
      cl::desc("math.sqrt of f32/f16/bf16 as sqrt.rn.f32 (as nvcc's "
               "-prec-sqrt=true) and 16-bit math.fma rounded once "
               "(motif-precise-math; the default); =false keeps libdevice's "
               "sqrt.approx.f32 and the f32 fma rounded again"),
      cl::init(true), cl::cat(category));
  cl::opt<bool> replanSpills(
      "replan-spills",
      cl::desc("When ptxas reports spills, fuse again with the register "
               "budget halved, until none spills (needs "
               "--fuse-materialization)"),
      cl::cat(category));
  cl::opt<std::string> function("function",
                                cl::desc("Compile only this host function"),
                                cl::value_desc("NAME"), cl::cat(category));
  cl::opt<bool> noPtxas("no-ptxas",
                        cl::desc("Stop after PTX (no cubin, no ptxas numbers)"),
                        cl::cat(category));
  cl::opt<bool> noSass("no-sass", cl::desc("Do not run nvdisasm"),
                       cl::cat(category));
  cl::opt<unsigned> optLevel("opt-level",
                             cl::desc("LLVM and ptxas optimization level (0-3)"),
                             cl::init(3), cl::cat(category));
  cl::opt<bool> verbose("v", cl::desc("Progress lines on stderr"),
                        cl::cat(category));
  cl::opt<bool> verifyDiagnostics(
      "verify-diagnostics",
      cl::desc("Check located diagnostics against expected-* comments"),
      cl::cat(category));
  cl::opt<std::string> ptxas("ptxas", cl::desc("Use this ptxas"),
                             cl::value_desc("PATH"), cl::cat(category));
  cl::opt<std::string> nvdisasm(
      "nvdisasm", cl::desc("Use this nvdisasm (a failure is then an error)"),
      cl::value_desc("PATH"), cl::cat(category));
  cl::opt<std::string> libdevice("libdevice",
                                 cl::desc("Use this libdevice.10.bc"),
                                 cl::value_desc("PATH"), cl::cat(category));

  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "motif-compile: motif IR (or its lowered gpu form) to PTX, cubin, SASS, "
      "a JSON manifest and a C header per host function\n");

  // An empty path would silently mean "search for it": refuse it.
  for (cl::opt<std::string> *path : {&output, &ptxas, &nvdisasm, &libdevice})
    if (path->getNumOccurrences() && path->getValue().empty()) {
      WithColor::error(errs(), "motif-compile")
          << (path == &output ? "-o" : "--" + path->ArgStr.str())
          << " is empty: give a path\n";
      return 1;
    }

  driver::CompileOptions options;
  options.inputPath = input;
  options.outputDir = output;
  options.chip = chip;
  options.fuseMaterialization = fuse;
  options.fuseOptions = fuseOptions;
  options.lowerOptions = lowerOptions;
  options.l2LoadPolicy = l2LoadPolicy;
  options.preciseMath = preciseMath;
  options.replanSpills = replanSpills;
  // --function= (empty) is refused by compile(), not taken as "every one".
  if (function.getNumOccurrences())
    options.function = function.getValue();
  options.runPtxas = !noPtxas;
  options.runNvdisasm = !noSass;
  options.optLevel = optLevel;
  options.verbose = verbose;
  options.verifyDiagnostics = verifyDiagnostics;
  options.ptxasPath = ptxas;
  options.nvdisasmPath = nvdisasm;
  options.libdevicePath = libdevice;
  return mlir::failed(driver::compile(options, errs())) ? 1 : 0;
}
