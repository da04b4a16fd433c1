//===- Compile.cpp - motif-compile: motif IR to PTX, cubin, manifest ------===//
//
// 1. Parse; if motif ops remain, run [fuse-materialization,]
//    convert-motif-to-gpu (looked up by name: this library does not depend
//    on the conversion's C++ API).
// 2. For every host function (func.func with motif.host): clone the module
//    with that function and the gpu.funcs it launches, read the manifest off
//    the host function, run the upstream pipeline to PTX and take the PTX
//    from the gpu.binary's #gpu.object.
// 3. ptxas (cubin + resource report), nvdisasm (SASS), manifest, header.
//
//===----------------------------------------------------------------------===//

#include "motif/Driver/Compile.h"
#include "motif/Conversion/Passes.h"
#include "motif/Analysis/ResourceModel.h"
#include "motif/InputGuard.h"

#include "motif/Driver/Manifest.h"
#include "motif/Driver/Toolchain.h"
#include "motif/InitAll.h"
#include "motif/Sass/PtxasReport.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVM.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <mutex>

using namespace llvm;

namespace mlir {
namespace motif {
namespace driver {

namespace {

constexpr StringLiteral kHostAttr = "motif.host";
constexpr StringLiteral kToolName = "motif-compile";

/// Shared state of one compile() call.
struct Session {
  const CompileOptions &options;
  raw_ostream &errs;
  std::string ptxas;     ///< empty with --no-ptxas
  std::string libdevice;
  /// fuse-materialization's register budget, when compile() re-plans.
  std::optional<int64_t> registerBudget;
  /// Kernels ptxas reported spilling, with what they keep in registers, and
  /// the largest register value one of them keeps (slots per thread).
  SmallVector<std::string> spills;
  int64_t spillingSlots = 0;

  LogicalResult error(const Twine &message) {
    WithColor::error(errs, kToolName) << message << "\n";
    return failure();
  }
  void warning(const Twine &message) {
    WithColor::warning(errs, kToolName) << message << "\n";
  }
  void note(const Twine &message) {
    WithColor::note(errs, kToolName) << message << "\n";
  }
  void progress(const Twine &message) {
    if (options.verbose)
      errs << kToolName << ": " << message << "\n";
  }
  std::string outPath(StringRef file) const {
    SmallString<256> path(options.outputDir);
    sys::path::append(path, file);
    return std::string(path);
  }
  LogicalResult writeFile(StringRef file,
                          function_ref<void(raw_ostream &)> write) {
    std::string path = outPath(file);
    std::string message;
    std::unique_ptr<ToolOutputFile> out = openOutputFile(path, &message);
    if (!out)
      return error("cannot write '" + path + "': " + message);
    write(out->os());
    out->keep();
    progress("wrote " + path);
    return success();
  }
};

/// True when some operation of the motif dialect remains; `first` is set to
/// the first one in pre-order (a kernel before the ops in its body).
bool holdsMotifOps(ModuleOp module, Operation *&first) {
  first = nullptr;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op->getName().getDialectNamespace() == "motif") {
      first = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return first != nullptr;
}

/// The keys of a pass option string ("a=1 b={x y}" -> a, b), split the way
/// mlir::detail::PassOptions splits it: on spaces outside braces and quotes.
SmallVector<StringRef> optionKeys(StringRef text) {
  SmallVector<StringRef> keys;
  size_t i = 0, n = text.size();
  while (i < n) {
    while (i < n && isSpace(text[i]))
      ++i;
    if (i >= n)
      break;
    size_t start = i;
    int depth = 0;
    char quote = 0;
    for (; i < n; ++i) {
      char c = text[i];
      if (quote) {
        if (c == quote)
          quote = 0;
      } else if (c == '"' || c == '\'') {
        quote = c;
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        depth = std::max(0, depth - 1);
      } else if (depth == 0 && isSpace(c)) {
        break;
      }
    }
    // The parser unquotes a key as it unquotes a value: 'chip', "chip" and
    // {chip} all name chip.
    StringRef key = text.slice(start, i).split('=').first.trim();
    for (auto [open, close] : {std::pair('\'', '\''), std::pair('"', '"'),
                               std::pair('{', '}')})
      if (key.size() > 2 && key.front() == open && key.back() == close) {
        key = key.drop_front().drop_back().trim();
        break;
      }
    keys.push_back(key);
  }
  return keys;
}

/// Adds func.func(fuse-materialization) to `pm`: the registered pass (looked
/// up by name), its options parsed by its own option parser from
/// --fuse-options, then its chip set from --chip. A bad option string is an
/// error naming --fuse-options and its value.
LogicalResult addFusePass(Session &s, OpPassManager &pm) {
  const CompileOptions &o = s.options;
  const PassInfo *fuse = PassInfo::lookup("fuse-materialization");
  if (!fuse)
    return s.error("--fuse-materialization: this build has no "
                   "'fuse-materialization' pass registered");
  for (StringRef key : optionKeys(o.fuseOptions))
    if (key == "chip")
      return s.error("--fuse-options='" + o.fuseOptions +
                     "' sets chip; the chip comes from --chip");
  auto fail = [&](StringRef what, const Twine &message) {
    std::string text = StringRef(message.str()).trim().str();
    return s.error(what + " is not a valid fuse-materialization option " +
                   "string" + (text.empty() ? "" : ": " + text));
  };
  OpPassManager &funcPM = pm.nest<func::FuncOp>();
  std::string fuseWhat = "--fuse-options='" + o.fuseOptions + "'";
  if (failed(fuse->addToPipeline(funcPM, o.fuseOptions, [&](const Twine &m) {
        return fail(fuseWhat, m);
      })))
    return failure();
  // --chip is one of supportedChips() (no spaces or braces): this option
  // string holds exactly that one option.
  Pass &pass = *std::prev(funcPM.end());
  std::string chipWhat = "--chip='" + o.chip + "'";
  if (failed(pass.initializeOptions("chip=" + o.chip, [&](const Twine &m) {
        return fail(chipWhat, m);
      })))
    return failure();
  if (!s.registerBudget)
    return success();
  std::string budget = "register-budget=" + std::to_string(*s.registerBudget);
  return pass.initializeOptions(budget, [&](const Twine &m) {
    return fail("--replan-spills (" + budget + ")", m);
  });
}

/// Adds convert-motif-to-gpu to `pm`, its options parsed by its own option
/// parser from --lower-options. A bad option string is an error naming
/// --lower-options and its value.
LogicalResult addConvertPass(Session &s, const PassInfo &convert,
                             OpPassManager &pm) {
  const std::string &options = s.options.lowerOptions;
  for (StringRef key : optionKeys(options))
    if (key == "chip")
      return s.error("--lower-options='" + options +
                     "' sets chip; the chip comes from --chip");
  auto fail = [&](StringRef what, const Twine &message) {
    std::string text = StringRef(message.str()).trim().str();
    return s.error(what + " is not a valid convert-motif-to-gpu option "
                   "string" + (text.empty() ? "" : ": " + text));
  };
  if (failed(convert.addToPipeline(pm, options, [&](const Twine &m) {
        return fail("--lower-options='" + options + "'", m);
      })))
    return failure();
  // The chip decides whether wgmma contractions lower (sm_90a).
  Pass &pass = *std::prev(pm.end());
  if (failed(pass.initializeOptions("chip=" + s.options.chip,
                                    [&](const Twine &m) {
                                      return fail("--chip='" +
                                                      s.options.chip + "'",
                                                  m);
                                    })))
    return failure();
  return success();
}

/// Step 0: linalg input (docs/import.md) is imported first, by the
/// registered convert-linalg-to-motif pass.
LogicalResult importLinalg(Session &s, ModuleOp module) {
  WalkResult found = module.walk([](Operation *op) {
    return op->getName().getDialectNamespace() == "linalg"
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  if (!found.wasInterrupted())
    return success();
  const PassInfo *import = PassInfo::lookup("convert-linalg-to-motif");
  if (!import)
    return s.error("the input holds linalg ops, but this build has no "
                   "'convert-linalg-to-motif' pass registered");
  PassManager pm(module->getName());
  if (failed(import->addToPipeline(pm.nest<func::FuncOp>(), "",
                                   [&](const Twine &message) {
                                     return s.error("convert-linalg-to-motif: " +
                                                    message);
                                   })))
    return failure();
  s.progress("input holds linalg ops: running convert-linalg-to-motif");
  if (failed(pm.run(module)))
    return s.error("importing linalg failed (convert-linalg-to-motif)");
  return success();
}

/// Step 1: motif IR to the gpu form of docs/abi.md, when needed.
LogicalResult lowerMotifToGPU(Session &s, ModuleOp module) {
  if (failed(importLinalg(s, module)))
    return failure();
  Operation *firstMotifOp;
  if (!holdsMotifOps(module, firstMotifOp)) {
    if (s.options.fuseMaterialization)
      s.warning("--fuse-materialization ignored: the input holds no motif "
                "ops (already lowered)");
    if (!s.options.lowerOptions.empty())
      s.warning("--lower-options ignored: the input holds no motif ops "
                "(already lowered)");
    s.progress("input is already lowered (no motif ops)");
    return success();
  }
  const PassInfo *convert = PassInfo::lookup("convert-motif-to-gpu");
  if (!convert)
    return firstMotifOp->emitError()
           << "the input holds motif ops, but this build has no "
              "'convert-motif-to-gpu' pass registered to lower them; pass IR "
              "already lowered to the gpu form of docs/abi.md";

  // Built from the registered passes, anchored on builtin.module; option
  // values are never pasted into pipeline text.
  PassManager pm(module->getName());
  if (s.options.fuseMaterialization && failed(addFusePass(s, pm)))
    return failure();
  if (failed(addConvertPass(s, *convert, pm)))
    return failure();
  std::string pipeline;
  raw_string_ostream pipelineStream(pipeline);
  pm.printAsTextualPipeline(pipelineStream);
  s.progress("running " + pipeline);
  if (failed(pm.run(module)))
    return s.error("lowering motif IR failed (" + pipeline + ")");
  // A kernel the conversion does not reach (a function in a nested module)
  // is still a motif op: refuse it where it is, not later as "no host
  // function".
  if (holdsMotifOps(module, firstMotifOp))
    return firstMotifOp->emitOpError()
           << "was not lowered by convert-motif-to-gpu (motif kernels are "
              "lowered from the func.func ops of the top-level module only)";
  return success();
}

/// A copy of `module` with only `hostName` and the kernels it launches.
/// Errors when those kernels are spread over several gpu.modules.
FailureOr<OwningOpRef<ModuleOp>> extractFunction(ModuleOp module,
                                                 StringRef hostName) {
  OwningOpRef<ModuleOp> copy(module.clone());
  func::FuncOp host;
  SmallVector<Operation *> otherHosts;
  for (auto func : copy->getOps<func::FuncOp>()) {
    if (func.getSymName() == hostName)
      host = func;
    else if (func->hasAttr(kHostAttr))
      otherHosts.push_back(func);
  }
  for (Operation *op : otherHosts)
    op->erase();

  DenseSet<StringAttr> launchedModules;
  DenseSet<std::pair<StringAttr, StringAttr>> launched;
  host.walk([&](gpu::LaunchFuncOp launch) {
    launchedModules.insert(launch.getKernelModuleName());
    launched.insert({launch.getKernelModuleName(), launch.getKernelName()});
  });
  if (launchedModules.size() > 1)
    return host.emitError() << "host function @" << hostName
                            << " launches kernels of "
                            << launchedModules.size()
                            << " gpu.modules; motif-compile needs them in one";

  SmallVector<Operation *> dead;
  for (auto gpuModule : copy->getOps<gpu::GPUModuleOp>()) {
    StringAttr moduleName = gpuModule.getSymNameAttr();
    if (!launchedModules.contains(moduleName)) {
      dead.push_back(gpuModule);
      continue;
    }
    for (auto kernel : gpuModule.getOps<gpu::GPUFuncOp>())
      if (kernel.isKernel() &&
          !launched.contains({moduleName, kernel.getNameAttr()}))
        dead.push_back(kernel);
  }
  for (Operation *op : dead)
    op->erase();
  return copy;
}

/// The upstream pipeline from the gpu form to PTX (gpu.binary, format isa).
void buildPtxPipeline(Session &s, OpPassManager &pm) {
  // The same chain as motif-lower-to-nvvm (docs/lowering.md), minus
  // convert-motif-to-gpu which ran on the whole module before.
  motif::addKernelToLLVMPasses(pm.nest<gpu::GPUModuleOp>(),
                               s.options.preciseMath);
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = s.options.chip;
  target.optLevel = s.options.optLevel;
  target.linkLibs.push_back(s.libdevice);
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(motif::createRaisePtxIsa());
  GpuModuleToBinaryPassOptions toBinary;
  toBinary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(toBinary));
  motif::PtxL2LoadPolicyOptions l2;
  l2.policy = s.options.l2LoadPolicy;
  pm.addPass(motif::createPtxL2LoadPolicy(l2));
}

/// Runs the upstream pipeline on `module` and returns the PTX text of its one
/// gpu.binary.
FailureOr<std::string> lowerToPtx(Session &s, ModuleOp module,
                                  func::FuncOp host) {
  PassManager pm(module->getName());
  buildPtxPipeline(s, pm);
  if (s.options.verbose) {
    std::string text;
    raw_string_ostream os(text);
    pm.printAsTextualPipeline(os);
    s.progress("@" + host.getSymName() + ": " + text);
  }
  if (failed(pm.run(module)))
    return host.emitError() << "lowering the kernels of @"
                            << host.getSymName() << " to PTX failed",
           failure();

  SmallVector<gpu::BinaryOp> binaries(module.getOps<gpu::BinaryOp>());
  if (binaries.size() != 1)
    return host.emitError() << "expected one gpu.binary after lowering @"
                            << host.getSymName() << ", got "
                            << binaries.size(),
           failure();
  ArrayAttr objects = binaries.front().getObjects();
  if (objects.size() != 1)
    return binaries.front().emitError()
               << "expected one #gpu.object, got " << objects.size(),
           failure();
  auto object = dyn_cast<gpu::ObjectAttr>(objects[0]);
  if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
    return binaries.front().emitError()
               << "expected a PTX (format isa) #gpu.object",
           failure();
  return object.getObject().getValue().str();
}

/// Runs ptxas, saves its report and fills in the kernels' resources.
LogicalResult runPtxas(Session &s, FunctionManifest &manifest,
                       StringRef base) {
  manifest.cubinFile = (base + ".cubin").str();
  manifest.ptxasReportFile = (base + ".ptxas.txt").str();
  std::string ptx = s.outPath(manifest.ptxFile);
  std::string cubin = s.outPath(manifest.cubinFile);
  std::string reportPath = s.outPath(manifest.ptxasReportFile);
  SmallVector<std::string> args = {
      "-v", "-arch=" + s.options.chip, "-O" + std::to_string(s.options.optLevel),
      ptx, "-o", cubin};
  s.progress(s.ptxas + " " + join(args, " "));
  Expected<ToolRun> run = runTool(s.ptxas, args);
  if (!run)
    return s.error(toString(run.takeError()));
  if (failed(s.writeFile(manifest.ptxasReportFile,
                         [&](raw_ostream &os) { os << run->stderrText; })))
    return failure();
  if (run->exitCode != 0)
    return s.error("ptxas failed on '" + ptx + "' (exit code " +
                   Twine(run->exitCode) + "):\n" + run->stderrText +
                   run->stdoutText);
  Expected<::motif::sass::PtxasReport> report =
      ::motif::sass::parsePtxasReport(run->stderrText, reportPath);
  if (!report)
    return s.error(toString(report.takeError()));
  std::string message;
  if (failed(attachPtxasReport(manifest, *report, message)))
    return s.error(reportPath + ": " + message);
  for (const KernelInfo &k : manifest.kernels) {
    int64_t stores = k.resources->spillStoreBytes.value_or(0);
    int64_t loads = k.resources->spillLoadBytes.value_or(0);
    if (stores == 0 && loads == 0)
      continue;
    std::string kept = k.registerValues.empty()
                           ? std::string("no materialized register values")
                           : "in registers: " + join(k.registerValues, ", ");
    std::string line = formatv("kernel '{0}' spills {1} B stores / {2} B "
                               "loads (ptxas -v, {3}); {4}",
                               k.name, stores, loads, reportPath, kept)
                           .str();
    s.spills.push_back(line);
    s.spillingSlots = std::max(s.spillingSlots, k.largestRegisterValue);
    if (!s.options.replanSpills)
      s.warning(line + (s.options.fuseMaterialization
                            ? "; --replan-spills fuses again with a smaller "
                              "register budget"
                            : ""));
  }
  for (const KernelInfo &k : manifest.kernels)
    s.progress(formatv("{0}: {1} registers, {2} barriers, {3} bytes smem, "
                       "{4}/{5} bytes spill stores/loads, {6} bytes stack",
                       k.name, k.resources->registers.value_or(0),
                       k.resources->barriers.value_or(0),
                       k.resources->sharedBytes.value_or(0),
                       k.resources->spillStoreBytes.value_or(0),
                       k.resources->spillLoadBytes.value_or(0),
                       k.resources->stackFrameBytes.value_or(0))
                   .str());
  s.progress("wrote " + cubin);
  return success();
}

/// Runs nvdisasm on the cubin. A missing or failing nvdisasm is a warning
/// unless it was asked for explicitly (--nvdisasm, $MOTIF_NVDISASM).
LogicalResult runNvdisasm(Session &s, FunctionManifest &manifest,
                          StringRef base) {
  bool explicitRequest = false;
  Expected<std::string> nvdisasm =
      findNvdisasm(s.options.nvdisasmPath, explicitRequest);
  if (!nvdisasm) {
    std::string message = toString(nvdisasm.takeError());
    if (explicitRequest)
      return s.error(message);
    s.warning(message + "; no SASS written (--no-sass silences this)");
    return success();
  }
  std::string sassFile = (base + ".sass").str();
  std::string sassPath = s.outPath(sassFile);
  std::string cubin = s.outPath(manifest.cubinFile);
  s.progress(*nvdisasm + " -c " + cubin + " > " + sassPath);
  Expected<ToolRun> run = runTool(*nvdisasm, {"-c", cubin}, sassPath);
  std::string failure;
  if (!run)
    failure = toString(run.takeError());
  else if (run->exitCode != 0)
    failure = "nvdisasm failed on '" + cubin + "' (exit code " +
              std::to_string(run->exitCode) + "): " +
              StringRef(run->stderrText).trim().str() +
              " (a CUDA 13 cubin needs nvdisasm from CUDA >= 12)";
  if (!failure.empty()) {
    sys::fs::remove(sassPath);
    if (explicitRequest)
      return s.error(failure);
    s.warning(failure + "; no SASS written");
    return success();
  }
  manifest.sassFile = sassFile;
  s.progress("wrote " + sassPath);
  return success();
}

/// File names for a function: its name with path separators and other odd
/// characters replaced.
std::string fileBase(StringRef function) {
  std::string out;
  for (char c : function)
    out += (isAlnum(c) || c == '_' || c == '-' || c == '.') ? c : '_';
  if (out.empty() || out.front() == '.')
    out.insert(out.begin(), '_');
  return out;
}

/// Steps 2-4 for one host function.
LogicalResult compileFunction(Session &s, ModuleOp module, func::FuncOp host) {
  StringRef name = host.getSymName();
  FailureOr<FunctionManifest> collected = collectManifest(host);
  if (failed(collected))
    return failure();
  FunctionManifest manifest = std::move(*collected);
  // The lowering allows the largest opt-in of any chip; this chip may
  // allow less (sm_80: 163 KiB).
  if (std::optional<TargetResources> target = lookupTarget(s.options.chip))
    for (const KernelInfo &k : manifest.kernels) {
      if (k.dynamicSharedBytes <= target->sharedBytesPerBlockOptIn)
        continue;
      Operation *at = host;
      host.walk([&](gpu::LaunchFuncOp launch) {
        if (launch.getKernelName() == k.name)
          at = launch;
      });
      at->emitError() << "kernel '" << k.name << "' needs " << k.dynamicSharedBytes
           << " bytes of shared memory per block; " << s.options.chip
           << " allows at most " << target->sharedBytesPerBlockOptIn
           << " (lower the fuse-materialization shared budget, or compile for "
              "another --chip)";
      return failure();
    }
  manifest.source = s.options.inputPath;
  manifest.chip = s.options.chip;
  s.progress(formatv("@{0}: {1} kernels, {2} buffers", name,
                     manifest.kernels.size(), manifest.buffers.size())
                 .str());

  FailureOr<OwningOpRef<ModuleOp>> single = extractFunction(module, name);
  if (failed(single))
    return failure();
  func::FuncOp singleHost = (*single)->lookupSymbol<func::FuncOp>(name);
  FailureOr<std::string> ptx = lowerToPtx(s, **single, singleHost);
  if (failed(ptx))
    return failure();

  std::string base = fileBase(name);
  manifest.ptxFile = base + ".ptx";
  if (failed(s.writeFile(manifest.ptxFile,
                         [&](raw_ostream &os) { os << *ptx; })))
    return failure();
  if (!s.ptxas.empty()) {
    if (failed(runPtxas(s, manifest, base)))
      return failure();
    if (s.options.runNvdisasm && failed(runNvdisasm(s, manifest, base)))
      return failure();
  }
  if (failed(s.writeFile(base + ".json", [&](raw_ostream &os) {
        writeManifestJson(manifest, os);
      })))
    return failure();
  return s.writeFile(base + ".h",
                     [&](raw_ostream &os) { writeHeader(manifest, os); });
}

LogicalResult compileSource(Session &s, llvm::SourceMgr &sourceMgr,
                            MLIRContext &context);

LogicalResult checkOptions(Session &s) {
  const CompileOptions &o = s.options;
  if (!llvm::is_contained(supportedChips(), o.chip))
    return s.error("--chip='" + o.chip + "' is not a supported chip " +
                   "(supported: " + join(supportedChips(), ", ") + ")");
  if (o.optLevel > 3)
    return s.error("--opt-level=" + Twine(o.optLevel) +
                   " is out of range (0-3)");
  if (!llvm::is_contained(motif::l2LoadPolicies(), o.l2LoadPolicy))
    return s.error("--l2-load-policy='" + o.l2LoadPolicy + "' is not one of " +
                   motif::l2LoadPolicyList());
  if (!o.fuseOptions.empty() && !o.fuseMaterialization)
    return s.error("--fuse-options needs --fuse-materialization");
  if (o.replanSpills && !o.fuseMaterialization)
    return s.error("--replan-spills needs --fuse-materialization (it changes "
                   "the pass's register budget)");
  if (o.replanSpills && !o.runPtxas)
    return s.error("--replan-spills needs ptxas (it reads the spills off "
                   "`ptxas -v`); drop --no-ptxas");
  if (o.replanSpills && o.verifyDiagnostics)
    return s.error("--replan-spills does not apply with --verify-diagnostics");
  if (o.function && o.function->empty())
    return s.error("--function= is empty: name a host function, or leave "
                   "--function out to compile every one");
  if (o.outputDir.empty())
    return s.error("no output folder (-o OUTDIR)");
  // A tool path that would never be used is a mistake, not a no-op.
  if (!o.runPtxas && !o.ptxasPath.empty())
    return s.error("--ptxas=" + o.ptxasPath +
                   " does not apply with --no-ptxas (ptxas is not run)");
  if (!o.nvdisasmPath.empty() && (!o.runPtxas || !o.runNvdisasm))
    return s.error("--nvdisasm=" + o.nvdisasmPath + " does not apply with " +
                   (o.runPtxas ? "--no-sass" : "--no-ptxas") +
                   " (nvdisasm is not run)");
  if (o.fuseMaterialization) {
    // The option string is checked now, before the input is read.
    OpPassManager scratch(ModuleOp::getOperationName());
    if (failed(addFusePass(s, scratch)))
      return failure();
  }
  if (!o.lowerOptions.empty())
    if (const PassInfo *convert = PassInfo::lookup("convert-motif-to-gpu")) {
      OpPassManager scratch(ModuleOp::getOperationName());
      if (failed(addConvertPass(s, *convert, scratch)))
        return failure();
    }
  return success();
}

} // namespace

ArrayRef<StringRef> supportedChips() {
  static const StringRef chips[] = {"sm_80", "sm_90", "sm_90a", "sm_100",
                                    "sm_100a"};
  return chips;
}

void registerCompileDependencies(DialectRegistry &registry) {
  motif::registerAllDialects(registry);
  registry.insert<cf::ControlFlowDialect, index::IndexDialect, ub::UBDialect>();
  // convert-gpu-to-nvvm lowers every other dialect through its
  // ConvertToLLVMPatternInterface, which must be registered.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  registerConvertNVVMToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);
  vector::registerConvertVectorToLLVMInterface(registry);
  // nvvm-attach-target and gpu-module-to-binary: the #nvvm.target
  // serialization and the translation of the kernels to LLVM IR.
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
}

namespace {
/// One compilation of the input, from parsing to the last output file.
LogicalResult compileOnce(Session &s) {
  const CompileOptions &options = s.options;
  raw_ostream &errs = s.errs;
  DialectRegistry registry;
  registerCompileDependencies(registry);
  MLIRContext context(registry);
  // Located errors name the line; dumping the whole operation would bury it.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  std::optional<SourceMgrDiagnosticHandler> diagnostics;
  std::optional<SourceMgrDiagnosticVerifierHandler> verifier;
  if (options.verifyDiagnostics)
    verifier.emplace(sourceMgr, &context, errs);
  else
    diagnostics.emplace(sourceMgr, &context, errs);
  // fuse-materialization explains every decision as a remark: shown with -v.
  ScopedDiagnosticHandler quietRemarks(&context, [&](Diagnostic &diag) {
    return success(diag.getSeverity() == DiagnosticSeverity::Remark &&
                   !options.verbose);
  });

  std::string message;
  std::unique_ptr<MemoryBuffer> input =
      openInputFile(options.inputPath, &message);
  // openInputFile's message already names the file.
  if (!input)
    return s.error(message);
  sourceMgr.AddNewSourceBuffer(std::move(input), SMLoc());
  LogicalResult result = compileSource(s, sourceMgr, context);
  // With --verify-diagnostics, success means: exactly the expected
  // diagnostics were emitted (whatever the compilation's own outcome).
  if (verifier)
    return verifier->verify();
  return result;
}
} // namespace

LogicalResult compile(const CompileOptions &options, raw_ostream &errs) {
  Session s{options, errs, "", ""};
  // Pass registration is global; fuse-materialization and
  // convert-motif-to-gpu are found by name.
  static std::once_flag registered;
  std::call_once(registered, [] { motif::registerAllPasses(); });
  if (failed(checkOptions(s)))
    return failure();
  if (!options.replanSpills)
    return compileOnce(s);

  // ptxas feedback into the residency decision: while a kernel spills,
  // fuse again with the register budget at half the largest value a
  // spilling kernel keeps in registers (or half the last budget if smaller).
  for (int round = 0;; ++round) {
    s.spills.clear();
    s.spillingSlots = 0;
    if (failed(compileOnce(s)))
      return failure();
    std::string budget =
        s.registerBudget ? "register-budget=" + std::to_string(*s.registerBudget)
                         : std::string("the register budget of --fuse-options");
    if (s.spills.empty()) {
      if (round)
        s.note(budget + ": no kernel spills (re-planned " +
               std::to_string(round) + " time" + (round > 1 ? "s" : "") + ")");
      return success();
    }
    if (s.spillingSlots == 0 || (s.registerBudget && *s.registerBudget == 0)) {
      for (const std::string &line : s.spills)
        s.warning(line + "; re-planning cannot help at " + budget +
                  " (fusion keeps no register value there)");
      return success();
    }
    // Half the largest value a spilling kernel keeps in registers: that
    // value (and any as large) leaves registers in the next plan.
    int64_t next = std::min(s.registerBudget.value_or(s.spillingSlots),
                            s.spillingSlots) / 2;
    for (const std::string &line : s.spills)
      s.note(line);
    s.note("re-planning: fuse-materialization with register-budget=" +
           std::to_string(next) + " (was " + budget + ")");
    s.registerBudget = next;
  }
}

namespace {
LogicalResult compileSource(Session &s, llvm::SourceMgr &sourceMgr,
                            MLIRContext &context) {
  const CompileOptions &options = s.options;
  // Input the upstream parser would abort on (motif/InputGuard.h).
  if (failed(checkInputText(sourceMgr, sourceMgr.getMainFileID())))
    return failure();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return failure();
  s.progress("parsed " + options.inputPath);

  if (failed(lowerMotifToGPU(s, *module)))
    return failure();

  SmallVector<func::FuncOp> hosts;
  for (auto func : module->getOps<func::FuncOp>())
    if (func->hasAttr(kHostAttr) &&
        (!options.function || func.getSymName() == *options.function))
      hosts.push_back(func);
  if (hosts.empty()) {
    if (options.function) {
      SmallVector<std::string> available;
      for (auto func : module->getOps<func::FuncOp>())
        if (func->hasAttr(kHostAttr))
          available.push_back("@" + func.getSymName().str());
      std::string why;
      if (module->lookupSymbol<func::FuncOp>(*options.function))
        why = "; @" + *options.function + " has no 'motif.host' attribute";
      return s.error(options.inputPath + ": --function=" + *options.function +
                     " names no host function (host functions: " +
                     (available.empty() ? std::string("none")
                                        : join(available, ", ")) +
                     ")" + why);
    }
    return s.error(options.inputPath +
                   ": no host function (a func.func with the 'motif.host' "
                   "attribute, as convert-motif-to-gpu produces; see "
                   "docs/abi.md)");
  }

  // Every host function writes <name>.* with names of its own in the header
  // (MOTIF_<NAME>_..., motif_<name>_...): two that map to the same ones would
  // overwrite each other's files, or clash when their headers are included
  // together.
  StringMap<func::FuncOp> byFile, byMacro;
  for (func::FuncOp host : hosts) {
    std::string base = fileBase(host.getSymName());
    std::string macro = StringRef(sanitizeIdentifier(host.getSymName())).upper();
    for (auto [table, key, what] :
         {std::tuple(&byFile, base, "the same files (" + base + ".*)"),
          std::tuple(&byMacro, macro,
                     "the same header names (MOTIF_" + macro + "_...)")}) {
      auto [it, inserted] = table->try_emplace(key, host);
      if (!inserted)
        return host.emitError()
               << "host function @" << host.getSymName() << " would write "
               << what << " as @" << it->second.getSymName()
               << "; rename one, or compile one with --function";
    }
  }

  // Tools are looked up once, before any output is written.
  if (options.runPtxas) {
    Expected<std::string> ptxas = findPtxas(options.ptxasPath);
    if (!ptxas)
      return s.error(toString(ptxas.takeError()));
    s.ptxas = *ptxas;
    s.progress("ptxas: " + s.ptxas);
  }
  Expected<std::string> libdevice =
      findLibdevice(options.libdevicePath, s.ptxas);
  if (!libdevice)
    return s.error(toString(libdevice.takeError()));
  s.libdevice = *libdevice;
  s.progress("libdevice: " + s.libdevice);

  if (std::error_code ec = sys::fs::create_directories(options.outputDir))
    return s.error("cannot create output folder '" + options.outputDir +
                   "': " + ec.message());
  for (func::FuncOp host : hosts)
    if (failed(compileFunction(s, *module, host)))
      return failure();
  return success();
}
} // namespace

} // namespace driver
} // namespace motif
} // namespace mlir
