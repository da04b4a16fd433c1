//===- Nvdisasm.cpp - Locating and running nvdisasm -----------------------===//

#include "motif/Sass/Nvdisasm.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <optional>

using namespace llvm;

namespace motif {
namespace sass {

Expected<std::string> findNvdisasm() {
  std::string searched;
  if (std::optional<std::string> env = sys::Process::GetEnv("MOTIF_NVDISASM")) {
    if (!env->empty()) {
      if (sys::fs::can_execute(*env))
        return *env;
      return createStringError(inconvertibleErrorCode(),
                               "error: MOTIF_NVDISASM=%s is not an executable "
                               "file",
                               env->c_str());
    }
  }
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"}) {
    std::optional<std::string> root = sys::Process::GetEnv(var);
    if (!root || root->empty()) {
      searched += std::string(" $") + var + " (unset),";
      continue;
    }
    SmallString<256> candidate(*root);
    sys::path::append(candidate, "bin", "nvdisasm");
    if (sys::fs::can_execute(candidate))
      return std::string(candidate);
    searched += " " + std::string(candidate) + ",";
  }
  if (ErrorOr<std::string> onPath = sys::findProgramByName("nvdisasm"))
    return *onPath;
  searched += " PATH";
  return createStringError(
      inconvertibleErrorCode(),
      "error: cannot find nvdisasm to disassemble the cubin (searched "
      "$MOTIF_NVDISASM (unset),%s); set MOTIF_NVDISASM to an nvdisasm from "
      "CUDA >= 12 (e.g. from the nvidia-cuda-nvdisasm wheel), or pass a "
      "SASS listing instead",
      searched.c_str());
}

Expected<std::string> disassembleCubin(StringRef cubinPath) {
  Expected<std::string> nvdisasm = findNvdisasm();
  if (!nvdisasm)
    return createStringError(inconvertibleErrorCode(),
                             cubinPath + ": " + toString(nvdisasm.takeError()));

  SmallString<128> outPath, errPath;
  if (std::error_code ec =
          sys::fs::createTemporaryFile("motif-sass", "sass", outPath))
    return createStringError(ec, "error: cannot create a temporary file: %s",
                             ec.message().c_str());
  FileRemover removeOut(outPath);
  if (std::error_code ec =
          sys::fs::createTemporaryFile("motif-sass", "err", errPath))
    return createStringError(ec, "error: cannot create a temporary file: %s",
                             ec.message().c_str());
  FileRemover removeErr(errPath);

  std::string cubin = cubinPath.str();
  SmallVector<StringRef, 4> args = {*nvdisasm, "-c", cubin};
  std::optional<StringRef> redirects[] = {std::nullopt, StringRef(outPath),
                                          StringRef(errPath)};
  std::string execError;
  int status = sys::ExecuteAndWait(*nvdisasm, args, /*Env=*/std::nullopt,
                                   redirects, /*SecondsToWait=*/120,
                                   /*MemoryLimit=*/0, &execError);
  if (status != 0) {
    std::string stderrText;
    if (ErrorOr<std::unique_ptr<MemoryBuffer>> err =
            MemoryBuffer::getFile(errPath))
      stderrText = (*err)->getBuffer().trim().str();
    std::string message = cubin + ": error: '" + *nvdisasm +
                          " -c' failed (status " + std::to_string(status) + ")";
    if (!execError.empty())
      message += ": " + execError;
    if (!stderrText.empty())
      message += ": " + stderrText;
    return createStringError(inconvertibleErrorCode(), message);
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> out = MemoryBuffer::getFile(outPath);
  if (!out)
    return createStringError(out.getError(),
                             "error: cannot read nvdisasm output: %s",
                             out.getError().message().c_str());
  return (*out)->getBuffer().str();
}

} // namespace sass
} // namespace motif
