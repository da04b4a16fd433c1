//===- Toolchain.h - Finding and running the CUDA tools ---------*- C++ -*-===//

#ifndef MOTIF_DRIVER_TOOLCHAIN_H
#define MOTIF_DRIVER_TOOLCHAIN_H

#include "mlir/Support/LLVM.h"

#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
namespace motif {
namespace driver {

/// Finds ptxas: `explicitPath` when given, then $CUDA_HOME/bin, $CUDA_PATH/bin,
/// PATH, /usr/local/cuda/bin, then the PyPI wheels (site-packages/nvidia/*/bin).
/// The error names every place searched and how to get the tool.
llvm::Expected<std::string> findPtxas(StringRef explicitPath);

/// Finds nvdisasm: `explicitPath`, $MOTIF_NVDISASM, $CUDA_HOME/bin,
/// $CUDA_PATH/bin, PATH, /usr/local/cuda/bin, then the PyPI wheels.
/// `explicitRequest` is set when the path came from the flag or
/// $MOTIF_NVDISASM (a miss is then an error, not a warning).
llvm::Expected<std::string> findNvdisasm(StringRef explicitPath,
                                         bool &explicitRequest);

/// Finds libdevice.10.bc: `explicitPath`, then nvvm/libdevice under
/// $CUDA_HOME, $CUDA_PATH, the folder above ptxas (`ptxasPath`, may be
/// empty), /usr/local/cuda and the PyPI wheels.
llvm::Expected<std::string> findLibdevice(StringRef explicitPath,
                                          StringRef ptxasPath);

/// The result of running a tool.
struct ToolRun {
  int exitCode = 0;
  std::string stdoutText;
  std::string stderrText;
};

/// Runs `program args...` (args exclude argv[0]) without a shell. When
/// `stdoutFile` is non-empty, standard output goes there instead of into
/// the result. An error means the program could not be started.
llvm::Expected<ToolRun> runTool(StringRef program, ArrayRef<std::string> args,
                                StringRef stdoutFile = "");

} // namespace driver
} // namespace motif
} // namespace mlir

#endif // MOTIF_DRIVER_TOOLCHAIN_H
