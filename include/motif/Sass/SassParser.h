//===- SassParser.h - Reads nvdisasm / cuobjdump SASS listings --*- C++ -*-===//
//
// Parses the text that `nvdisasm -c [-g] [-hex]` and `cuobjdump -sass` print
// into kernels and instructions. Nothing here interprets the instructions;
// see SassOpcode.h for the classification and MotifProfile.h for verdicts.
//
//===----------------------------------------------------------------------===//

#ifndef MOTIF_SASS_SASSPARSER_H
#define MOTIF_SASS_SASSPARSER_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <map>
#include <vector>

namespace motif {
namespace sass {

/// Which disassembler printed the listing.
enum class SassFormat { Nvdisasm, Cuobjdump };

/// Returns "nvdisasm" or "cuobjdump".
llvm::StringRef stringifySassFormat(SassFormat format);

/// One SASS instruction, e.g. `/*0070*/ @!P0 LDG.E.CONSTANT R2, desc[UR4][R2.64] ;`.
struct SassInstruction {
  /// Byte offset inside the kernel's text section (the `/*0070*/` column).
  uint64_t address = 0;
  /// 1-based line of the listing the instruction was read from.
  unsigned line = 0;
  /// Guard predicate register without '@' and '!' ("P0", "UP1", "PT"); empty
  /// when the instruction is not predicated.
  std::string predicate;
  /// True for `@!P0`.
  bool predicateNegated = false;
  /// Base opcode ("LDG").
  std::string opcode;
  /// Opcode modifiers in order ("E", "CONSTANT").
  llvm::SmallVector<std::string, 4> modifiers;
  /// Operands split at top-level commas, whitespace trimmed.
  llvm::SmallVector<std::string, 4> operands;

  /// Opcode with its modifiers joined by '.', e.g. "LDS.128".
  std::string fullOpcode() const;
  /// True if `modifier` is one of the modifiers.
  bool hasModifier(llvm::StringRef modifier) const;
};

/// One function's text section.
struct SassKernel {
  /// Symbol name as printed (usually mangled).
  std::string name;
  /// Line of the header that opened the kernel.
  unsigned line = 0;
  /// True when the listing marks the symbol STO_CUDA_ENTRY (nvdisasm only;
  /// cuobjdump listings do not say, and every function counts as a kernel).
  bool isEntry = true;
  /// Target architecture ("sm_90") from nvdisasm's `.target` or cuobjdump's
  /// `code for sm_90`; empty when the listing does not say. A cuobjdump
  /// listing of a fat binary holds the same kernel once per architecture.
  std::string arch;
  std::vector<SassInstruction> instructions;
  /// Local labels (`.L_x_3:`) and the index in `instructions` of the
  /// instruction that follows each (branch targets).
  std::map<std::string, size_t> labels;
};

/// A parsed listing.
struct SassModule {
  /// Name used in diagnostics and reports.
  std::string fileName;
  SassFormat format = SassFormat::Nvdisasm;
  /// Kernels in the order the listing prints them. nvdisasm prints a cubin's
  /// kernels in reverse source order, so this is not launch order.
  std::vector<SassKernel> kernels;
};

/// Parses a listing. Errors read "FILE:LINE: error: ..." and name the first
/// line that is not nvdisasm/cuobjdump output (garbled or truncated
/// instruction, instruction outside a kernel, empty input, no kernel, ...).
llvm::Expected<SassModule> parseSass(llvm::StringRef text,
                                     llvm::StringRef fileName);

/// Reads `path` ("-" is stdin) and parses it. A cubin (ELF magic or a
/// `.cubin` suffix) is first disassembled with `nvdisasm -c` (see Nvdisasm.h).
llvm::Expected<SassModule> readSassFile(llvm::StringRef path);

} // namespace sass
} // namespace motif

#endif // MOTIF_SASS_SASSPARSER_H
