//===- motif-sass-fuzzer.cpp - libFuzzer target for lib/Sass --------------===//
//
// Runs what `motif-sass profile/parse/diff` runs on one input, in process:
// the SASS listing parser, the motif profile with every printer, the diff of
// the profile against itself, and the `ptxas -v` report parser, whose
// resources are attached to the profile. An input holding the line
// kReportMarker is split there: the listing before it, the report after
// (scripts/fuzz.sh seeds the fixture pairs so); otherwise both parsers read
// the whole input. Errors are consumed, never printed.
// A crash, a sanitizer report or a hang is a bug (docs/testing.md).
//
//===----------------------------------------------------------------------===//

#include "motif/Sass/MotifProfile.h"
#include "motif/Sass/ProfileSummary.h"
#include "motif/Sass/PtxasReport.h"
#include "motif/Sass/SassParser.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <optional>

using namespace motif::sass;

namespace {
constexpr llvm::StringLiteral kReportMarker = "\n==ptxas==\n";
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // The parsers take a StringRef: the bytes as given, not NUL-terminated, so
  // ASan sees any read past the end.
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  llvm::StringRef text = input, reportText = input;
  if (size_t at = input.find(kReportMarker); at != llvm::StringRef::npos) {
    text = input.take_front(at + 1);
    reportText = input.drop_front(at + kReportMarker.size());
  }
  llvm::raw_null_ostream sink;

  std::optional<PtxasReport> report;
  if (llvm::Expected<PtxasReport> parsed = parsePtxasReport(reportText, "fuzz.txt"))
    report = std::move(*parsed);
  else
    llvm::consumeError(parsed.takeError());

  llvm::Expected<SassModule> module = parseSass(text, "fuzz.sass");
  if (!module) {
    llvm::consumeError(module.takeError());
    return 0;
  }
  printInstructionsText(*module, sink);
  ModuleProfile profile = profileModule(*module, report ? &*report : nullptr);
  printProfileText(profile, sink);
  sink << llvm::formatv("{0:2}", profileToJSON(profile));
  (void)summarizeModule(profile);
  DiffSide whole{&profile, nullptr};
  printDiffText(whole, whole, sink);
  sink << llvm::formatv("{0:2}", diffToJSON(whole, whole));
  for (const KernelProfile &kernel : profile.kernels) {
    printProfileText(profile, sink, &kernel);
    (void)summarizeKernel(kernel);
    (void)describeLocalMemory(kernel);
    if (llvm::Expected<const KernelProfile *> found =
            findKernel(profile, kernel.name))
      (void)*found;
    else
      llvm::consumeError(found.takeError());
    DiffSide one{&profile, &kernel};
    printDiffText(one, whole, sink);
    sink << llvm::formatv("{0:2}", diffToJSON(whole, one));
  }
  return 0;
}
