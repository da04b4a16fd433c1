//===- InputGuard.cpp - refuse input text the MLIR parser cannot take -----===//
#include "motif/InputGuard.h"

#include "llvm/ADT/APInt.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

/// `array<iN: a, b, ...>` at `at` (just after "array<"): every integer must
/// fit a signed N-bit integer. MLIR 22's parser reads a literal up to
/// 2^N - 1 as its N-bit pattern, so `array<i32: 2147483648>` silently means
/// -2147483648 (found by motif-fuzz mutate: a known_block_size that became
/// negative, then an unlocated fatal error in the NVPTX backend).
static LogicalResult checkArrayElements(llvm::SourceMgr &mgr, StringRef text,
                                        size_t at) {
  size_t n = text.size();
  if (at >= n || text[at] != 'i')
    return success();
  size_t k = at + 1;
  while (k < n && llvm::isDigit(text[k]))
    ++k;
  unsigned width;
  if (text.slice(at + 1, k).getAsInteger(10, width) || width == 0 ||
      width > 64)
    return success();
  while (k < n && llvm::isSpace(text[k]))
    ++k;
  if (k >= n || text[k] != ':')
    return success();
  ++k;
  while (k < n && text[k] != '>') {
    while (k < n && (llvm::isSpace(text[k]) || text[k] == ','))
      ++k;
    size_t begin = k;
    bool negative = k < n && text[k] == '-';
    if (negative)
      ++k;
    size_t digits = k;
    while (k < n && llvm::isAlnum(text[k]))
      ++k;
    StringRef literal = text.slice(digits, k);
    if (literal.empty()) {
      if (k < n && text[k] != '>')
        ++k; // something the parser will reject itself
      continue;
    }
    llvm::APInt value;
    // Decimal or 0x hex; anything else is the parser's to reject.
    if (literal.getAsInteger(0, value))
      continue;
    unsigned bits = std::max(value.getActiveBits(), 1u);
    // In range: -2^(N-1) <= v <= 2^(N-1) - 1.
    bool fits = negative ? (bits < width ||
                            (bits == width && value.isPowerOf2()))
                         : bits < width || (width == 1 && bits <= 1);
    if (!fits) {
      mgr.PrintMessage(llvm::SMLoc::getFromPointer(text.data() + begin),
                       llvm::SourceMgr::DK_Error,
                       "integer " + text.slice(begin, k) + " does not fit 'i" +
                           Twine(width) + "' (MLIR would store its " +
                           Twine(width) + "-bit pattern, another number)");
      return failure();
    }
  }
  return success();
}

/// `permutation = [...]` / `dimensions = [...]` at `at` (just after the
/// keyword): the integer list linalg.transpose and linalg.reduce parse with
/// a helper that stores a null attribute when the list is malformed, then
/// dereferences it (signal 11 in MLIR 22; found by motif-fuzz mutate). The
/// list must be `[` integers separated by commas `]`; other attribute forms
/// (`array<...>`, `dense<...>`, an alias, a dictionary) are the parser's.
static LogicalResult checkIntegerList(llvm::SourceMgr &mgr, StringRef text,
                                      size_t at, StringRef keyword) {
  size_t n = text.size();
  auto skipSpace = [&](size_t k) {
    while (k < n && llvm::isSpace(text[k]))
      ++k;
    return k;
  };
  size_t k = skipSpace(at);
  if (k >= n || text[k] != '=')
    return success();
  k = skipSpace(k + 1);
  StringRef rest = text.substr(k);
  if (rest.starts_with("array<") || rest.starts_with("dense<") ||
      rest.starts_with("#") || rest.starts_with("{"))
    return success();
  size_t begin = k;
  auto refuse = [&]() {
    mgr.PrintMessage(llvm::SMLoc::getFromPointer(text.data() + begin),
                     llvm::SourceMgr::DK_Error,
                     "'" + keyword +
                         "' must be a list of 64-bit integers '[a, b, ...]' "
                         "(MLIR 22's linalg parser crashes on a malformed "
                         "one)");
    return failure();
  };
  if (k >= n || text[k] != '[')
    return refuse();
  k = skipSpace(k + 1);
  if (k < n && text[k] == ']')
    return success();
  while (true) {
    bool negative = k < n && text[k] == '-';
    if (negative)
      ++k;
    size_t digits = k;
    while (k < n && llvm::isDigit(text[k]))
      ++k;
    if (k == digits)
      return refuse();
    // Each must fit i64 (a larger one is a null attribute too).
    llvm::APInt value;
    if (text.slice(digits, k).getAsInteger(10, value) ||
        value.getActiveBits() > 64 ||
        (value.getActiveBits() == 64 && !(negative && value.isPowerOf2())))
      return refuse();
    k = skipSpace(k);
    if (k < n && text[k] == ']')
      return success();
    if (k >= n || text[k] != ',')
      return refuse();
    k = skipSpace(k + 1);
  }
}

LogicalResult mlir::motif::checkInputText(llvm::SourceMgr &mgr,
                                          unsigned bufferId) {
  StringRef text = mgr.getMemoryBuffer(bufferId)->getBuffer();
  size_t n = text.size();
  for (size_t i = 0; i < n; ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        break;
      continue;
    }
    if (c == '"') { // a string: skip it (escapes included)
      for (++i; i < n && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      continue;
    }
    if (c == 'a' && text.substr(i).starts_with("array<") &&
        (i == 0 || !(llvm::isAlnum(text[i - 1]) || text[i - 1] == '_'))) {
      size_t j = i + 6;
      while (j < n && llvm::isSpace(text[j]))
        ++j;
      StringRef rest = text.substr(j);
      if (rest.starts_with("index") &&
          (rest.size() == 5 || !(llvm::isAlnum(rest[5]) || rest[5] == '_'))) {
        mgr.PrintMessage(llvm::SMLoc::getFromPointer(text.data() + j),
                         llvm::SourceMgr::DK_Error,
                         "a dense array of 'index' is not supported (use "
                         "'array<i64: ...>')");
        return failure();
      }
      if (failed(checkArrayElements(mgr, text, j)))
        return failure();
      continue;
    }
    if ((c == 'p' || c == 'd') &&
        (i == 0 || !(llvm::isAlnum(text[i - 1]) || text[i - 1] == '_' ||
                     text[i - 1] == '.'))) {
      for (StringRef keyword : {"permutation", "dimensions"}) {
        if (!text.substr(i).starts_with(keyword))
          continue;
        size_t end = i + keyword.size();
        if (end < n && (llvm::isAlnum(text[end]) || text[end] == '_'))
          continue;
        if (failed(checkIntegerList(mgr, text, end, keyword)))
          return failure();
      }
      continue;
    }
    if (c != '%')
      continue;
    size_t j = i + 1;
    while (j < n && (llvm::isAlnum(text[j]) || text[j] == '_' || text[j] == '$' ||
                     text[j] == '.' || text[j] == '-'))
      ++j;
    size_t nameEnd = j;
    // The lexer reads `%v #N` (whitespace or comments between) as `%v#N`.
    while (j < n) {
      if (llvm::isSpace(text[j])) {
        ++j;
      } else if (text[j] == '/' && j + 1 < n && text[j + 1] == '/') {
        j = text.find('\n', j);
        if (j == StringRef::npos)
          j = n;
      } else {
        break;
      }
    }
    if (j + 1 >= n || text[j] != '#' || !llvm::isDigit(text[j + 1]))
      continue;
    size_t k = j + 1;
    while (k < n && llvm::isDigit(text[k]))
      ++k;
    uint64_t number;
    if (text.slice(j + 1, k).getAsInteger(10, number) || number > kMaxResultNumber) {
      mgr.PrintMessage(llvm::SMLoc::getFromPointer(text.data() + i),
                       llvm::SourceMgr::DK_Error,
                       "result number " + text.slice(j + 1, k) + " of '" +
                           text.slice(i, nameEnd) + "' is past " +
                           Twine(kMaxResultNumber) +
                           " (no op has that many results)");
      return failure();
    }
    i = k - 1;
  }
  return success();
}

LogicalResult mlir::motif::checkInputFile(StringRef path) {
  if (path == "-")
    return success();
  auto buf = llvm::MemoryBuffer::getFile(path);
  if (!buf)
    return success();
  llvm::SourceMgr mgr;
  unsigned id = mgr.AddNewSourceBuffer(std::move(*buf), llvm::SMLoc());
  return checkInputText(mgr, id);
}
