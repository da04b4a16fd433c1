//===- Nvdisasm.h - Locating and running nvdisasm ---------------*- C++ -*-===//

#ifndef MOTIF_SASS_NVDISASM_H
#define MOTIF_SASS_NVDISASM_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace motif {
namespace sass {

/// Finds nvdisasm: $MOTIF_NVDISASM, then $CUDA_HOME/bin, $CUDA_PATH/bin,
/// then PATH. The error names every place that was searched.
llvm::Expected<std::string> findNvdisasm();

/// Runs `nvdisasm -c CUBIN` and returns its standard output. The error
/// carries nvdisasm's exit status and standard error.
llvm::Expected<std::string> disassembleCubin(llvm::StringRef cubinPath);

} // namespace sass
} // namespace motif

#endif // MOTIF_SASS_NVDISASM_H
