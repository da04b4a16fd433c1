//===- Mutate.cpp - token and line mutations of program text --------------===//
//
// The front-end fuzzer's mutations: drop, duplicate or swap lines; replace a
// number by an edge value (0, 1, -1, odd, huge, past 2^63); replace a word by
// another word of the text or a motif keyword (levels, tile levels,
// residencies, combiners, op names); delete or insert a punctuation token.
// Mutants are mostly near-valid, so they reach the verifier and the passes.
//
//===----------------------------------------------------------------------===//
#include "motif/Fuzz/Oracle.h"

#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::fuzz;

namespace {
struct Token {
  size_t begin, end;
  enum Kind { Word, Number, Punct } kind;
};
} // namespace

static SmallVector<Token> tokenize(StringRef text) {
  SmallVector<Token> out;
  size_t i = 0, n = text.size();
  while (i < n) {
    char c = text[i];
    if (llvm::isSpace(c)) {
      ++i;
      continue;
    }
    size_t j = i;
    if (llvm::isDigit(c) || (c == '-' && i + 1 < n && llvm::isDigit(text[i + 1]))) {
      ++j;
      while (j < n && (llvm::isAlnum(text[j]) || text[j] == '.'))
        ++j;
      out.push_back({i, j, Token::Number});
    } else if (llvm::isAlpha(c) || c == '_' || c == '%' || c == '@' || c == '^') {
      ++j;
      while (j < n && (llvm::isAlnum(text[j]) || text[j] == '_' || text[j] == '.' ||
                       text[j] == '$'))
        ++j;
      out.push_back({i, j, Token::Word});
    } else {
      ++j;
      out.push_back({i, j, Token::Punct});
    }
    i = j;
  }
  return out;
}

std::string mlir::motif::fuzz::mutate(StringRef text, std::mt19937_64 &rng) {
  std::string s = text.str();
  auto lines = [&]() {
    SmallVector<std::pair<size_t, size_t>> out;
    size_t start = 0;
    while (start < s.size()) {
      size_t end = s.find('\n', start);
      if (end == std::string::npos)
        end = s.size();
      out.push_back({start, end});
      start = end + 1;
    }
    return out;
  };
  static const char *numbers[] = {"0",  "1",  "-1", "2",  "3",   "7",  "31",
                                  "33", "48", "100", "1025", "4096", "65536",
                                  "2147483648", "9223372036854775807",
                                  "99999999999999999999", "-9223372036854775808",
                                  "1.5", "0x7FC00000", "nan"};
  static const char *words[] = {
      "block", "block.warp", "warp", "lane", "thread", "seq", "global", "shared",
      "register", "observable", "add", "mul", "max", "min", "motif.map",
      "motif.reduce", "motif.contract", "motif.transpose", "motif.broadcast",
      "motif.materialize", "motif.kernel", "motif.yield", "threads", "over",
      "init", "combiner", "f16", "bf16", "i32", "index", "f64", "tensor",
      "arith.addf", "math.exp", "tensor.extract", "scf.for", "func.return",
      "i", "j", "k", "d0", "d1",
      // Tile nests: a sized level where a level was, or one more digit.
      "block(2)", "thread(4) x seq(2)", "seq(1)", "x thread(2)"};
  static const char *puncts[] = {"[", "]", "(", ")", "{", "}", ",", ":", "<",
                                 ">", "x", "=", "->", "#0", "%0"};
  int kind = rng() % 10;
  SmallVector<Token> toks = tokenize(s);
  if (toks.empty())
    return s + "\n" + words[rng() % std::size(words)];
  const Token &t = toks[rng() % toks.size()];
  switch (kind) {
  case 0: { // drop a line
    auto ls = lines();
    auto [b, e] = ls[rng() % ls.size()];
    s.erase(b, std::min(e + 1, s.size()) - b);
    return s;
  }
  case 1: { // duplicate a line
    auto ls = lines();
    auto [b, e] = ls[rng() % ls.size()];
    std::string line = s.substr(b, e - b) + "\n";
    s.insert(b, line);
    return s;
  }
  case 2: { // swap two lines
    auto ls = lines();
    if (ls.size() < 2)
      return s;
    size_t x = rng() % ls.size(), y = rng() % ls.size();
    if (x > y)
      std::swap(x, y);
    if (x == y)
      return s;
    std::string lx = s.substr(ls[x].first, ls[x].second - ls[x].first);
    std::string ly = s.substr(ls[y].first, ls[y].second - ls[y].first);
    s.replace(ls[y].first, ly.size(), lx);
    s.replace(ls[x].first, lx.size(), ly);
    return s;
  }
  case 3:
  case 4: { // a number to an edge value
    SmallVector<Token> nums;
    for (const Token &k : toks)
      if (k.kind == Token::Number)
        nums.push_back(k);
    const Token &k = nums.empty() ? t : nums[rng() % nums.size()];
    s.replace(k.begin, k.end - k.begin, numbers[rng() % std::size(numbers)]);
    return s;
  }
  case 5:
  case 6: { // a word to a keyword
    SmallVector<Token> ws;
    for (const Token &k : toks)
      if (k.kind == Token::Word)
        ws.push_back(k);
    const Token &k = ws.empty() ? t : ws[rng() % ws.size()];
    s.replace(k.begin, k.end - k.begin, words[rng() % std::size(words)]);
    return s;
  }
  case 7: { // a word to another word of the text (SSA names, indices)
    SmallVector<Token> ws;
    for (const Token &k : toks)
      if (k.kind == Token::Word)
        ws.push_back(k);
    if (ws.size() < 2)
      return s;
    const Token &a = ws[rng() % ws.size()], &b = ws[rng() % ws.size()];
    s.replace(a.begin, a.end - a.begin, s.substr(b.begin, b.end - b.begin));
    return s;
  }
  case 8: // delete a token
    s.erase(t.begin, t.end - t.begin);
    return s;
  default: // insert a punctuation token
    s.insert(t.begin, puncts[rng() % std::size(puncts)]);
    return s;
  }
}
