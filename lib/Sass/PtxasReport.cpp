//===- PtxasReport.cpp - Reads `ptxas -v` resource reports ----------------===//
//
// The lines this reads (CUDA 12/13):
//   ptxas info    : Compiling entry function '_Z3fooPf' for 'sm_90'
//   ptxas info    : Function properties for _Z3fooPf
//       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
//   ptxas info    : Used 28 registers, used 1 barriers, 16 bytes smem
// Older ptxas prints "Used 28 registers, 16 bytes smem, 380 bytes cmem[0]".
//
//===----------------------------------------------------------------------===//

#include "motif/Sass/PtxasReport.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace motif {
namespace sass {

namespace {

/// Parses "N <unit>" items separated by commas, e.g. "Used 28 registers,
/// used 1 barriers, 16 bytes smem". Calls `onItem(number, words after it)`.
template <typename Fn>
bool forEachQuantity(StringRef text, Fn onItem) {
  SmallVector<StringRef, 8> items;
  text.split(items, ',');
  bool any = false;
  for (StringRef item : items) {
    item = item.trim();
    // Skip a leading word like "Used" / "used".
    SmallVector<StringRef, 6> words;
    item.split(words, ' ', -1, /*KeepEmpty=*/false);
    for (size_t i = 0; i < words.size(); ++i) {
      uint64_t value;
      if (words[i].getAsInteger(10, value))
        continue;
      std::string unit = join(ArrayRef<StringRef>(words).drop_front(i + 1), " ");
      onItem(value, StringRef(unit));
      any = true;
      break;
    }
  }
  return any;
}

/// Shortens a line for a diagnostic.
std::string quote(StringRef line) {
  line = line.trim();
  if (line.size() > 72)
    return ("'" + line.take_front(69) + "...'").str();
  return ("'" + line + "'").str();
}

} // namespace

Expected<PtxasReport> parsePtxasReport(StringRef text, StringRef fileName) {
  unsigned lineNo = 0;
  auto lineError = [&](unsigned line, const Twine &message) {
    return createStringError(
        inconvertibleErrorCode(),
        formatv("{0}:{1}: error: {2}", fileName, line, message.str()).str());
  };
  // A garbled or foreign report fails loudly; it never yields "?" resources
  // (or zeros) that look like a report.
  if (text.contains('\0'))
    return lineError(1, "binary input (expected `ptxas -v` text output)");
  PtxasReport report;
  std::string current;
  // Entry functions whose "Used N registers" line has not come yet, with the
  // line that named them: ptxas prints one for every entry.
  StringMap<unsigned> awaitingUsed;
  SmallVector<StringRef, 0> lines;
  text.split(lines, '\n');
  for (StringRef raw : lines) {
    ++lineNo;
    StringRef line = raw.trim();
    StringRef body = line;
    if (body.consume_front("ptxas info")) {
      body = body.ltrim();
      if (!body.consume_front(":"))
        continue;
      body = body.trim();
    }
    // A function name reaches JSON reports (unmatched entries), which hold
    // only UTF-8; ptxas prints ASCII names.
    auto badName = [&] {
      return lineError(lineNo, "function name is not valid UTF-8 (not "
                               "`ptxas -v` output)");
    };
    if (body.consume_front("Compiling entry function")) {
      StringRef name = body.trim();
      if (name.consume_front("'"))
        name = name.take_until([](char c) { return c == '\''; });
      else
        name = name.take_until([](char c) { return c == ' '; });
      if (name.empty())
        return lineError(lineNo, "entry function without a name: " +
                                     quote(line));
      if (!json::isUTF8(name))
        return badName();
      current = name.str();
      report[current];
      awaitingUsed.try_emplace(current, lineNo);
      continue;
    }
    if (body.consume_front("Function properties for")) {
      if (!json::isUTF8(body.trim()))
        return badName();
      current = body.trim().str();
      report[current];
      continue;
    }
    bool isUsed = body.starts_with("Used ");
    bool isFrame = body.contains("bytes stack frame");
    if (!isUsed && !isFrame)
      continue;
    if (current.empty())
      return lineError(lineNo, "resource line before any 'Compiling entry "
                               "function' or 'Function properties for' line");
    KernelResources &resources = report[current];
    // ptxas leaves out zero barriers and zero smem on the "Used" line.
    if (isUsed) {
      resources.barriers = 0;
      resources.sharedBytes = 0;
    }
    bool sawRegisters = false, sawStackFrame = false;
    forEachQuantity(body, [&](uint64_t value, StringRef unit) {
      if (unit == "registers") {
        resources.registers = value;
        sawRegisters = true;
      } else if (unit == "barriers") {
        resources.barriers = value;
      } else if (unit == "bytes smem") {
        resources.sharedBytes = value;
      } else if (unit == "bytes stack frame") {
        resources.stackFrameBytes = value;
        sawStackFrame = true;
      } else if (unit == "bytes spill stores") {
        resources.spillStoreBytes = value;
      } else if (unit == "bytes spill loads") {
        resources.spillLoadBytes = value;
      }
    });
    if (isUsed && !sawRegisters)
      return lineError(lineNo, "malformed resource line (no register count): " +
                                   quote(line));
    if (isFrame && !sawStackFrame)
      return lineError(lineNo,
                       "malformed resource line (no stack frame size): " +
                           quote(line));
    if (isUsed)
      awaitingUsed.erase(current);
  }
  if (!awaitingUsed.empty()) {
    auto first = llvm::min_element(awaitingUsed, [](const auto &a,
                                                    const auto &b) {
      return a.getValue() < b.getValue();
    });
    return lineError(first->getValue(),
                     "entry function '" + first->getKey() +
                         "' has no 'Used N registers' line (truncated "
                         "report?)");
  }
  if (report.empty())
    return createStringError(
        inconvertibleErrorCode(),
        formatv("{0}:1: error: no function in ptxas report (expected `ptxas "
                "-v` output with 'Compiling entry function' lines)",
                fileName)
            .str());
  return std::move(report);
}

Expected<PtxasReport> readPtxasReport(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFile(path, /*IsText=*/true);
  if (std::error_code ec = buffer.getError())
    return createStringError(ec, "%s: error: cannot read ptxas report: %s",
                             path.str().c_str(), ec.message().c_str());
  return parsePtxasReport((*buffer)->getBuffer(), path);
}

} // namespace sass
} // namespace motif
