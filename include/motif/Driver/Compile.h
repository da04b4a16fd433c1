//===- Compile.h - motif-compile: motif IR to PTX, cubin, manifest ----------*- C++ -*-===//
//
// The logic behind `motif-compile` (docs/motif-compile.md): parse a module,
// lower motif ops to the GPU contract of docs/abi.md when needed, then for
// every host function emit PTX, a cubin, the ptxas report, SASS, the JSON
// manifest and a C header.
//
//===----------------------------------------------------------------------===//

#ifndef MOTIF_DRIVER_COMPILE_H
#define MOTIF_DRIVER_COMPILE_H

#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class DialectRegistry;
namespace motif {
namespace driver {

/// Everything `motif-compile` takes from its command line.
struct CompileOptions {
  /// The input .mlir file ("-" for stdin).
  std::string inputPath;
  /// Where the outputs go; created when missing.
  std::string outputDir;
  /// Target chip: one of supportedChips().
  std::string chip = "sm_90";
  /// Run fuse-materialization before convert-motif-to-gpu.
  bool fuseMaterialization = false;
  /// Extra fuse-materialization options ("shared-budget=... ..."), parsed
  /// by the pass's own option parser; `chip` comes from `chip` only.
  std::string fuseOptions;
  /// convert-motif-to-gpu options ("reverse-rereads=false"), parsed by the
  /// pass's own option parser.
  std::string lowerOptions;
  /// The L2 eviction policy of the PTX's read-only global loads
  /// (motif-ptx-l2-load-policy): evict_last, evict_first, evict_normal, none.
  std::string l2LoadPolicy = "evict_last";
  /// math.sqrt of f32/f16/bf16 and 16-bit math.fma correctly rounded
  /// (motif-precise-math); false: libdevice's sqrt.approx.f32 and an f32
  /// fma rounded again.
  bool preciseMath = true;
  /// Only this host function (unset: every one; set but empty is an error).
  std::optional<std::string> function;
  /// Run ptxas (cubin, resource report). Off: PTX and manifest only.
  bool runPtxas = true;
  /// Run nvdisasm on the cubin.
  bool runNvdisasm = true;
  /// LLVM and ptxas optimization level (0-3).
  unsigned optLevel = 3;
  /// Progress lines on the log stream.
  bool verbose = false;
  /// Check located diagnostics against expected-* comments in the input
  /// (lit tests); compile() then succeeds when they match.
  bool verifyDiagnostics = false;
  /// When ptxas reports spills, compile again with fuse-materialization's
  /// register budget halved, until no kernel spills or the budget is 0
  /// (needs fuseMaterialization and ptxas).
  bool replanSpills = false;
  /// Explicit tool and file paths; empty: searched (see Toolchain.h).
  std::string ptxasPath;
  std::string nvdisasmPath;
  std::string libdevicePath;
};

/// The chips motif-compile targets (those the resource model knows).
ArrayRef<StringRef> supportedChips();

/// Registers the dialects, interfaces and LLVM IR translations the whole
/// pipeline (motif -> gpu -> NVVM -> PTX) needs.
void registerCompileDependencies(DialectRegistry &registry);

/// Runs the whole compilation. Located errors go through MLIR's source
/// manager diagnostics, others are printed on `errs` as
/// "motif-compile: error: ..."; progress lines (verbose) and warnings go to
/// `errs` too. Returns failure on any error.
LogicalResult compile(const CompileOptions &options, llvm::raw_ostream &errs);

} // namespace driver
} // namespace motif
} // namespace mlir

#endif // MOTIF_DRIVER_COMPILE_H
