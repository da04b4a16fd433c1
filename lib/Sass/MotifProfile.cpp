//===- MotifProfile.cpp - Execution motifs and residency verdicts ---------===//
//
// One pass over a kernel's instructions in address order. The verdicts are
// deliberately syntactic: no control-flow graph and no register data flow.
// What that misses (loop back edges, paths a branch skips, which register a
// shuffle reduces) is listed in docs/motif-sass.md.
//
//===----------------------------------------------------------------------===//

#include "motif/Sass/MotifProfile.h"
#include "motif/Sass/SassOpcode.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace motif {
namespace sass {

std::string formatAddress(uint64_t address) {
  std::string digits = utohexstr(address, /*LowerCase=*/true);
  if (digits.size() < 4)
    digits.insert(0, 4 - digits.size(), '0');
  return "/*" + digits + "*/";
}

bool KernelProfile::isRegisterOnly() const {
  return sharedLoads.empty() && sharedStores.empty() && localLoads.empty() &&
         localStores.empty() && globalRoundTrips.empty();
}

uint64_t KernelProfile::count(StringRef key) const {
  auto it = counts.find(key.str());
  return it == counts.end() ? 0 : it->second;
}

namespace {

InstrRef refOf(const SassInstruction &inst) {
  return InstrRef{inst.address, inst.fullOpcode()};
}

/// The lane offset of `SHFL.MODE Pd, Rd, Ra, OFFSET, CLAMP`; -1 when it is a
/// register or missing.
int64_t shuffleOffset(const SassInstruction &inst) {
  if (inst.operands.size() < 4)
    return -1;
  StringRef text = inst.operands[3];
  uint64_t value;
  if (text.starts_with("0x") ? !text.drop_front(2).getAsInteger(16, value)
                             : !text.getAsInteger(10, value))
    return static_cast<int64_t>(value);
  return -1;
}

/// Registers `inst` writes: its first operand when it is a register, as
/// many as a 64- or 128-bit access writes.
static SmallVector<std::string> registersDefinedBy(const SassInstruction &inst,
                                                   const InstrClass &cls) {
  SmallVector<std::string> defs;
  if (cls.kind == InstrKind::Store || inst.operands.empty())
    return defs;
  StringRef first = inst.operands.front();
  bool uniform = first.starts_with("UR");
  StringRef digits = first.drop_front(uniform ? 2 : 1);
  unsigned n = 0;
  if (!(first.starts_with("R") || uniform) || digits.getAsInteger(10, n))
    return defs;
  unsigned width = inst.hasModifier("128") ? 4 : inst.hasModifier("64") ? 2 : 1;
  for (unsigned i = 0; i < width; ++i)
    defs.push_back((uniform ? "UR" : "R") + std::to_string(n + i));
  return defs;
}

/// Scans shared stores, barriers and shared loads in address order.
///   chain:  the last shared store before an ordering barrier, that barrier,
///           and the first shared load after it.
///   hazard: a shared store with no ordering barrier before a later shared
///           load (LDS/LDSM). Shared atomics count as stores only: their
///           own read is atomic.
///   read-back: a shared load naming the address a pending store of the
///           same thread named, with no register of it redefined between
///           (PrivateRoundTrips): no hazard.
class SharedScan {
public:
  explicit SharedScan(KernelProfile &profile) : profile(profile) {}

  /// The bracketed address operand ("[R49+0x1000]"), or empty.
  static StringRef addressOf(const SassInstruction &inst) {
    for (const std::string &op : inst.operands)
      if (StringRef(op).starts_with("["))
        return op;
    return "";
  }

  /// The registers an address names ("R49", "UR4"; not RZ/URZ).
  static SmallVector<std::string> registersOf(StringRef address) {
    SmallVector<std::string> regs;
    SmallVector<StringRef> parts;
    address.trim("[]").split(parts, '+');
    for (StringRef part : parts) {
      StringRef name = part.trim().split('.').first; // R49.X4 -> R49
      if ((name.starts_with("R") || name.starts_with("UR")) && name != "RZ" &&
          name != "URZ")
        regs.push_back(name.str());
    }
    return regs;
  }

  void visit(const SassInstruction &inst, const InstrClass &cls) {
    if (cls.kind == InstrKind::Barrier && cls.ordersSharedMemory) {
      if (!pendingStores.empty())
        openChains.push_back({pendingStores.back(), refOf(inst)});
      pendingStores.clear();
      unreportedStores.clear();
      storeAddresses.clear();
      return;
    }
    // A redefined register makes the addresses naming it unknown.
    for (const std::string &def : registersDefinedBy(inst, cls))
      llvm::erase_if(storeAddresses, [&](const auto &entry) {
        return llvm::is_contained(registersOf(entry.first), def);
      });
    bool isPlainSharedLoad =
        cls.space == MemorySpace::Shared && cls.kind == InstrKind::Load;
    if (cls.isSharedLoad()) {
      for (auto &open : openChains)
        profile.sharedChains.push_back({open.first, open.second, refOf(inst)});
      openChains.clear();
    }
    if (isPlainSharedLoad) {
      StringRef address = addressOf(inst);
      auto stored = llvm::find_if(storeAddresses, [&](const auto &entry) {
        return entry.first == address;
      });
      // A uniform address (UR, immediate) is the same in every thread: only
      // one through a per-thread register can be the thread's own.
      bool perThread = llvm::any_of(registersOf(address), [](StringRef r) {
        return r.starts_with("R");
      });
      if (perThread && stored != storeAddresses.end()) {
        // Reads back what this thread stored there.
        if (!profile.privateRoundTrips)
          profile.privateRoundTrips =
              PrivateRoundTrips{stored->second, refOf(inst), 0, {}};
        ++profile.privateRoundTrips->loads;
        for (std::string &reg : registersOf(address))
          if (!llvm::is_contained(profile.privateRoundTrips->registers, reg))
            profile.privateRoundTrips->registers.push_back(reg);
      } else if (!unreportedStores.empty()) {
        profile.hazards.push_back({unreportedStores.front(), refOf(inst)});
        unreportedStores.clear();
      }
    }
    if (cls.isSharedStore()) {
      if (cls.kind != InstrKind::AsyncCopy) {
        StringRef address = addressOf(inst);
        llvm::erase_if(storeAddresses, [&](const auto &entry) {
          return entry.first == address;
        });
        if (!address.empty())
          storeAddresses.push_back({address.str(), refOf(inst)});
      }
      pendingStores.push_back(refOf(inst));
      // An asynchronous copy (LDGSTS, cp.async) is ordered by its own wait
      // (LDGDEPBAR / DEPBAR) before a barrier: a load after it in address
      // order reads another stage of a pipeline, not this copy's data.
      if (cls.kind != InstrKind::AsyncCopy)
        unreportedStores.push_back(refOf(inst));
    }
  }

private:
  KernelProfile &profile;
  std::vector<InstrRef> pendingStores;
  /// Pending stores not yet named in a hazard (one hazard per store run).
  std::vector<InstrRef> unreportedStores;
  /// The addresses of the stores since the last barrier, still known.
  std::vector<std::pair<std::string, InstrRef>> storeAddresses;
  std::vector<std::pair<InstrRef, InstrRef>> openChains;
};

/// Groups SHFL.BFLY / SHFL.DOWN into reductions: a run of one mode whose
/// immediate offsets do not repeat. A repeated offset starts a new run (the
/// fused softmax does max then sum: 16 8 4 2 1, 16 8 4 2 1).
class ShuffleScan {
public:
  explicit ShuffleScan(KernelProfile &profile) : profile(profile) {}

  void visit(const SassInstruction &inst, const InstrClass &cls) {
    if (cls.kind != InstrKind::Shuffle)
      return;
    StringRef mode = StringRef(cls.countKey).drop_front(strlen("SHFL."));
    if (mode != "BFLY" && mode != "DOWN") {
      flush();
      return;
    }
    int64_t offset = shuffleOffset(inst);
    if (current.mode != mode ||
        (offset >= 0 && is_contained(current.offsets, offset)))
      flush();
    current.mode = mode.str();
    current.stages.push_back(refOf(inst));
    current.offsets.push_back(offset);
  }

  void flush() {
    if (!current.stages.empty())
      profile.warpReductions.push_back(std::move(current));
    current = WarpReduction();
  }

private:
  KernelProfile &profile;
  WarpReduction current;
};

/// The general-purpose register an operand names ("R7", "-R7", "|R7|",
/// "R7.reuse"), or empty (RZ, predicates, immediates, memory operands).
static std::string registerOf(StringRef operand) {
  operand = operand.trim().ltrim("-|!").rtrim("|");
  if (!operand.consume_front("R") || operand.empty() || !isDigit(operand[0]))
    return "";
  StringRef digits = operand.take_while([](char c) { return isDigit(c); });
  return ("R" + digits).str();
}

/// Follows accumulator registers through FMUL/FFMA: an FFMA whose addend is
/// the register an open chain last wrote extends that chain; any other write
/// to that register ends it. Straight-line order only (no control flow).
class FmaScan {
public:
  explicit FmaScan(KernelProfile &profile) : profile(profile) {}

  void visit(const SassInstruction &inst) {
    std::string dst =
        inst.operands.empty() ? "" : registerOf(inst.operands.front());
    bool isFma = inst.opcode == "FFMA";
    bool isMul = inst.opcode == "FMUL";
    if (isFma && inst.operands.size() == 4) {
      std::string acc = registerOf(inst.operands[3]);
      auto it = open.find(acc);
      if (!acc.empty() && it != open.end()) {
        FmaChain chain = std::move(it->second);
        open.erase(it);
        chain.instructions.push_back(refOf(inst));
        close(dst);
        open[dst] = std::move(chain);
        return;
      }
    }
    close(dst);
    if ((isFma || isMul) && !dst.empty())
      open[dst].instructions.push_back(refOf(inst));
  }

  void flush() {
    for (auto &entry : open)
      record(std::move(entry.second));
    open.clear();
    llvm::sort(profile.fmaChains, [](const FmaChain &a, const FmaChain &b) {
      return a.instructions.front().address < b.instructions.front().address;
    });
  }

private:
  void close(const std::string &reg) {
    auto it = open.find(reg);
    if (reg.empty() || it == open.end())
      return;
    record(std::move(it->second));
    open.erase(it);
  }
  void record(FmaChain chain) {
    if (chain.instructions.size() >= kMinFmaChainLength)
      profile.fmaChains.push_back(std::move(chain));
  }

  KernelProfile &profile;
  std::map<std::string, FmaChain> open;
};

} // namespace

/// Loops are backward branches to a label; a staged-tile loop is one whose
/// body loads shared memory into FFMAs and stores none, after a shared store
/// and a barrier that precede it (in the loop around it, or before it).
static void findStagedLoops(const SassKernel &kernel, KernelProfile &profile) {
  const std::vector<SassInstruction> &insts = kernel.instructions;
  for (size_t b = 0; b < insts.size(); ++b) {
    const SassInstruction &bra = insts[b];
    if (bra.opcode != "BRA" || bra.operands.empty())
      continue;
    StringRef target = bra.operands.front();
    target.consume_front("`(");
    target.consume_back(")");
    auto it = kernel.labels.find(target.str());
    if (it == kernel.labels.end() || it->second > b)
      continue;
    size_t start = it->second;
    StagedLoop loop;
    bool stores = false;
    for (size_t i = start; i <= b; ++i) {
      InstrClass cls = classifyInstruction(insts[i]);
      stores |= cls.isSharedStore() || cls.kind == InstrKind::Barrier;
      if (insts[i].opcode == "LDS") {
        ++loop.sharedLoads;
        uint64_t words = 1;
        for (const std::string &m : insts[i].modifiers)
          words = m == "64" ? 2 : m == "128" ? 4 : words;
        loop.sharedWords += words;
      }
      loop.ffma += insts[i].opcode == "FFMA";
    }
    if (stores || !loop.sharedLoads || loop.ffma < loop.sharedLoads)
      continue;
    // The last barrier before the loop, and a shared store before it.
    std::optional<size_t> bar;
    for (size_t i = start; i-- > 0;) {
      if (classifyInstruction(insts[i]).ordersSharedMemory) {
        bar = i;
        break;
      }
    }
    if (!bar)
      continue;
    std::optional<size_t> sts;
    for (size_t i = *bar; i-- > 0;)
      if (classifyInstruction(insts[i]).isSharedStore()) {
        sts = i;
        break;
      }
    if (!sts)
      continue;
    loop.store = refOf(insts[*sts]);
    loop.barrier = refOf(insts[*bar]);
    loop.loopStart = refOf(insts[start]);
    loop.branch = refOf(bra);
    profile.stagedLoops.push_back(loop);
  }
}

/// Whether `inst` closes a wgmma group (`HGMMA ..., gsb0`: ptxas marks the
/// last HGMMA of each group it issues).
static bool closesWgmmaGroup(const SassInstruction &inst) {
  return inst.opcode == "HGMMA" && llvm::is_contained(inst.operands, "gsb0");
}

/// For each HGMMA with A in registers (four: Rn .. Rn+3), the first later
/// instruction, in address order, that writes one of them before a wait
/// retires its group: `WARPGROUP.DEPBAR.LE gsb0, N` with at least N groups
/// closed after the HGMMA's own (groups retire in order).
static void findWgmmaRegisterHazards(const SassKernel &kernel,
                                     KernelProfile &profile) {
  const std::vector<SassInstruction> &insts = kernel.instructions;
  for (size_t i = 0; i < insts.size(); ++i) {
    const SassInstruction &mma = insts[i];
    if (mma.opcode != "HGMMA" || mma.operands.size() < 3)
      continue;
    StringRef a = mma.operands[1];
    unsigned n;
    if (!a.consume_front("R") || a.getAsInteger(10, n))
      continue;
    bool closed = closesWgmmaGroup(mma); // its own group is closed
    uint64_t later = 0;                  // groups closed after it
    for (size_t j = i + 1; j < insts.size(); ++j) {
      const SassInstruction &inst = insts[j];
      if (inst.predicate == "PT" && inst.predicateNegated)
        continue;
      if (closesWgmmaGroup(inst)) {
        if (closed)
          ++later;
        closed = true;
      }
      uint64_t pending;
      if (closed && inst.opcode == "WARPGROUP" &&
          inst.hasModifier("DEPBAR") && inst.operands.size() == 2 &&
          inst.operands[0] == "gsb0" &&
          !StringRef(inst.operands[1]).getAsInteger(0, pending) &&
          later >= pending)
        break;
      auto overwrites = [&](const std::string &reg) {
        StringRef name = reg;
        unsigned r;
        return name.consume_front("R") && !name.getAsInteger(10, r) &&
               r >= n && r < n + 4;
      };
      SmallVector<std::string> defs =
          registersDefinedBy(inst, classifyInstruction(inst));
      if (const std::string *reg = llvm::find_if(defs, overwrites);
          reg != defs.end()) {
        profile.wgmmaHazards.push_back({refOf(mma), refOf(inst), *reg});
        break;
      }
    }
  }
}

KernelProfile profileKernel(const SassKernel &kernel) {
  KernelProfile profile;
  profile.name = kernel.name;
  profile.demangledName = demangle(kernel.name);
  profile.line = kernel.line;
  profile.arch = kernel.arch;
  profile.isEntry = kernel.isEntry;
  SharedScan sharedScan(profile);
  ShuffleScan shuffleScan(profile);
  FmaScan fmaScan(profile);
  std::optional<InstrRef> firstGlobalStore;
  for (const SassInstruction &inst : kernel.instructions) {
    // `@!PT` never executes (ptxas pads with `@!PT LDS RZ, [RZ]` around
    // cp.async waits): it is no motif.
    if (inst.predicate == "PT" && inst.predicateNegated)
      continue;
    InstrClass cls = classifyInstruction(inst);
    ++profile.instructionCount;
    if (!cls.countKey.empty())
      ++profile.counts[cls.countKey];
    InstrRef ref = refOf(inst);
    if (cls.isGlobalLoad()) {
      profile.globalLoads.push_back(ref);
      // LDG.E.CONSTANT is the non-coherent read-only path: the compiler
      // proved nothing this kernel writes aliases it, so it cannot reload a
      // value this kernel stored.
      bool readOnly = inst.hasModifier("CONSTANT");
      if (firstGlobalStore && !readOnly && profile.globalRoundTrips.empty())
        profile.globalRoundTrips.push_back({*firstGlobalStore, ref});
    }
    if (cls.isGlobalStore()) {
      profile.globalStores.push_back(ref);
      if (!firstGlobalStore)
        firstGlobalStore = ref;
    }
    if (cls.isSharedLoad())
      profile.sharedLoads.push_back(ref);
    if (cls.isSharedStore())
      profile.sharedStores.push_back(ref);
    if (cls.isLocal())
      (cls.kind == InstrKind::Load ? profile.localLoads : profile.localStores)
          .push_back(ref);
    if (cls.kind == InstrKind::Barrier)
      profile.barriers.push_back(ref);
    if (cls.kind == InstrKind::Reconvergence)
      profile.reconvergence.push_back(ref);
    if (inst.opcode == "UCGABAR_ARV" || inst.opcode == "UCGABAR_WAIT") {
      if (!profile.cluster) {
        profile.cluster.emplace();
        profile.cluster->first = ref;
      }
      ++(inst.opcode == "UCGABAR_ARV" ? profile.cluster->arrives
                                      : profile.cluster->waits);
    } else if (profile.cluster && cls.kind == InstrKind::Load &&
               cls.space == MemorySpace::Generic) {
      ++profile.cluster->genericLoads;
    } else if (profile.cluster && cls.kind == InstrKind::Store &&
               cls.space == MemorySpace::Generic) {
      ++profile.cluster->genericStores;
    } else if (profile.cluster && inst.opcode == "STAS") {
      ++profile.cluster->asyncStores;
    } else if (profile.cluster && inst.opcode == "SYNCS" &&
               inst.hasModifier("PHASECHK") && inst.hasModifier("TRYWAIT")) {
      ++profile.cluster->mbarrierWaits;
    }
    if (inst.opcode == "HMMA" || inst.opcode == "HGMMA") {
      if (!profile.tensorCores) {
        profile.tensorCores.emplace();
        profile.tensorCores->first = ref;
      }
      ++profile.tensorCores->mma[ref.opcode];
      // HGMMA d, a, b, ...: a register A reads "R<n>", a descriptor
      // "gdesc[UR<n>]".
      if (inst.opcode == "HGMMA" && inst.operands.size() > 1 &&
          StringRef(inst.operands[1]).starts_with("R") &&
          !StringRef(inst.operands[1]).starts_with("RZ"))
        ++profile.tensorCores->registerA;
    }
    sharedScan.visit(inst, cls);
    shuffleScan.visit(inst, cls);
    fmaScan.visit(inst);
  }
  shuffleScan.flush();
  fmaScan.flush();
  findStagedLoops(kernel, profile);
  findWgmmaRegisterHazards(kernel, profile);
  if (profile.tensorCores) {
    profile.tensorCores->ldsm = profile.count("LDSM");
    profile.tensorCores->ldgsts = profile.count("LDGSTS");
    profile.tensorCores->utmaldg = profile.count("UTMALDG");
  }
  return profile;
}

ModuleProfile profileModule(const SassModule &module,
                            const PtxasReport *report) {
  ModuleProfile profile;
  profile.fileName = module.fileName;
  profile.format = module.format;
  StringSet<> matched;
  for (const SassKernel &kernel : module.kernels) {
    profile.kernels.push_back(profileKernel(kernel));
    if (!report)
      continue;
    auto it = report->find(kernel.name);
    if (it != report->end()) {
      profile.kernels.back().resources = it->second;
      matched.insert(kernel.name);
    }
  }
  if (report)
    for (const auto &entry : *report)
      if (!matched.contains(entry.getKey()))
        profile.unmatchedReportEntries.push_back(entry.getKey().str());
  llvm::sort(profile.unmatchedReportEntries);
  return profile;
}

Expected<const KernelProfile *> findKernel(const ModuleProfile &profile,
                                           StringRef query) {
  // "NAME@sm_90" picks one architecture of a fat-binary listing. (Not a
  // structured binding: the lambdas below capture these, which clang < 16,
  // the fuzz build's compiler, rejects.)
  StringRef name, arch;
  std::tie(name, arch) = query.split('@');
  SmallVector<const KernelProfile *> candidates;
  auto collect = [&](function_ref<bool(const KernelProfile &)> matches) {
    for (const KernelProfile &kernel : profile.kernels)
      if ((arch.empty() || kernel.arch == arch) && matches(kernel))
        candidates.push_back(&kernel);
    return !candidates.empty();
  };
  // Exact mangled or demangled name, then the demangled name without its
  // parameters ("attention_shared_scores_kernel"), then a substring.
  bool found =
      collect([&](const KernelProfile &k) {
        return k.name == name || k.demangledName == name;
      }) ||
      collect([&](const KernelProfile &k) {
        return StringRef(k.demangledName).split('(').first == name;
      }) ||
      collect([&](const KernelProfile &k) {
        return StringRef(k.name).contains(name) ||
               StringRef(k.demangledName).contains(name);
      });
  if (found && candidates.size() == 1)
    return candidates.front();
  std::string names;
  auto describe = [](const KernelProfile &k) {
    return "\n  " + k.name + (k.arch.empty() ? "" : "@" + k.arch);
  };
  if (found)
    for (const KernelProfile *kernel : candidates)
      names += describe(*kernel);
  else
    for (const KernelProfile &kernel : profile.kernels)
      names += describe(kernel);
  return createStringError(
      inconvertibleErrorCode(), "%s: error: %s kernel '%s'; %s:%s",
      profile.fileName.c_str(), found ? "ambiguous" : "no",
      query.str().c_str(),
      found ? "it matches (add @ARCH or use the full name)"
            : "kernels in the file",
      names.c_str());
}

} // namespace sass
} // namespace motif
