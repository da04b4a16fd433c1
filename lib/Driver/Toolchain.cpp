//===- Toolchain.cpp - Finding and running the CUDA tools -----------------===//
//
// ptxas, nvdisasm and libdevice come from a CUDA toolkit ($CUDA_HOME), the
// PATH, /usr/local/cuda, or the PyPI wheels (nvidia-cuda-nvcc,
// nvidia-cuda-nvdisasm install site-packages/nvidia/cu13/{bin,nvvm}).
// Tools run through llvm::sys::ExecuteAndWait, never a shell.
//
//===----------------------------------------------------------------------===//

#include "motif/Driver/Toolchain.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <optional>

using namespace llvm;

namespace mlir {
namespace motif {
namespace driver {

namespace {

/// A search that remembers where it looked, for the error message.
class Search {
public:
  /// Returns true (and records `path`) when `path` is an existing file that
  /// passes `accept`.
  template <typename Accept>
  bool tryPath(const Twine &path, Accept accept) {
    std::string p = path.str();
    if (accept(p)) {
      found = p;
      return true;
    }
    looked.push_back(p);
    return false;
  }
  void note(const Twine &where) { looked.push_back(where.str()); }
  std::string lookedList() const { return join(looked, ", "); }

  std::string found;
  SmallVector<std::string> looked;
};

bool isExecutable(const std::string &p) {
  return sys::fs::exists(p) && !sys::fs::is_directory(p) &&
         sys::fs::can_execute(p);
}

bool isRegularFile(const std::string &p) { return sys::fs::is_regular_file(p); }

/// An explicitly given tool: a path, or a bare name looked up on PATH.
std::optional<std::string> resolveExplicitTool(StringRef given) {
  if (!given.contains('/')) {
    if (ErrorOr<std::string> onPath = sys::findProgramByName(given))
      return *onPath;
    return std::nullopt;
  }
  if (isExecutable(given.str()))
    return given.str();
  return std::nullopt;
}

/// site-packages folders of python3 (purelib, platlib), where the NVIDIA
/// wheels install. Empty when python3 is missing or fails.
SmallVector<std::string> pythonSitePackages() {
  static std::optional<SmallVector<std::string>> cached;
  if (cached)
    return *cached;
  cached.emplace();
  ErrorOr<std::string> python = sys::findProgramByName("python3");
  if (!python)
    return *cached;
  Expected<ToolRun> run = runTool(
      *python, {"-c", "import sysconfig; p = sysconfig.get_paths(); "
                      "print(p['purelib']); print(p['platlib'])"});
  if (!run) {
    consumeError(run.takeError());
    return *cached;
  }
  if (run->exitCode != 0)
    return *cached;
  SmallVector<StringRef> lines;
  StringRef(run->stdoutText).split(lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    std::string dir = line.trim().str();
    if (!dir.empty() && !llvm::is_contained(*cached, dir))
      cached->push_back(dir);
  }
  return *cached;
}

/// Tries `site-packages/nvidia/*/<relative>` for every site-packages folder,
/// newest CUDA major first (names sort: cu13 > cu12).
template <typename Accept>
bool tryWheels(Search &search, StringRef relative, Accept accept) {
  for (const std::string &base : pythonSitePackages()) {
    SmallString<256> nvidia(base);
    sys::path::append(nvidia, "nvidia");
    std::error_code ec;
    SmallVector<std::string> subdirs;
    for (sys::fs::directory_iterator it(nvidia, ec), end; !ec && it != end;
         it.increment(ec))
      subdirs.push_back(it->path());
    llvm::sort(subdirs, std::greater<std::string>());
    for (const std::string &dir : subdirs) {
      SmallString<256> candidate(dir);
      sys::path::append(candidate, relative);
      if (search.tryPath(candidate, accept))
        return true;
    }
    search.note(Twine(nvidia) + "/*/" + relative);
  }
  return false;
}

/// $CUDA_HOME and $CUDA_PATH: tries `<root>/<relative>` for each.
template <typename Accept>
bool tryCudaRoots(Search &search, StringRef relative, Accept accept) {
  for (const char *var : {"CUDA_HOME", "CUDA_PATH"}) {
    std::optional<std::string> root = sys::Process::GetEnv(var);
    if (!root || root->empty()) {
      search.note(Twine("$") + var + " (unset)");
      continue;
    }
    SmallString<256> candidate(*root);
    sys::path::append(candidate, relative);
    if (search.tryPath(candidate, accept))
      return true;
  }
  return false;
}

/// The common search for a CUDA executable after any explicit path.
bool searchCudaTool(Search &search, StringRef name) {
  SmallString<32> relative("bin");
  sys::path::append(relative, name);
  if (tryCudaRoots(search, relative, isExecutable))
    return true;
  if (ErrorOr<std::string> onPath = sys::findProgramByName(name)) {
    search.found = *onPath;
    return true;
  }
  search.note("PATH");
  if (search.tryPath("/usr/local/cuda/bin/" + name, isExecutable))
    return true;
  return tryWheels(search, relative, isExecutable);
}

} // namespace

Expected<std::string> findPtxas(StringRef explicitPath) {
  if (!explicitPath.empty()) {
    if (std::optional<std::string> tool = resolveExplicitTool(explicitPath))
      return *tool;
    return createStringError(
        inconvertibleErrorCode(),
        "ptxas not found: --ptxas=" + explicitPath +
            " is not an executable file; install the CUDA toolkit (or `pip "
            "install nvidia-cuda-nvcc`), or pass --no-ptxas for PTX only");
  }
  Search search;
  if (searchCudaTool(search, "ptxas"))
    return search.found;
  return createStringError(
      inconvertibleErrorCode(),
      "ptxas not found (looked in: " + search.lookedList() +
          "); install the CUDA toolkit and set CUDA_HOME (or `pip install "
          "nvidia-cuda-nvcc`), pass --ptxas=PATH, or pass --no-ptxas for "
          "PTX only");
}

Expected<std::string> findNvdisasm(StringRef explicitPath,
                                   bool &explicitRequest) {
  explicitRequest = false;
  std::string chosen;
  std::string from;
  if (!explicitPath.empty()) {
    chosen = explicitPath.str();
    from = "--nvdisasm=" + chosen;
  } else if (std::optional<std::string> env =
                 sys::Process::GetEnv("MOTIF_NVDISASM");
             env && !env->empty()) {
    chosen = *env;
    from = "MOTIF_NVDISASM=" + chosen;
  }
  if (!chosen.empty()) {
    explicitRequest = true;
    if (std::optional<std::string> tool = resolveExplicitTool(chosen))
      return *tool;
    return createStringError(inconvertibleErrorCode(),
                             "nvdisasm not found: " + from +
                                 " is not an executable file");
  }
  Search search;
  search.note("$MOTIF_NVDISASM (unset)");
  if (searchCudaTool(search, "nvdisasm"))
    return search.found;
  return createStringError(
      inconvertibleErrorCode(),
      "nvdisasm not found (looked in: " + search.lookedList() +
          "); `pip install nvidia-cuda-nvdisasm` or set MOTIF_NVDISASM");
}

Expected<std::string> findLibdevice(StringRef explicitPath,
                                    StringRef ptxasPath) {
  if (!explicitPath.empty()) {
    if (!isRegularFile(explicitPath.str()))
      return createStringError(inconvertibleErrorCode(),
                               "libdevice not found: --libdevice=" +
                                   explicitPath + " is not a file");
    // Checked here, before the pipeline runs, so the error names the flag.
    ErrorOr<std::unique_ptr<MemoryBuffer>> readable =
        MemoryBuffer::getFile(explicitPath, /*IsText=*/false,
                              /*RequiresNullTerminator=*/false);
    if (!readable)
      return createStringError(inconvertibleErrorCode(),
                               "--libdevice=" + explicitPath +
                                   " cannot be read: " +
                                   readable.getError().message());
    return explicitPath.str();
  }
  const char *relative = "nvvm/libdevice/libdevice.10.bc";
  Search search;
  if (tryCudaRoots(search, relative, isRegularFile))
    return search.found;
  if (!ptxasPath.empty()) {
    // <root>/bin/ptxas -> <root>/nvvm/libdevice/libdevice.10.bc
    SmallString<256> real;
    if (sys::fs::real_path(ptxasPath, real))
      real = ptxasPath;
    SmallString<256> root = sys::path::parent_path(sys::path::parent_path(real));
    sys::path::append(root, relative);
    if (search.tryPath(root, isRegularFile))
      return search.found;
  }
  if (search.tryPath(Twine("/usr/local/cuda/") + relative, isRegularFile))
    return search.found;
  if (tryWheels(search, relative, isRegularFile))
    return search.found;
  return createStringError(
      inconvertibleErrorCode(),
      Twine("libdevice not found (looked in: ") + search.lookedList() +
          "); install the CUDA toolkit and set CUDA_HOME, or pass "
          "--libdevice=PATH/libdevice.10.bc");
}

Expected<ToolRun> runTool(StringRef program, ArrayRef<std::string> args,
                          StringRef stdoutFile) {
  SmallString<128> outPath, errPath;
  std::optional<FileRemover> removeOut;
  if (stdoutFile.empty()) {
    if (std::error_code ec =
            sys::fs::createTemporaryFile("motif-compile", "out", outPath))
      return createStringError(ec, "cannot create a temporary file: " +
                                       ec.message());
    removeOut.emplace(outPath);
  } else {
    // The redirect opens the file without truncating it (LLVM's Unix
    // ExecuteAndWait: O_WRONLY | O_CREAT): a shorter output would leave the
    // tail of an earlier, longer one behind.
    outPath = stdoutFile;
    if (std::error_code ec = sys::fs::remove(outPath))
      return createStringError(ec, "cannot replace '" + outPath.str() +
                                       "': " + ec.message());
  }
  if (std::error_code ec =
          sys::fs::createTemporaryFile("motif-compile", "err", errPath))
    return createStringError(ec,
                             "cannot create a temporary file: " + ec.message());
  FileRemover removeErr(errPath);

  SmallVector<StringRef> argv = {program};
  for (const std::string &a : args)
    argv.push_back(a);
  std::optional<StringRef> redirects[] = {StringRef(""), StringRef(outPath),
                                          StringRef(errPath)};
  std::string execError;
  bool failedToStart = false;
  int status = sys::ExecuteAndWait(program, argv, /*Env=*/std::nullopt,
                                   redirects, /*SecondsToWait=*/0,
                                   /*MemoryLimit=*/0, &execError,
                                   &failedToStart);
  if (failedToStart || status == -1)
    return createStringError(inconvertibleErrorCode(),
                             "cannot run " + program + ": " + execError);
  ToolRun run;
  run.exitCode = status;
  if (status < 0 && !execError.empty())
    run.stderrText = execError + "\n";
  auto slurp = [](StringRef path) -> std::string {
    ErrorOr<std::unique_ptr<MemoryBuffer>> buf = MemoryBuffer::getFile(path);
    return buf ? (*buf)->getBuffer().str() : std::string();
  };
  if (stdoutFile.empty())
    run.stdoutText = slurp(outPath);
  run.stderrText += slurp(errPath);
  return run;
}

} // namespace driver
} // namespace motif
} // namespace mlir
