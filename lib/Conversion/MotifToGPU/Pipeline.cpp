//===- Pipeline.cpp - motif-lower-to-nvvm: motif to a gpu.binary with PTX -===//
//
// The named pipeline: convert-motif-to-gpu, then the upstream NVVM passes
// (docs/lowering.md). Every option is checked before any pass is built, and
// the passes are built as objects from upstream option structs, so no option
// value is ever pasted into pipeline text and parsed again.
//
//===----------------------------------------------------------------------===//
#include "motif/Conversion/Passes.h"

#include "KernelEmitter.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/NVGPUToNVVM/NVGPUToNVVM.h"
#include "mlir/Conversion/NVVMToLLVM/NVVMToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

//===----------------------------------------------------------------------===//

namespace {
constexpr llvm::StringLiteral kPipelineName = "motif-lower-to-nvvm";

/// The chips the resource model (lib/Analysis/ResourceModel.cpp) knows.
constexpr llvm::StringLiteral kChips[] = {"sm_80", "sm_90", "sm_90a", "sm_100",
                                          "sm_100a"};

/// The spellings gpu-module-to-binary accepts for its `format` option
/// (mlir/lib/Dialect/GPU/Transforms/ModuleToBinary.cpp): isa is PTX.
constexpr llvm::StringLiteral kFormats[] = {
    "isa", "assembly", "bin", "binary", "fatbin", "fatbinary", "llvm",
    "offloading"};

struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target chip: sm_80, sm_90, sm_90a, sm_100 or sm_100a"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<int> optLevel{
      *this, "O", llvm::cl::desc("NVPTX optimization level (0-3)"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("libdevice.10.bc to link (math functions); must be a "
                     "readable file"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("gpu-module-to-binary format: isa (PTX), bin, fatbin or "
                     "llvm (and their long names assembly, binary, fatbinary, "
                     "offloading)"),
      llvm::cl::init("isa")};
  PassOptions::Option<bool> reverseRereads{
      *this, "reverse-rereads",
      llvm::cl::desc("convert-motif-to-gpu's reverse-rereads: walk an "
                     "elementwise motif re-reading a global tensor in reverse "
                     "instance order"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> groupStores{
      *this, "group-stores",
      llvm::cl::desc("convert-motif-to-gpu's group-stores: a map's "
                     "global stores 16 bytes at a time, so they merge into "
                     "128-bit stores"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> clusterPush{
      *this, "cluster-push",
      llvm::cl::desc("convert-motif-to-gpu's cluster-push: reduction "
                     "partials pushed into every CTA of a cluster, no exit "
                     "barrier (false: pulled, with an exit barrier)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> clusterMbarrier{
      *this, "cluster-mbarrier",
      llvm::cl::desc("convert-motif-to-gpu's cluster-mbarrier: a cluster "
                     "exchange through st.async and an mbarrier of each "
                     "receiving CTA instead of a cluster barrier"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> gridGroup{
      *this, "grid-group",
      llvm::cl::desc("convert-motif-to-gpu's grid-group: blocks in groups of "
                     "this many along the second-to-last grid dim (0: "
                     "row-major; -1: auto, 8 on wgmma contractions)"),
      llvm::cl::init(-1)};
  PassOptions::Option<bool> mmaFragmentPipeline{
      *this, "mma-fragment-pipeline",
      llvm::cl::desc("convert-motif-to-gpu's mma-fragment-pipeline: mma.sync "
                     "fragments loaded one slice of k ahead"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> onlineWgmma{
      *this, "online-wgmma",
      llvm::cl::desc("convert-motif-to-gpu's online-wgmma: a half-precision "
                     "online contraction's scores on wgmma (sm_90a)"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> onlineWgmmaPV{
      *this, "online-wgmma-pv",
      llvm::cl::desc("convert-motif-to-gpu's online-wgmma-pv: with the "
                     "scores on wgmma, P V on wgmma too (auto, true, false)"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> onlineOverlap{
      *this, "online-overlap",
      llvm::cl::desc("convert-motif-to-gpu's online-overlap: with the scores "
                     "on wgmma, P V one key tile behind them (auto, true, "
                     "false)"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> onlinePingpong{
      *this, "online-pingpong",
      llvm::cl::desc("convert-motif-to-gpu's online-pingpong: two "
                     "warpgroups take turns issuing their wgmmas (auto, "
                     "true, false)"),
      llvm::cl::init("auto")};
  PassOptions::Option<std::string> onlineMbarrier{
      *this, "online-mbarrier",
      llvm::cl::desc("convert-motif-to-gpu's online-mbarrier: the flash "
                     "form's staged tiles tracked by mbarriers (auto, true, "
                     "false)"),
      llvm::cl::init("auto")};
  PassOptions::Option<bool> onlinePRegisters{
      *this, "online-p-registers",
      llvm::cl::desc("convert-motif-to-gpu's online-p-registers: with P V on "
                     "wgmma, P as the wgmma's register A operand"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> wgmmaInFlight{
      *this, "wgmma-in-flight",
      llvm::cl::desc("convert-motif-to-gpu's wgmma-in-flight: keep a wgmma "
                     "group in flight across the next staged step"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> l2LoadPolicy{
      *this, "l2-load-policy",
      llvm::cl::desc("motif-ptx-l2-load-policy's policy on the read-only "
                     "global loads of the PTX (format isa): evict_last, "
                     "evict_first, evict_normal, none"),
      llvm::cl::init("evict_last")};
  PassOptions::Option<bool> preciseMath{
      *this, "precise-math",
      llvm::cl::desc("motif-precise-math: math.sqrt of f32/f16/bf16 as "
                     "sqrt.rn.f32 (nvcc's -prec-sqrt=true) and 16-bit "
                     "math.fma rounded once; false leaves libdevice's "
                     "sqrt.approx.f32 and the f32 fma rounded twice"),
      llvm::cl::init(true)};
};

using ErrorHandler = function_ref<LogicalResult(const Twine &)>;

/// Checks every option; the first bad one is reported through `error`,
/// naming the option and its value.
LogicalResult checkOptions(const LowerToNVVMOptions &opts, ErrorHandler error) {
  const std::string &chip = opts.chip.getValue();
  if (!llvm::is_contained(kChips, chip))
    return error(Twine(kPipelineName) + ": chip='" + chip +
                 "' is not a supported chip (supported: " +
                 llvm::join(std::begin(kChips), std::end(kChips), ", ") + ")");
  int optLevel = opts.optLevel.getValue();
  if (optLevel < 0 || optLevel > 3)
    return error(Twine(kPipelineName) + ": O=" + Twine(optLevel) +
                 " is out of range (0-3)");
  for (const auto *o :
       {&opts.onlineWgmmaPV, &opts.onlineOverlap, &opts.onlinePingpong,
        &opts.onlineMbarrier})
    if (!motif::detail::parseAutoChoice(o->getValue()))
      return error(Twine(kPipelineName) + ": " + o->getArgStr() + "='" +
                   o->getValue() + "' is not one of auto, true, false");
  if (opts.gridGroup.getValue() < -1)
    return error(Twine(kPipelineName) + ": grid-group=" +
                 Twine(opts.gridGroup.getValue()) +
                 " is not a group size (0 or 1: row-major, N > 1: groups of "
                 "N block rows, -1: auto)");
  const std::string &l2 = opts.l2LoadPolicy.getValue();
  if (!llvm::is_contained(motif::l2LoadPolicies(), l2))
    return error(Twine(kPipelineName) + ": l2-load-policy='" + l2 +
                 "' is not one of " + motif::l2LoadPolicyList());
  const std::string &format = opts.format.getValue();
  if (!llvm::is_contained(kFormats, format))
    return error(Twine(kPipelineName) + ": format='" + format +
                 "' is not a gpu-module-to-binary format (expected one of " +
                 llvm::join(std::begin(kFormats), std::end(kFormats), ", ") + ")");
  const std::string &libdevice = opts.libdevice.getValue();
  if (!libdevice.empty()) {
    if (!llvm::sys::fs::is_regular_file(libdevice))
      return error(Twine(kPipelineName) + ": libdevice='" + libdevice +
                   "' is not an existing file");
    int fd;
    if (std::error_code ec = llvm::sys::fs::openFileForRead(libdevice, fd))
      return error(Twine(kPipelineName) + ": libdevice='" + libdevice +
                   "' cannot be read: " + ec.message());
    llvm::sys::Process::SafelyCloseFileDescriptor(fd);
  }
  return success();
}

} // namespace

void mlir::motif::addKernelToLLVMPasses(OpPassManager &kernels,
                                        bool preciseMath) {
  // Tensor-core contractions emit nvgpu ops (cp.async, ldmatrix, mma.sync)
  // and nvvm.mma.sync; nothing else does, so the two passes are no-ops there.
  kernels.addPass(createConvertNVGPUToNVVMPass());
  // Before the canonicalizer folds a math op of a constant with the host's
  // libm (motif-device-math).
  kernels.addPass(motif::createDeviceMath());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createSCFToControlFlowPass());
  if (preciseMath)
    kernels.addPass(motif::createPreciseMath());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  toNVVM.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  kernels.addPass(createConvertNVVMToLLVMPass());
}

namespace {
/// The pipeline from checked options, as pass objects.
void buildPipeline(OpPassManager &pm, const LowerToNVVMOptions &opts) {
  motif::ConvertMotifToGPUOptions convert;
  convert.reverseRereads = opts.reverseRereads.getValue();
  convert.groupStores = opts.groupStores.getValue();
  convert.clusterPush = opts.clusterPush.getValue();
  convert.clusterMbarrier = opts.clusterMbarrier.getValue();
  convert.chip = opts.chip.getValue();
  convert.wgmmaInFlight = opts.wgmmaInFlight.getValue();
  convert.mmaFragmentPipeline = opts.mmaFragmentPipeline.getValue();
  convert.gridGroup = opts.gridGroup.getValue();
  convert.onlineWgmma = opts.onlineWgmma.getValue();
  convert.onlineWgmmaPV = opts.onlineWgmmaPV.getValue();
  convert.onlineOverlap = opts.onlineOverlap.getValue();
  convert.onlinePingpong = opts.onlinePingpong.getValue();
  convert.onlineMbarrier = opts.onlineMbarrier.getValue();
  convert.onlinePRegisters = opts.onlinePRegisters.getValue();
  pm.addPass(motif::createConvertMotifToGPU(convert));
  motif::addKernelToLLVMPasses(pm.nest<gpu::GPUModuleOp>(),
                               opts.preciseMath.getValue());
  pm.addPass(createReconcileUnrealizedCastsPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = opts.chip.getValue();
  target.optLevel = static_cast<unsigned>(opts.optLevel.getValue());
  if (!opts.libdevice.getValue().empty())
    target.linkLibs.push_back(opts.libdevice.getValue());
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(motif::createRaisePtxIsa());
  GpuModuleToBinaryPassOptions toBinary;
  toBinary.compilationTarget = opts.format.getValue();
  pm.addPass(createGpuModuleToBinaryPass(toBinary));
  // The policy is written into PTX text: other formats are left with a remark.
  motif::PtxL2LoadPolicyOptions l2;
  l2.policy = opts.l2LoadPolicy.getValue();
  pm.addPass(motif::createPtxL2LoadPolicy(l2));
}

LogicalResult buildFromText(OpPassManager &pm, StringRef text,
                            ErrorHandler error) {
  LowerToNVVMOptions opts;
  std::string parseErrors;
  llvm::raw_string_ostream parseErrorStream(parseErrors);
  if (failed(opts.parseFromString(text, parseErrorStream)))
    return error(Twine(kPipelineName) + ": invalid options '" + text + "'" +
                 (parseErrors.empty()
                      ? Twine("")
                      : ": " + StringRef(parseErrors).trim()));
  if (failed(checkOptions(opts, error)))
    return failure();
  buildPipeline(pm, opts);
  return success();
}
} // namespace

void mlir::motif::registerMotifPipelines() {
  registerPassPipeline(
      kPipelineName,
      "convert-motif-to-gpu, then the upstream NVVM pipeline to a gpu.binary "
      "(PTX with format=isa)",
      buildFromText,
      [](function_ref<void(const mlir::detail::PassOptions &)> optHandler) {
        optHandler(LowerToNVVMOptions());
      });
}
