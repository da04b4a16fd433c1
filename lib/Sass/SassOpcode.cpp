//===- SassOpcode.cpp - What a SASS instruction does ----------------------===//

#include "motif/Sass/SassOpcode.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace motif {
namespace sass {

StringRef stringifyMemorySpace(MemorySpace space) {
  switch (space) {
  case MemorySpace::None:
    return "none";
  case MemorySpace::Global:
    return "global";
  case MemorySpace::Shared:
    return "shared";
  case MemorySpace::Local:
    return "local";
  case MemorySpace::Constant:
    return "constant";
  case MemorySpace::Generic:
    return "generic";
  }
  return "none";
}

StringRef stringifyInstrKind(InstrKind kind) {
  switch (kind) {
  case InstrKind::Other:
    return "other";
  case InstrKind::Load:
    return "load";
  case InstrKind::Store:
    return "store";
  case InstrKind::Atomic:
    return "atomic";
  case InstrKind::AsyncCopy:
    return "async-copy";
  case InstrKind::Barrier:
    return "barrier";
  case InstrKind::Reconvergence:
    return "reconvergence";
  case InstrKind::Fence:
    return "fence";
  case InstrKind::Shuffle:
    return "shuffle";
  case InstrKind::Mufu:
    return "mufu";
  case InstrKind::FloatArith:
    return "fp32";
  case InstrKind::MatrixMultiply:
    return "mma";
  case InstrKind::Exit:
    return "exit";
  case InstrKind::Branch:
    return "branch";
  }
  return "other";
}

bool InstrClass::isSharedStore() const {
  return (space == MemorySpace::Shared &&
          (kind == InstrKind::Store || kind == InstrKind::Atomic)) ||
         (kind == InstrKind::AsyncCopy && destSpace == MemorySpace::Shared);
}

bool InstrClass::isSharedLoad() const {
  return space == MemorySpace::Shared &&
         (kind == InstrKind::Load || kind == InstrKind::Atomic);
}

bool InstrClass::isGlobalStore() const {
  return (space == MemorySpace::Global &&
          (kind == InstrKind::Store || kind == InstrKind::Atomic)) ||
         (kind == InstrKind::AsyncCopy && destSpace == MemorySpace::Global);
}

bool InstrClass::isGlobalLoad() const {
  return space == MemorySpace::Global &&
         (kind == InstrKind::Load || kind == InstrKind::Atomic ||
          kind == InstrKind::AsyncCopy);
}

bool InstrClass::isLocal() const { return space == MemorySpace::Local; }

namespace {

struct OpcodeInfo {
  InstrKind kind;
  MemorySpace space;
  MemorySpace destSpace;
};

std::optional<OpcodeInfo> lookupMemoryOpcode(StringRef opcode) {
  using K = InstrKind;
  using M = MemorySpace;
  return StringSwitch<std::optional<OpcodeInfo>>(opcode)
      .Case("LDG", OpcodeInfo{K::Load, M::Global, M::None})
      .Case("STG", OpcodeInfo{K::Store, M::Global, M::None})
      .Case("ATOMG", OpcodeInfo{K::Atomic, M::Global, M::None})
      .Case("RED", OpcodeInfo{K::Atomic, M::Global, M::None})
      .Case("REDG", OpcodeInfo{K::Atomic, M::Global, M::None})
      .Case("LDS", OpcodeInfo{K::Load, M::Shared, M::None})
      .Case("LDSM", OpcodeInfo{K::Load, M::Shared, M::None})
      .Case("STS", OpcodeInfo{K::Store, M::Shared, M::None})
      .Case("STSM", OpcodeInfo{K::Store, M::Shared, M::None})
      // st.async: a store into a cluster CTA's shared memory whose bytes
      // complete a transaction on that CTA's mbarrier.
      .Case("STAS", OpcodeInfo{K::Store, M::Shared, M::None})
      .Case("ATOMS", OpcodeInfo{K::Atomic, M::Shared, M::None})
      .Case("LDL", OpcodeInfo{K::Load, M::Local, M::None})
      .Case("STL", OpcodeInfo{K::Store, M::Local, M::None})
      .Case("LDC", OpcodeInfo{K::Load, M::Constant, M::None})
      .Case("ULDC", OpcodeInfo{K::Load, M::Constant, M::None})
      .Case("LD", OpcodeInfo{K::Load, M::Generic, M::None})
      .Case("ST", OpcodeInfo{K::Store, M::Generic, M::None})
      .Case("ATOM", OpcodeInfo{K::Atomic, M::Generic, M::None})
      // Asynchronous copies: read one space, write another.
      .Case("LDGSTS", OpcodeInfo{K::AsyncCopy, M::Global, M::Shared})
      .Case("UTMALDG", OpcodeInfo{K::AsyncCopy, M::Global, M::Shared})
      .Case("UTMASTG", OpcodeInfo{K::AsyncCopy, M::Shared, M::Global})
      .Case("UBLKCP", OpcodeInfo{K::AsyncCopy, M::Global, M::Shared})
      .Default(std::nullopt);
}

} // namespace

InstrClass classifyInstruction(const SassInstruction &inst) {
  InstrClass result;
  StringRef opcode = inst.opcode;
  if (std::optional<OpcodeInfo> info = lookupMemoryOpcode(opcode)) {
    result.kind = info->kind;
    result.space = info->space;
    result.destSpace = info->destSpace;
    result.countKey = opcode.str();
    return result;
  }
  if (opcode == "BAR") {
    result.kind = InstrKind::Barrier;
    result.countKey = "BAR";
    // BAR.SYNC, BAR.SYNC.DEFER_BLOCKING, BAR.RED.*, BAR.SYNCALL wait for the
    // other threads; BAR.ARV only signals arrival.
    result.ordersSharedMemory = !inst.hasModifier("ARV");
    return result;
  }
  if (opcode == "UCGABAR_ARV" || opcode == "UCGABAR_WAIT") {
    // The cluster barrier (barrier.cluster.arrive / .wait): the wait orders
    // the cluster's shared memory, a CTA's own included.
    result.kind = InstrKind::Barrier;
    result.countKey = opcode.str();
    result.ordersSharedMemory = opcode == "UCGABAR_WAIT";
    return result;
  }
  if (opcode == "SYNCS") {
    // Hopper mbarriers: SYNCS.ARRIVE.* signals, SYNCS.PHASECHK.* waits.
    result.kind = InstrKind::Barrier;
    result.countKey = "SYNCS";
    result.ordersSharedMemory = inst.hasModifier("PHASECHK");
    return result;
  }
  if (opcode == "BSSY" || opcode == "BSYNC" || opcode == "WARPSYNC") {
    result.kind = InstrKind::Reconvergence;
    result.countKey = opcode.str();
    return result;
  }
  if (opcode == "NANOSLEEP") {
    // A thread suspended (NANOSLEEP.SYNCS: until an mbarrier changes, in an
    // mbarrier wait loop with a suspend-time hint).
    result.kind = InstrKind::Fence;
    result.countKey = "NANOSLEEP";
    return result;
  }
  if (opcode == "MEMBAR" || opcode == "FENCE" || opcode == "ERRBAR") {
    result.kind = InstrKind::Fence;
    result.countKey = opcode.str();
    return result;
  }
  if (opcode == "SHFL") {
    result.kind = InstrKind::Shuffle;
    StringRef mode = "IDX"; // SHFL without a mode is an indexed shuffle
    for (StringRef modifier : {"BFLY", "DOWN", "UP", "IDX"})
      if (inst.hasModifier(modifier))
        mode = modifier;
    result.countKey = ("SHFL." + mode).str();
    return result;
  }
  if (opcode == "MUFU") {
    result.kind = InstrKind::Mufu;
    result.countKey = inst.modifiers.empty()
                          ? std::string("MUFU")
                          : "MUFU." + inst.modifiers.front();
    return result;
  }
  // FP32 arithmetic; the 32I forms take a 32-bit immediate and are counted
  // with their base opcode.
  StringRef base = opcode;
  base.consume_back("32I");
  if (base == "FFMA" || base == "FMUL" || base == "FADD" || base == "FMNMX") {
    result.kind = InstrKind::FloatArith;
    result.countKey = base.str();
    return result;
  }
  if (opcode == "HMMA" || opcode == "IMMA" || opcode == "DMMA" ||
      opcode == "HGMMA" || opcode == "IGMMA" || opcode == "QGMMA" ||
      opcode == "BGMMA") {
    result.kind = InstrKind::MatrixMultiply;
    result.countKey = opcode.str();
    return result;
  }
  if (opcode == "EXIT") {
    result.kind = InstrKind::Exit;
    result.countKey = "EXIT";
    return result;
  }
  if (opcode == "BRA" || opcode == "BRX" || opcode == "JMP" ||
      opcode == "JMX" || opcode == "CALL" || opcode == "RET") {
    result.kind = InstrKind::Branch;
    result.countKey = opcode.str();
    return result;
  }
  return result;
}

ArrayRef<StringRef> canonicalCountKeys() {
  static const StringRef keys[] = {
      // global
      "LDG", "STG", "ATOMG", "RED", "REDG",
      // shared
      "LDS", "LDSM", "STS", "STSM", "STAS", "ATOMS",
      // async copies
      "LDGSTS", "UTMALDG", "UTMASTG", "UBLKCP",
      // local
      "LDL", "STL",
      // constant, generic
      "LDC", "ULDC", "LD", "ST", "ATOM",
      // synchronization
      "BAR", "SYNCS", "UCGABAR_ARV", "UCGABAR_WAIT", "MEMBAR", "FENCE", "ERRBAR", "NANOSLEEP", "BSSY", "BSYNC",
      "WARPSYNC",
      // communication and arithmetic
      "SHFL.BFLY", "SHFL.DOWN", "SHFL.UP", "SHFL.IDX", "MUFU.EX2", "MUFU.LG2",
      "MUFU.RCP", "MUFU.RSQ", "MUFU.SQRT", "MUFU.SIN", "MUFU.COS",
      "MUFU.TANH", "FFMA", "FMUL", "FADD", "FMNMX", "HMMA", "IMMA", "DMMA",
      "HGMMA", "IGMMA", "QGMMA", "BGMMA",
      // control
      "EXIT", "BRA", "BRX", "JMP", "JMX", "CALL", "RET"};
  return keys;
}

} // namespace sass
} // namespace motif
