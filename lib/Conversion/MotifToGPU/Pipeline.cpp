//===- Pipeline.cpp - motif-lower-to-nvvm: motif to a gpu.binary with PTX -===//
//
// The named pipeline: convert-motif-to-gpu, then the upstream NVVM passes
// (docs/lowering.md).
//
//===----------------------------------------------------------------------===//
#include "motif/Conversion/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

//===----------------------------------------------------------------------===//

namespace {
struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  PassOptions::Option<std::string> chip{*this, "chip",
                                        llvm::cl::desc("sm_80, sm_90, sm_100"),
                                        llvm::cl::init("sm_90")};
  PassOptions::Option<int> optLevel{*this, "O",
                                    llvm::cl::desc("NVPTX optimization level"),
                                    llvm::cl::init(3)};
  PassOptions::Option<std::string> libdevice{
      *this, "libdevice",
      llvm::cl::desc("libdevice.10.bc to link (math functions)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> format{
      *this, "format", llvm::cl::desc("gpu-module-to-binary format (isa: PTX)"),
      llvm::cl::init("isa")};
};
} // namespace

void mlir::motif::registerMotifPipelines() {
  PassPipelineRegistration<LowerToNVVMOptions>(
      "motif-lower-to-nvvm",
      "convert-motif-to-gpu, then the upstream NVVM pipeline to a gpu.binary "
      "(PTX with format=isa)",
      [](OpPassManager &pm, const LowerToNVVMOptions &opts) {
        std::string attach = "nvvm-attach-target{chip=" + opts.chip.getValue() +
                             " O=" + std::to_string(opts.optLevel.getValue());
        if (!opts.libdevice.getValue().empty())
          attach += " l=" + opts.libdevice.getValue();
        attach += "}";
        std::string pipeline =
            "convert-motif-to-gpu,gpu.module(canonicalize,cse,convert-scf-to-cf,"
            "convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1}),"
            "reconcile-unrealized-casts," +
            attach + ",gpu-module-to-binary{format=" + opts.format.getValue() +
            "}";
        if (failed(parsePassPipeline(pipeline, pm)))
          llvm::report_fatal_error("motif-lower-to-nvvm: bad pipeline");
      });
}
