//===- motif-opt-fuzzer.cpp - libFuzzer target for motif-opt's passes -----===//
//
// Parses the input as MLIR with every dialect motif-opt registers, verifies
// it, and if it verifies runs `fuse-materialization` then
// `convert-motif-to-gpu`; inputs up to kMaxNVVMInputBytes also run the whole
// `motif-lower-to-nvvm` pipeline (down to PTX, no ptxas) on the fused module. Diagnostics are captured by a handler and dropped,
// never printed. A crash, a sanitizer report or a hang is a bug: on
// verifier-valid IR a pass succeeds or emits a diagnostic (docs/testing.md);
// so is a motif pass that succeeds and leaves IR that does not verify (the
// fuzzer aborts with the verifier's message).
//
//===----------------------------------------------------------------------===//

#include "motif/Conversion/Passes.h"
#include "motif/Dialect/Motif/Transforms/Passes.h"
#include "motif/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace mlir;

namespace {
/// The PTX pipeline runs LLVM's NVPTX backend: slow, so only small inputs
/// (every example is smaller) take it. MOTIF_FUZZ_NVVM=0 turns it off.
constexpr size_t kMaxNVVMInputBytes = 8192;

const DialectRegistry &registry() {
  static const DialectRegistry *reg = [] {
    auto *r = new DialectRegistry();
    motif::registerAllDialects(*r);
    motif::registerAllPasses(); // the named pipeline motif-lower-to-nvvm
    return r;
  }();
  return *reg;
}

bool nvvmEnabled() {
  static const bool enabled = [] {
    const char *env = std::getenv("MOTIF_FUZZ_NVVM");
    return !(env && env[0] == '0');
  }();
  return enabled;
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  (void)registry();
  return 0;
}

/// A motif pass that succeeded must leave valid IR: the pass managers below
/// run without their own verifier, and this checks instead, so that a broken
/// output is a crash of the fuzzer (with the verifier's message) rather than
/// an ordinary diagnosed failure.
static void verifyOrAbort(ModuleOp module, const char *after,
                          bool &recording, const std::string &messages) {
  recording = true;
  bool valid = succeeded(verify(module));
  recording = false;
  if (valid)
    return;
  llvm::errs() << "motif-opt-fuzzer: " << after
               << " succeeded but left IR that does not verify:\n"
               << messages;
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A fresh context per input: nothing uniqued by one input leaks into the
  // next. No thread pool: one thread is faster here and deterministic.
  MLIRContext context(registry(), MLIRContext::Threading::DISABLED);
  context.printOpOnDiagnostic(false);
  context.printStackTraceOnDiagnostic(false);
  // Diagnostics are dropped, except the verifier's after a pass (kept for
  // the abort message).
  bool recording = false;
  std::string messages;
  ScopedDiagnosticHandler capture(&context, [&](Diagnostic &diag) {
    if (recording)
      messages += diag.str() + "\n";
    return success();
  });

  // As motif-opt reads a file: one NUL-terminated buffer in a SourceMgr.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.mlir"),
      llvm::SMLoc());
  // parseSourceFile verifies the module.
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&context));
  if (!module)
    return 0;

  PassManager fuse(&context);
  fuse.enableVerifier(false);
  fuse.addNestedPass<func::FuncOp>(motif::createFuseMaterialization());
  if (failed(fuse.run(*module)))
    return 0;
  verifyOrAbort(*module, "fuse-materialization", recording, messages);

  // The PTX pipeline starts with convert-motif-to-gpu itself: give it a copy
  // of the fused module.
  bool nvvm = nvvmEnabled() && size <= kMaxNVVMInputBytes;
  OwningOpRef<ModuleOp> fused = nvvm ? module->clone() : nullptr;

  PassManager convert(&context);
  convert.enableVerifier(false);
  convert.addPass(motif::createConvertMotifToGPU());
  if (failed(convert.run(*module)))
    return 0;
  verifyOrAbort(*module, "convert-motif-to-gpu", recording, messages);

  if (nvvm) {
    PassManager lower(&context);
    if (failed(parsePassPipeline("motif-lower-to-nvvm", lower)))
      std::abort(); // registration is broken: not an input problem
    (void)lower.run(*fused);
  }
  return 0;
}
