//===- SassOpcode.h - What a SASS instruction does -------------*- C++ -*-===//
//
// Classifies instructions by opcode: memory space and direction of loads and
// stores, block barriers versus reconvergence (BSSY/BSYNC are *not*
// barriers), shuffles, MUFU and the FP32 arithmetic of the seed analyses.
//
//===----------------------------------------------------------------------===//

#ifndef MOTIF_SASS_SASSOPCODE_H
#define MOTIF_SASS_SASSOPCODE_H

#include "motif/Sass/SassParser.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace motif {
namespace sass {

/// Memory space an access goes to.
enum class MemorySpace { None, Global, Shared, Local, Constant, Generic };

/// Returns "global", "shared", ...
llvm::StringRef stringifyMemorySpace(MemorySpace space);

/// What an instruction does, as far as motif profiles care.
enum class InstrKind {
  Other,
  Load,          ///< LDG LDS LDSM LDL LDC ULDC LD
  Store,         ///< STG STS STSM STL ST
  Atomic,        ///< ATOMG ATOMS ATOM RED (read-modify-write)
  AsyncCopy,     ///< LDGSTS (global -> shared), UTMALDG/UTMASTG/UBLKCP (TMA)
  Barrier,       ///< BAR.* (block / named barriers), SYNCS.* (mbarrier)
  Reconvergence, ///< BSSY BSYNC WARPSYNC: divergence bookkeeping, no memory order
  Fence,         ///< MEMBAR FENCE ERRBAR
  Shuffle,       ///< SHFL.BFLY/DOWN/UP/IDX
  Mufu,          ///< MUFU.EX2/RCP/RSQ/...
  FloatArith,    ///< FFMA FMUL FADD FMNMX
  MatrixMultiply,///< HMMA IMMA HGMMA ...
  Exit,          ///< EXIT
  Branch,        ///< BRA BRX JMP CALL RET
};

/// Returns "load", "store", "barrier", "reconvergence", ...
llvm::StringRef stringifyInstrKind(InstrKind kind);

/// Classification of one instruction.
struct InstrClass {
  InstrKind kind = InstrKind::Other;
  MemorySpace space = MemorySpace::None;
  /// For async copies: the space written (shared for LDGSTS/UTMALDG).
  MemorySpace destSpace = MemorySpace::None;
  /// The key the instruction is counted under: "LDG", "STS", "BAR",
  /// "SHFL.BFLY", "MUFU.EX2", "FFMA", ...; empty for uncounted opcodes.
  std::string countKey;

  /// A barrier after which this thread may read other threads' shared
  /// stores: BAR.SYNC/BAR.RED/BAR.SYNCALL and mbarrier waits
  /// (SYNCS.PHASECHK). BAR.ARV only arrives and does not wait.
  bool ordersSharedMemory = false;

  bool isSharedStore() const; ///< STS, STSM, STAS, ATOMS, LDGSTS, UTMALDG
  bool isSharedLoad() const;  ///< LDS, LDSM, ATOMS
  bool isGlobalStore() const; ///< STG, ATOMG, RED, UTMASTG
  bool isGlobalLoad() const;  ///< LDG, ATOMG, LDGSTS, UTMALDG
  bool isLocal() const;       ///< LDL, STL
};

/// Classifies one instruction by its opcode and modifiers.
InstrClass classifyInstruction(const SassInstruction &inst);

/// The count keys in the order reports print them. Keys not listed here are
/// printed after these, alphabetically.
llvm::ArrayRef<llvm::StringRef> canonicalCountKeys();

} // namespace sass
} // namespace motif

#endif // MOTIF_SASS_SASSOPCODE_H
