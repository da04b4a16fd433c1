//===- SassParser.cpp - Reads nvdisasm / cuobjdump SASS listings ----------===//
//
// A line-oriented reader. Every line of the listing must be one of: blank,
// comment, assembler directive, label, instruction, encoding continuation
// (`/* 0x... */`), a cuobjdump header line, or data inside a non-code
// section. Anything else is reported with its file:line, so garbled and
// truncated listings fail loudly instead of producing a partial profile.
//
//===----------------------------------------------------------------------===//

#include "motif/Sass/SassParser.h"
#include "motif/Sass/Nvdisasm.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;

namespace motif {
namespace sass {

StringRef stringifySassFormat(SassFormat format) {
  return format == SassFormat::Nvdisasm ? "nvdisasm" : "cuobjdump";
}

std::string SassInstruction::fullOpcode() const {
  std::string result = opcode;
  for (const std::string &modifier : modifiers)
    result += "." + modifier;
  return result;
}

bool SassInstruction::hasModifier(StringRef modifier) const {
  return llvm::is_contained(modifiers, modifier);
}

namespace {

Error lineError(StringRef fileName, unsigned line, const Twine &message) {
  return createStringError(inconvertibleErrorCode(),
                           formatv("{0}:{1}: error: {2}", fileName, line,
                                   message.str())
                               .str());
}

/// Shortens a line for a diagnostic.
std::string quoteLine(StringRef line) {
  line = line.trim();
  if (line.size() > 72)
    return ("'" + line.take_front(69) + "...'").str();
  return ("'" + line + "'").str();
}

bool isIdentifierChar(char c) {
  return isAlnum(c) || c == '_' || c == '$' || c == '.';
}

/// Splits `operands` at commas outside brackets, braces and parentheses.
bool splitOperands(StringRef text, SmallVectorImpl<std::string> &out) {
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '[' || c == '(' || c == '{')
      ++depth;
    else if (c == ']' || c == ')' || c == '}')
      --depth;
    else if (c == ',' && depth == 0) {
      StringRef operand = text.slice(start, i).trim();
      if (operand.empty())
        return false;
      out.push_back(operand.str());
      start = i + 1;
    }
    if (depth < 0)
      return false;
  }
  if (depth != 0)
    return false;
  StringRef last = text.drop_front(start).trim();
  if (last.empty())
    return out.empty(); // "R1," is malformed; no operands at all is fine
  out.push_back(last.str());
  return true;
}

/// True for "/* 0x000fe20000000800 */".
bool isEncodingComment(StringRef text) {
  text = text.trim();
  if (!text.consume_front("/*") || !text.consume_back("*/"))
    return false;
  text = text.trim();
  if (!text.consume_front("0x") || text.empty())
    return false;
  return llvm::all_of(text, isHexDigit);
}

/// cuobjdump -sass header lines that carry no code.
bool isCuobjdumpHeader(StringRef line) {
  if (line.starts_with("Fatbin elf code:") || line.starts_with("Fatbin ptx code:"))
    return true;
  if (!line.empty() && llvm::all_of(line, [](char c) { return c == '='; }))
    return true;
  if (line.starts_with("code for sm_") || line == "..........")
    return true;
  if (line == "compressed")
    return true;
  // "arch = sm_90", "code version = [1,8]", "host = linux", ...
  static const char *const keys[] = {"arch", "code version", "host",
                                     "compile_size", "identifier",
                                     "producer", "ptxasOptions"};
  for (const char *key : keys) {
    StringRef rest = line;
    if (rest.consume_front(key) && rest.ltrim().starts_with("="))
      return true;
  }
  return false;
}

class Parser {
public:
  Parser(StringRef text, StringRef fileName) : text(text) {
    // The name goes into JSON reports, which hold only UTF-8.
    module.fileName =
        json::isUTF8(fileName) ? fileName.str() : json::fixUTF8(fileName);
  }

  Expected<SassModule> parse();

private:
  Error parseLine(StringRef line);
  Error parseInstruction(StringRef body, uint64_t address);
  Error startKernel(StringRef name, SassFormat format);
  Error error(const Twine &message) {
    return lineError(module.fileName, lineNo, message);
  }

  StringRef text;
  SassModule module;
  unsigned lineNo = 0;
  SassKernel *current = nullptr;
  /// The current section holds code (nvdisasm `.section .text.*`, or a
  /// cuobjdump `Function :` block).
  bool inCode = false;
  /// Inside cuobjdump's "Fatbin ptx code:" part (no SASS there).
  bool inPtxPart = false;
  bool sawNvdisasm = false, sawCuobjdump = false;
  /// A `.version` directive: PTX, not SASS (said in the error it leads to).
  bool sawPtxVersion = false;
  /// Architecture of the code that follows.
  std::string arch;
  /// Names marked STO_CUDA_ENTRY by `.other`.
  SmallVector<std::string, 8> entryNames;
};

Error Parser::startKernel(StringRef name, SassFormat format) {
  if (name.empty())
    return error("kernel header without a name");
  if (current && current->name == name)
    return Error::success(); // `.section .text.X` then `.text.X:`
  for (const SassKernel &kernel : module.kernels)
    if (kernel.name == name && kernel.arch == arch)
      return error("kernel '" + name + "' appears twice (first at line " +
                   Twine(kernel.line) + ")");
  (format == SassFormat::Nvdisasm ? sawNvdisasm : sawCuobjdump) = true;
  module.kernels.emplace_back();
  current = &module.kernels.back();
  current->name = name.str();
  current->line = lineNo;
  current->arch = arch;
  inCode = true;
  return Error::success();
}

Error Parser::parseInstruction(StringRef body, uint64_t address) {
  // Drop the trailing encoding comment that -hex / cuobjdump print.
  size_t semi = body.find(';');
  if (semi == StringRef::npos)
    return error("truncated instruction (no ';'): " + quoteLine(body));
  StringRef after = body.drop_front(semi + 1).trim();
  if (!after.empty() && !isEncodingComment(after) && after != "}")
    return error("unexpected text after ';': " + quoteLine(after));
  body = body.take_front(semi).trim();
  // VLIW pairs on old architectures: "{ INST ;" ... "}".
  if (body.consume_front("{"))
    body = body.ltrim();
  if (body.empty())
    return error("empty instruction at " + formatv("/*{0:x-4}*/", address).str());

  SassInstruction inst;
  inst.address = address;
  inst.line = lineNo;
  if (body.consume_front("@")) {
    if (body.consume_front("!"))
      inst.predicateNegated = true;
    size_t end = body.find_first_of(" \t");
    StringRef predicate = body.take_front(end);
    bool valid = predicate.size() >= 2 &&
                 (predicate.starts_with("P") || predicate.starts_with("UP")) &&
                 llvm::all_of(predicate, [](char c) { return isAlnum(c); });
    if (!valid || end == StringRef::npos)
      return error("malformed predicate in " + quoteLine(body));
    inst.predicate = predicate.str();
    body = body.drop_front(end).ltrim();
  }
  size_t opEnd = body.find_first_of(" \t");
  StringRef mnemonic = body.take_front(opEnd);
  StringRef operands = opEnd == StringRef::npos ? StringRef() : body.drop_front(opEnd).trim();
  SmallVector<StringRef, 4> parts;
  mnemonic.split(parts, '.');
  // The opcode is upper case; a modifier may also hold an instruction shape
  // in lower-case 'x's (HGMMA.64x256x16.F32.BF16).
  auto isOpcodeWord = [](StringRef word, bool first) {
    if (word.empty())
      return false;
    if (first && !isUpper(word[0]))
      return false;
    return llvm::all_of(word, [&](char c) {
      return isUpper(c) || isDigit(c) || c == '_' || (!first && c == 'x');
    });
  };
  for (size_t i = 0; i < parts.size(); ++i)
    if (!isOpcodeWord(parts[i], i == 0))
      return error("malformed opcode '" + mnemonic + "' in " + quoteLine(body));
  inst.opcode = parts[0].str();
  for (StringRef modifier : ArrayRef<StringRef>(parts).drop_front())
    inst.modifiers.push_back(modifier.str());
  if (!operands.empty() && !splitOperands(operands, inst.operands))
    return error("malformed operand list in " + quoteLine(body));

  if (!current->instructions.empty() &&
      current->instructions.back().address >= address)
    return error(formatv("address /*{0:x-4}*/ does not increase (previous "
                         "/*{1:x-4}*/)",
                         address, current->instructions.back().address)
                     .str());
  current->instructions.push_back(std::move(inst));
  return Error::success();
}

Error Parser::parseLine(StringRef raw) {
  StringRef line = raw.trim();
  if (line.empty())
    return Error::success();

  // cuobjdump: everything after "Fatbin ptx code:" until the next ELF part
  // is PTX metadata, not SASS.
  if (line.starts_with("Fatbin elf code:")) {
    inPtxPart = false;
    current = nullptr;
    inCode = false;
    sawCuobjdump = true;
    return Error::success();
  }
  if (line.starts_with("Fatbin ptx code:")) {
    inPtxPart = true;
    inCode = false;
    sawCuobjdump = true;
    return Error::success();
  }
  if (inPtxPart)
    return Error::success();

  if (line.starts_with("//"))
    return Error::success(); // comments, `//## File ...` line info

  if (line.starts_with("Function :") || line.starts_with("Function:")) {
    StringRef name = line.drop_front(line.find(':') + 1).trim();
    return startKernel(name, SassFormat::Cuobjdump);
  }
  if (line.starts_with("code for sm_"))
    arch = line.drop_front(strlen("code for ")).trim().str();
  if (isCuobjdumpHeader(line)) {
    if (line == "..........")
      inCode = false; // end of a cuobjdump function
    return Error::success();
  }

  if (line.starts_with("/*")) {
    size_t close = line.find("*/");
    if (close == StringRef::npos)
      return error("unterminated comment: " + quoteLine(line));
    StringRef inside = line.slice(2, close).trim();
    StringRef rest = line.drop_front(close + 2).trim();
    if (inside.starts_with("0x")) {
      // Encoding continuation line; nothing else may follow it.
      if (!isEncodingComment(line))
        return error("malformed encoding comment: " + quoteLine(line));
      return Error::success();
    }
    uint64_t address;
    if (inside.empty() || !llvm::all_of(inside, isHexDigit) ||
        inside.getAsInteger(16, address))
      return error("expected an address like /*0070*/: " + quoteLine(line));
    if (rest.starts_with("."))
      return Error::success(); // data in a non-code section (.byte, .word)
    if (!inCode || !current)
      return error("instruction outside any kernel: " + quoteLine(line));
    return parseInstruction(rest, address);
  }

  if (line == "}" || line == "{")
    return Error::success();

  if (line.starts_with(".")) {
    // Label `.text.NAME:` opens a kernel; `.L_x_0:` and other labels do not.
    if (line.ends_with(":") && line.find_first_of(" \t") == StringRef::npos) {
      StringRef label = line.drop_back();
      if (label.consume_front(".text."))
        return startKernel(label, SassFormat::Nvdisasm);
      if (current && inCode)
        current->labels[label.str()] = current->instructions.size();
      return Error::success();
    }
    // Directives.
    StringRef directive = line.take_until([](char c) { return c == ' ' || c == '\t'; });
    StringRef args = line.drop_front(directive.size()).trim();
    if (directive == ".section") {
      StringRef section = args.take_until([](char c) { return c == ','; }).trim();
      if (section.starts_with(".text.")) {
        inCode = true;
        return startKernel(section.drop_front(6), SassFormat::Nvdisasm);
      }
      inCode = false;
      current = nullptr;
      return Error::success();
    }
    if (directive == ".target")
      arch = args.str();
    if (directive == ".version")
      sawPtxVersion = true;
    if (directive == ".other" && args.contains("STO_CUDA_ENTRY"))
      entryNames.push_back(args.take_until([](char c) { return c == ','; }).trim().str());
    return Error::success();
  }

  // Plain labels: "_Z3fooPf:".
  if (line.ends_with(":") && llvm::all_of(line.drop_back(), isIdentifierChar))
    return Error::success();

  return error("unrecognized line (not nvdisasm or cuobjdump -sass output): " +
               quoteLine(line) +
               (sawPtxVersion ? "; the listing is PTX (it has a .version "
                                "directive): compile it with ptxas and pass "
                                "the cubin"
                              : ""));
}

Expected<SassModule> Parser::parse() {
  if (text.trim().empty())
    return lineError(module.fileName, 1,
                     "empty input (expected `nvdisasm -c` or `cuobjdump "
                     "-sass` output)");
  if (text.contains('\0'))
    return lineError(module.fileName, 1,
                     "binary input; pass a .cubin path to disassemble it with "
                     "nvdisasm, or a SASS listing");
  // Names, opcodes and operands go into JSON reports, which hold only UTF-8;
  // nvdisasm and cuobjdump print ASCII.
  if (size_t bad; !json::isUTF8(text, &bad))
    return lineError(module.fileName, text.take_front(bad).count('\n') + 1,
                     "invalid UTF-8 (not nvdisasm or cuobjdump -sass output)");
  SmallVector<StringRef, 0> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    ++lineNo;
    if (Error err = parseLine(line.rtrim("\r")))
      return std::move(err);
  }
  if (module.kernels.empty())
    return lineError(module.fileName, 1,
                     "no kernel found (expected a `.text.<kernel>:` section "
                     "from nvdisasm or a `Function : <kernel>` header from "
                     "cuobjdump -sass)");
  for (const SassKernel &kernel : module.kernels)
    if (kernel.instructions.empty())
      return lineError(module.fileName, kernel.line,
                       "kernel '" + kernel.name +
                           "' has no instructions (truncated listing?)");
  if (sawNvdisasm && sawCuobjdump)
    return lineError(module.fileName, 1,
                     "listing mixes nvdisasm sections and cuobjdump headers");
  module.format = sawCuobjdump ? SassFormat::Cuobjdump : SassFormat::Nvdisasm;
  // nvdisasm marks entries; device functions are profiled too but flagged.
  if (!entryNames.empty())
    for (SassKernel &kernel : module.kernels)
      kernel.isEntry = llvm::is_contained(entryNames, kernel.name);
  return std::move(module);
}

bool looksLikeCubin(StringRef path, StringRef contents) {
  return contents.starts_with("\x7f"
                              "ELF") ||
         path.ends_with(".cubin");
}

} // namespace

Expected<SassModule> parseSass(StringRef text, StringRef fileName) {
  return Parser(text, fileName).parse();
}

Expected<SassModule> readSassFile(StringRef path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> buffer =
      MemoryBuffer::getFileOrSTDIN(path, /*IsText=*/false);
  if (std::error_code ec = buffer.getError())
    return createStringError(ec, "%s: error: cannot read file: %s",
                             path.str().c_str(), ec.message().c_str());
  StringRef contents = (*buffer)->getBuffer();
  if (path != "-" && looksLikeCubin(path, contents)) {
    Expected<std::string> listing = disassembleCubin(path);
    if (!listing)
      return listing.takeError();
    return parseSass(*listing, (path + " (nvdisasm -c)").str());
  }
  return parseSass(contents, path == "-" ? "<stdin>" : path);
}

} // namespace sass
} // namespace motif
