//===- motif-sass.cpp - Read SASS as execution motifs ---------------------===//
//
// Argument handling only; the work is in lib/Sass.
//
//   motif-sass profile FILE [--kernel NAME] [--ptxas-report FILE] [--json]
//                           [--fail-on-hazard]
//   motif-sass diff A B [--kernel-a NAME] [--kernel-b NAME]
//                       [--ptxas-report-a FILE] [--ptxas-report-b FILE] [--json]
//   motif-sass parse FILE
//
//===----------------------------------------------------------------------===//

#include "motif/Sass/MotifProfile.h"
#include "motif/Sass/PtxasReport.h"
#include "motif/Sass/SassParser.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace motif::sass;

namespace {

const char *const usage =
    "OVERVIEW: motif-sass - read SASS as execution motifs\n"
    "\n"
    "USAGE:\n"
    "  motif-sass profile FILE [--kernel NAME] [--ptxas-report FILE] [--json]\n"
    "                          [--fail-on-hazard]\n"
    "  motif-sass diff A B [--kernel-a NAME] [--kernel-b NAME]\n"
    "                      [--ptxas-report-a FILE] [--ptxas-report-b FILE] "
    "[--json]\n"
    "  motif-sass parse FILE   (the parsed instructions, one per line)\n"
    "\n"
    "FILE is `nvdisasm -c` or `cuobjdump -sass` output, or a .cubin (run\n"
    "through nvdisasm: $MOTIF_NVDISASM, $CUDA_HOME/bin, PATH). '-' is stdin.\n"
    "--ptxas-report reads `ptxas -v` output for registers, smem and spills.\n"
    "--fail-on-hazard exits with status 2 when a shared-memory hazard is "
    "found.\n";

int fail(const Twine &message) {
  errs() << "motif-sass: error: " << message << "\n";
  return 1;
}

int fail(Error err) {
  int status = 1;
  handleAllErrors(std::move(err), [&](const ErrorInfoBase &info) {
    errs() << info.message() << "\n";
  });
  return status;
}

/// Splits arguments into positionals and `--name value` / `--flag` options.
struct Arguments {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;
  std::vector<std::string> flags;

  bool has(StringRef flag) const { return is_contained(flags, flag); }
  std::optional<std::string> get(StringRef name) const {
    auto it = values.find(name.str());
    if (it == values.end())
      return std::nullopt;
    return it->second;
  }
};

Error argumentError(const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           "motif-sass: error: " + message);
}

/// Options that name a kernel ("NAME" or "NAME@sm_90").
bool isKernelOption(StringRef name) { return name.starts_with("kernel"); }

/// Checks one option value: never empty (an empty value would silently mean
/// "not given", or match every kernel), and a kernel query has a name before
/// any '@' and an architecture after it.
Error checkValue(StringRef name, StringRef value) {
  if (value.empty())
    return argumentError("--" + name + "='' is empty: " +
                         (isKernelOption(name) ? "name a kernel"
                                               : "give a file"));
  if (isKernelOption(name) && value.contains('@')) {
    auto [kernel, arch] = value.split('@');
    if (kernel.empty())
      return argumentError("--" + name + "='" + value +
                           "' has no kernel name before '@'");
    if (arch.empty())
      return argumentError("--" + name + "='" + value +
                           "' has no architecture after '@' (NAME@sm_90)");
  }
  return Error::success();
}

Expected<Arguments> parseArguments(ArrayRef<const char *> argv,
                                   ArrayRef<StringRef> valueOptions,
                                   ArrayRef<StringRef> flagOptions) {
  Arguments args;
  for (size_t i = 0; i < argv.size(); ++i) {
    StringRef arg = argv[i];
    if (arg == "-" || !arg.starts_with("-")) {
      args.positional.push_back(arg.str());
      continue;
    }
    StringRef name = arg.ltrim('-');
    StringRef inlineValue;
    bool hasInline = false;
    if (size_t eq = name.find('='); eq != StringRef::npos) {
      inlineValue = name.drop_front(eq + 1);
      name = name.take_front(eq);
      hasInline = true;
    }
    if (is_contained(flagOptions, name)) {
      if (hasInline)
        return argumentError("option '--" + name + "' takes no value (got '" +
                             arg + "')");
      if (args.has(name))
        return argumentError("option '--" + name + "' given twice");
      args.flags.push_back(name.str());
      continue;
    }
    if (!is_contained(valueOptions, name))
      return argumentError("unknown option '" + arg +
                           "' (see motif-sass --help)");
    StringRef value = inlineValue;
    if (!hasInline) {
      // A following option is no value (kernel names and files do not
      // start with "--").
      if (i + 1 >= argv.size() || StringRef(argv[i + 1]).starts_with("--"))
        return argumentError("option '" + arg + "' needs a value");
      value = argv[++i];
    }
    if (Error err = checkValue(name, value))
      return std::move(err);
    auto [it, inserted] = args.values.try_emplace(name.str(), value.str());
    if (!inserted)
      return argumentError("option '--" + name + "' given twice ('" +
                           it->second + "', then '" + value + "')");
  }
  return args;
}

Expected<ModuleProfile> loadProfile(StringRef path,
                                    const std::optional<std::string> &report) {
  Expected<SassModule> module = readSassFile(path);
  if (!module)
    return module.takeError();
  std::optional<PtxasReport> resources;
  if (report) {
    Expected<PtxasReport> parsed = readPtxasReport(*report);
    if (!parsed)
      return parsed.takeError();
    resources = std::move(*parsed);
  }
  ModuleProfile profile =
      profileModule(*module, resources ? &*resources : nullptr);
  // A report from another compilation would leave the kernels' resources
  // unknown ("?") without a word: every entry kernel must be in it.
  if (resources)
    for (const KernelProfile &kernel : profile.kernels) {
      if (!kernel.isEntry || kernel.resources)
        continue;
      std::vector<std::string> names;
      for (const auto &entry : *resources)
        names.push_back(entry.getKey().str());
      llvm::sort(names);
      return createStringError(inconvertibleErrorCode(),
                               *report + ": error: no entry for kernel '" +
                                   kernel.name + "' of " + path +
                                   " (the report names: " + join(names, ", ") +
                                   "); was it made from the same cubin?");
    }
  return profile;
}

int runProfile(ArrayRef<const char *> argv) {
  Expected<Arguments> args = parseArguments(
      argv, {"kernel", "ptxas-report"}, {"json", "fail-on-hazard"});
  if (!args)
    return fail(args.takeError());
  if (args->positional.size() != 1)
    return fail("'profile' takes exactly one input file (got " +
                Twine(args->positional.size()) + ")");
  Expected<ModuleProfile> profile =
      loadProfile(args->positional[0], args->get("ptxas-report"));
  if (!profile)
    return fail(profile.takeError());
  const KernelProfile *only = nullptr;
  if (std::optional<std::string> name = args->get("kernel")) {
    Expected<const KernelProfile *> found = findKernel(*profile, *name);
    if (!found)
      return fail(found.takeError());
    only = *found;
  }
  if (args->has("json"))
    outs() << formatv("{0:2}", profileToJSON(*profile, only)) << "\n";
  else
    printProfileText(*profile, outs(), only);
  if (args->has("fail-on-hazard"))
    for (const KernelProfile &kernel : profile->kernels)
      if ((!only || only == &kernel) &&
          (!kernel.hazards.empty() || !kernel.wgmmaHazards.empty()))
        return 2;
  return 0;
}

int runParse(ArrayRef<const char *> argv) {
  Expected<Arguments> args = parseArguments(argv, {}, {});
  if (!args)
    return fail(args.takeError());
  if (args->positional.size() != 1)
    return fail("'parse' takes exactly one input file (got " +
                Twine(args->positional.size()) + ")");
  Expected<SassModule> module = readSassFile(args->positional[0]);
  if (!module)
    return fail(module.takeError());
  printInstructionsText(*module, outs());
  return 0;
}

int runDiff(ArrayRef<const char *> argv) {
  Expected<Arguments> args = parseArguments(
      argv, {"kernel-a", "kernel-b", "ptxas-report-a", "ptxas-report-b"},
      {"json"});
  if (!args)
    return fail(args.takeError());
  if (args->positional.size() != 2)
    return fail("'diff' takes exactly two input files (got " +
                Twine(args->positional.size()) + ")");
  Expected<ModuleProfile> a =
      loadProfile(args->positional[0], args->get("ptxas-report-a"));
  if (!a)
    return fail(a.takeError());
  Expected<ModuleProfile> b =
      loadProfile(args->positional[1], args->get("ptxas-report-b"));
  if (!b)
    return fail(b.takeError());
  DiffSide sideA{&*a, nullptr}, sideB{&*b, nullptr};
  if (std::optional<std::string> name = args->get("kernel-a")) {
    Expected<const KernelProfile *> found = findKernel(*a, *name);
    if (!found)
      return fail(found.takeError());
    sideA.kernel = *found;
  }
  if (std::optional<std::string> name = args->get("kernel-b")) {
    Expected<const KernelProfile *> found = findKernel(*b, *name);
    if (!found)
      return fail(found.takeError());
    sideB.kernel = *found;
  }
  if (args->has("json"))
    outs() << formatv("{0:2}", diffToJSON(sideA, sideB)) << "\n";
  else
    printDiffText(sideA, sideB, outs());
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  InitLLVM initLLVM(argc, argv);
  ArrayRef<const char *> args(const_cast<const char **>(argv) + 1, argc - 1);
  if (args.empty())
    return fail("missing command ('profile' or 'diff'); see motif-sass --help");
  StringRef command = args.front();
  if (command == "--help" || command == "-help" || command == "-h") {
    outs() << usage;
    return 0;
  }
  if (command == "profile")
    return runProfile(args.drop_front());
  if (command == "diff")
    return runDiff(args.drop_front());
  if (command == "parse")
    return runParse(args.drop_front());
  return fail("unknown command '" + command +
              "' (expected 'profile', 'diff' or 'parse'; see motif-sass --help)");
}
