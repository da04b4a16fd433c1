//===- ProfilePrinter.cpp - Text and JSON motif profiles ------------------===//
//
// Text output is one fact per line, each line starting with a fixed word
// (`kernel`, `count`, `verdict`, `note`, ...) so FileCheck tests can match
// exactly what they mean and CHECK-NOT what must be absent.
//
//===----------------------------------------------------------------------===//

#include "motif/Sass/MotifProfile.h"
#include "motif/Sass/ProfileSummary.h"
#include "motif/Sass/SassOpcode.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"

using namespace llvm;

namespace motif {
namespace sass {

std::vector<std::string> orderedCountKeys(
    const std::map<std::string, uint64_t> &counts) {
  std::vector<std::string> keys;
  for (StringRef key : canonicalCountKeys())
    if (counts.count(key.str()))
      keys.push_back(key.str());
  for (const auto &entry : counts)
    if (!is_contained(canonicalCountKeys(), StringRef(entry.first)))
      keys.push_back(entry.first);
  return keys;
}

std::string describeLocalMemory(const KernelProfile &kernel) {
  std::string text;
  raw_string_ostream os(text);
  os << kernel.localStores.size() << " STL";
  if (!kernel.localStores.empty())
    os << " (first at " << formatAddress(kernel.localStores.front().address)
       << ")";
  os << ", " << kernel.localLoads.size() << " LDL";
  if (!kernel.localLoads.empty())
    os << " (first at " << formatAddress(kernel.localLoads.front().address)
       << ")";
  const std::optional<KernelResources> &res = kernel.resources;
  if (res && res->spillStoreBytes && *res->spillStoreBytes > 0)
    os << "; register spills: ptxas reports " << *res->spillStoreBytes
       << " bytes spill stores, " << res->spillLoadBytes.value_or(0)
       << " bytes spill loads";
  else if (res && res->spillStoreBytes)
    os << "; local array, not register spills: ptxas reports 0 bytes spill "
          "stores, "
       << res->stackFrameBytes.value_or(0) << " bytes stack frame";
  else
    os << "; register spill or local array (pass --ptxas-report to tell "
          "them apart)";
  return text;
}

namespace {

void printInstrList(raw_ostream &os, ArrayRef<InstrRef> refs) {
  for (const InstrRef &ref : refs)
    os << " " << formatAddress(ref.address);
}

void printResources(raw_ostream &os, const KernelResources &res) {
  auto field = [&](StringRef name, const std::optional<uint64_t> &value) {
    os << " " << name << "=";
    if (value)
      os << *value;
    else
      os << "?";
  };
  os << "  resources";
  forEachResource(res, [&](StringRef name, StringRef,
                           const std::optional<uint64_t> &value) {
    field(name, value);
  });
  os << "\n";
}

void printMemoryLine(raw_ostream &os, const std::map<std::string, uint64_t> &c) {
  auto get = [&](const char *key) {
    auto it = c.find(key);
    return it == c.end() ? uint64_t(0) : it->second;
  };
  os << "  memory global ld=" << get("LDG") << " st=" << get("STG")
     << " atom=" << get("ATOMG") + get("RED") + get("REDG")
     << " | shared ld=" << get("LDS") + get("LDSM")
     << " st=" << get("STS") + get("STSM") + get("STAS") << " atom=" << get("ATOMS")
     << " | local ld=" << get("LDL") << " st=" << get("STL")
     << " | async-copy=" << get("LDGSTS") + get("UTMALDG") + get("UTMASTG") +
                                get("UBLKCP")
     << "\n";
}

/// The bits one LDG/STG moves a thread: .128, .64, .U16/.S16, .U8/.S8 in its
/// modifiers, else 32.
unsigned accessBits(StringRef opcode) {
  SmallVector<StringRef> parts;
  opcode.split(parts, '.');
  for (StringRef m : llvm::drop_begin(parts)) {
    if (m == "128")
      return 128;
    if (m == "64")
      return 64;
    if (m == "U16" || m == "S16")
      return 16;
    if (m == "U8" || m == "S8")
      return 8;
  }
  return 32;
}

/// `  widths global ld 128b=16 | st 128b=13 64b=2 16b=16`: how wide the
/// plain global loads and stores are (LDG, STG), widest first. A row kernel
/// whose threads take 16-byte runs should show only 128b.
void printWidthLine(raw_ostream &os, const KernelProfile &kernel) {
  auto widths = [](ArrayRef<InstrRef> refs, StringRef base) {
    std::map<unsigned, uint64_t, std::greater<unsigned>> bits;
    for (const InstrRef &ref : refs)
      if (StringRef(ref.opcode).split('.').first == base)
        ++bits[accessBits(ref.opcode)];
    return bits;
  };
  auto ld = widths(kernel.globalLoads, "LDG");
  auto st = widths(kernel.globalStores, "STG");
  if (ld.empty() && st.empty())
    return;
  os << "  widths global ld";
  for (auto [b, n] : ld)
    os << " " << b << "b=" << n;
  os << " | st";
  for (auto [b, n] : st)
    os << " " << b << "b=" << n;
  os << "\n";
}

void printKernel(raw_ostream &os, const KernelProfile &kernel) {
  os << "kernel " << kernel.name << "\n";
  if (kernel.demangledName != kernel.name)
    os << "  demangled " << kernel.demangledName << "\n";
  if (!kernel.arch.empty())
    os << "  arch " << kernel.arch << "\n";
  if (!kernel.isEntry)
    os << "  note device function (not a kernel entry)\n";
  os << "  instructions " << kernel.instructionCount << "\n";
  if (kernel.resources)
    printResources(os, *kernel.resources);
  for (const std::string &key : orderedCountKeys(kernel.counts))
    os << "  count " << key << " " << kernel.counts.at(key) << "\n";
  printMemoryLine(os, kernel.counts);
  printWidthLine(os, kernel);

  if (kernel.isRegisterOnly())
    os << "  verdict register-only: no STS/LDS/STL/LDL and no global round "
          "trip; intermediates stay in registers"
       << (kernel.warpReductions.empty() ? "" : " (cross-lane via SHFL)")
       << "\n";
  for (const SharedChain &chain : kernel.sharedChains)
    os << "  verdict shared-materialization: " << chain.store.opcode
       << " at " << formatAddress(chain.store.address) << " -> "
       << chain.barrier.opcode << " at " << formatAddress(chain.barrier.address)
       << " -> " << chain.load.opcode << " at "
       << formatAddress(chain.load.address) << "\n";
  for (const StagedLoop &loop : kernel.stagedLoops)
    os << "  verdict staged-tile loop: " << loop.store.opcode << " at "
       << formatAddress(loop.store.address) << " -> " << loop.barrier.opcode
       << " at " << formatAddress(loop.barrier.address) << " -> loop "
       << formatAddress(loop.loopStart.address) << ".."
       << formatAddress(loop.branch.address) << ": " << loop.sharedLoads
       << " LDS (" << loop.sharedWords << " words) feed " << loop.ffma
       << " FFMA, each loaded word reused by "
       << llvm::format("%.1f", double(loop.ffma) / loop.sharedWords)
       << " FFMA\n";
  if (const std::optional<TensorCoreUse> &tc = kernel.tensorCores) {
    os << "  verdict tensor cores:";
    bool firstKind = true;
    for (const auto &[opcode, n] : tc->mma) {
      os << (firstKind ? " " : " + ") << n << " " << opcode;
      firstKind = false;
    }
    os << " (first at " << formatAddress(tc->first.address) << ")";
    if (tc->registerA)
      os << ", A from registers in " << tc->registerA << " HGMMA";
    if (tc->ldsm)
      os << ", fed by " << tc->ldsm << " LDSM";
    if (tc->ldgsts || tc->utmaldg) {
      os << ", staged by";
      if (tc->ldgsts)
        os << " " << tc->ldgsts << " LDGSTS";
      if (tc->utmaldg)
        os << (tc->ldgsts ? " +" : "") << " " << tc->utmaldg << " UTMALDG";
    }
    os << "\n";
  }
  if (const std::optional<ClusterUse> &cu = kernel.cluster)
    os << "  verdict cluster: " << cu->arrives << " UCGABAR_ARV / "
       << cu->waits << " UCGABAR_WAIT cluster barrier(s) (first at "
       << formatAddress(cu->first.address) << "), " << cu->genericLoads
       << " generic load(s) and " << cu->genericStores
       << " generic store(s) after them (LD, ST: distributed shared "
          "memory)";
  if (const std::optional<ClusterUse> &cu = kernel.cluster;
      cu && cu->asyncStores)
    os << ", " << cu->asyncStores << " st.async store(s) (STAS) counted on "
       << "mbarriers, " << cu->mbarrierWaits << " mbarrier wait(s)";
  if (kernel.cluster)
    os << "\n";
  if (const std::optional<PrivateRoundTrips> &rt = kernel.privateRoundTrips) {
    os << "  verdict thread-private shared: " << rt->loads
       << " shared load(s) read back the address their thread stored, no "
          "barrier between (through";
    for (const std::string &reg : rt->registers)
      os << " " << reg;
    os << "), first " << rt->firstStore.opcode << " at "
       << formatAddress(rt->firstStore.address) << " -> "
       << rt->firstLoad.opcode << " at "
       << formatAddress(rt->firstLoad.address) << "\n";
  }
  for (const SharedHazard &hazard : kernel.hazards)
    os << "  verdict HAZARD: shared store at "
       << formatAddress(hazard.store.address) << " (" << hazard.store.opcode
       << ") reaches shared load at " << formatAddress(hazard.load.address)
       << " (" << hazard.load.opcode << ") with no barrier\n";
  for (const WgmmaRegisterHazard &hazard : kernel.wgmmaHazards)
    os << "  verdict HAZARD: " << hazard.writer.opcode << " at "
       << formatAddress(hazard.writer.address) << " writes " << hazard.reg
       << ", an A register of the HGMMA at "
       << formatAddress(hazard.wgmma.address)
       << ", before the wait for its group\n";
  // FMA chains: the longest few, then a count (GEMM-like kernels have many).
  if (!kernel.fmaChains.empty()) {
    std::vector<const FmaChain *> chains;
    for (const FmaChain &chain : kernel.fmaChains)
      chains.push_back(&chain);
    std::stable_sort(chains.begin(), chains.end(), [](auto *a, auto *b) {
      return a->instructions.size() > b->instructions.size();
    });
    constexpr size_t kShown = 4;
    for (size_t i = 0; i < std::min(kShown, chains.size()); ++i) {
      const FmaChain &chain = *chains[i];
      os << "  verdict fma-chain: " << chain.instructions.front().opcode
         << " -> FFMA x" << chain.instructions.size() - 1 << " ("
         << chain.instructions.size() << " dependent instructions) at";
      printInstrList(os, chain.instructions);
      os << "\n";
    }
    if (chains.size() > kShown)
      os << "  verdict fma-chains: " << chains.size() << " in all (+"
         << chains.size() - kShown << " not listed)\n";
  }
  for (const WarpReduction &reduction : kernel.warpReductions) {
    os << "  verdict warp-reduction: " << reduction.stages.size() << " SHFL."
       << reduction.mode << " stage" << (reduction.stages.size() == 1 ? "" : "s")
       << " (offsets";
    for (int64_t offset : reduction.offsets) {
      if (offset < 0)
        os << " reg";
      else
        os << " " << offset;
    }
    os << ") at";
    printInstrList(os, reduction.stages);
    os << "\n";
  }
  if (!kernel.localLoads.empty() || !kernel.localStores.empty())
    os << "  verdict local-memory: " << describeLocalMemory(kernel) << "\n";
  if (!kernel.globalStores.empty())
    os << "  verdict global-store (kernel boundary): "
       << kernel.globalStores.size() << " global store"
       << (kernel.globalStores.size() == 1 ? "" : "s") << ", first "
       << kernel.globalStores.front().opcode << " at "
       << formatAddress(kernel.globalStores.front().address) << "\n";
  if (!kernel.globalLoads.empty())
    os << "  verdict global-load (kernel boundary): "
       << kernel.globalLoads.size() << " global load"
       << (kernel.globalLoads.size() == 1 ? "" : "s") << ", first "
       << kernel.globalLoads.front().opcode << " at "
       << formatAddress(kernel.globalLoads.front().address) << "\n";
  for (const GlobalRoundTrip &trip : kernel.globalRoundTrips)
    os << "  verdict global-round-trip: " << trip.store.opcode << " at "
       << formatAddress(trip.store.address) << " may be reloaded by "
       << trip.load.opcode << " at " << formatAddress(trip.load.address)
       << " in the same kernel\n";
  for (const InstrRef &barrier : kernel.barriers)
    // (A cluster barrier's arrive is half of the pair the cluster verdict
    // counts: its wait follows.)
    if (StringRef(barrier.opcode).contains("ARV") &&
        !StringRef(barrier.opcode).starts_with("UCGABAR"))
      os << "  note " << barrier.opcode << " at "
         << formatAddress(barrier.address)
         << " only arrives; it orders nothing for this thread\n";
  if (!kernel.reconvergence.empty()) {
    os << "  note reconvergence, not barriers:";
    for (const InstrRef &ref : kernel.reconvergence)
      os << " " << ref.opcode << " " << formatAddress(ref.address);
    os << "\n";
  }
}

void printTotals(raw_ostream &os, const ModuleProfile &profile) {
  ProfileSummary summary = summarizeModule(profile);
  os << "file totals: " << profile.kernels.size() << " kernels\n";
  os << "  instructions " << summary.instructions << "\n";
  for (const std::string &key : orderedCountKeys(summary.counts))
    os << "  count " << key << " " << summary.counts.at(key) << "\n";
  printMemoryLine(os, summary.counts);
  for (const SummaryMetric &metric : summary.verdicts) {
    if (metric.countsKernels)
      os << "  kernels " << metric.name << " " << *metric.value << "/"
         << profile.kernels.size() << "\n";
    else
      os << "  total " << metric.name << " " << *metric.value << "\n";
  }
  std::vector<std::string> producers, consumers;
  for (const KernelProfile &kernel : profile.kernels) {
    if (!kernel.globalStores.empty())
      producers.push_back(kernel.name);
    if (!kernel.globalLoads.empty())
      consumers.push_back(kernel.name);
  }
  os << "  kernel-boundary: " << producers.size()
     << " kernels store to global, " << consumers.size()
     << " load from global; SASS names no buffers and nvdisasm prints "
        "kernels in reverse source order, so any STG kernel may feed a "
        "later-launched LDG kernel\n";
  for (const std::string &name : producers)
    os << "  global-producer " << name << "\n";
  for (const std::string &name : consumers)
    os << "  global-consumer " << name << "\n";
}

json::Array refsToJSON(ArrayRef<InstrRef> refs) {
  json::Array array;
  for (const InstrRef &ref : refs)
    array.push_back(json::Object{{"address", ref.address},
                                 {"opcode", ref.opcode}});
  return array;
}

json::Value refToJSON(const InstrRef &ref) {
  return json::Object{{"address", ref.address}, {"opcode", ref.opcode}};
}

json::Value countsToJSON(const std::map<std::string, uint64_t> &counts) {
  json::Object object;
  for (const auto &entry : counts)
    object[entry.first] = entry.second;
  return object;
}

json::Value resourcesToJSON(const KernelResources &res) {
  json::Object object;
  auto put = [&](StringRef key, const std::optional<uint64_t> &value) {
    object[key] = value ? json::Value(*value) : json::Value(nullptr);
  };
  forEachResource(res, [&](StringRef, StringRef key,
                           const std::optional<uint64_t> &value) {
    put(key, value);
  });
  return object;
}

json::Value tensorCoresToJSON(const KernelProfile &kernel) {
  if (!kernel.tensorCores)
    return nullptr;
  const TensorCoreUse &tc = *kernel.tensorCores;
  return json::Object{{"mma", countsToJSON(tc.mma)},
                      {"first", refToJSON(tc.first)},
                      {"ldsm", static_cast<int64_t>(tc.ldsm)},
                      {"ldgsts", static_cast<int64_t>(tc.ldgsts)},
                      {"utmaldg", static_cast<int64_t>(tc.utmaldg)},
                      {"register_a", static_cast<int64_t>(tc.registerA)}};
}

json::Value kernelToJSON(const KernelProfile &kernel) {
  json::Array chains, hazards, reductions, trips;
  for (const SharedChain &chain : kernel.sharedChains)
    chains.push_back(json::Object{{"store", refToJSON(chain.store)},
                                  {"barrier", refToJSON(chain.barrier)},
                                  {"load", refToJSON(chain.load)}});
  for (const SharedHazard &hazard : kernel.hazards)
    hazards.push_back(json::Object{{"store", refToJSON(hazard.store)},
                                   {"load", refToJSON(hazard.load)}});
  json::Array staged;
  for (const StagedLoop &loop : kernel.stagedLoops)
    staged.push_back(json::Object{{"store", refToJSON(loop.store)},
                                  {"barrier", refToJSON(loop.barrier)},
                                  {"loop_start", refToJSON(loop.loopStart)},
                                  {"branch", refToJSON(loop.branch)},
                                  {"shared_loads", int64_t(loop.sharedLoads)},
                                  {"shared_words", int64_t(loop.sharedWords)},
                                  {"ffma", int64_t(loop.ffma)}});
  for (const WarpReduction &reduction : kernel.warpReductions) {
    json::Array offsets;
    for (int64_t offset : reduction.offsets)
      offsets.push_back(offset < 0 ? json::Value(nullptr) : json::Value(offset));
    reductions.push_back(json::Object{
        {"mode", reduction.mode},
        {"stages", static_cast<int64_t>(reduction.stages.size())},
        {"offsets", std::move(offsets)},
        {"instructions", refsToJSON(reduction.stages)}});
  }
  for (const GlobalRoundTrip &trip : kernel.globalRoundTrips)
    trips.push_back(json::Object{{"store", refToJSON(trip.store)},
                                 {"load", refToJSON(trip.load)}});
  json::Array wgmmaHazards;
  for (const WgmmaRegisterHazard &hazard : kernel.wgmmaHazards)
    wgmmaHazards.push_back(json::Object{{"wgmma", refToJSON(hazard.wgmma)},
                                        {"writer", refToJSON(hazard.writer)},
                                        {"register", hazard.reg}});
  json::Array fmaChains;
  for (const FmaChain &chain : kernel.fmaChains)
    fmaChains.push_back(refsToJSON(chain.instructions));
  json::Object verdicts{
      {"register_only", kernel.isRegisterOnly()},
      {"shared_materialization", std::move(chains)},
      {"hazards", std::move(hazards)},
      {"wgmma_register_hazards", std::move(wgmmaHazards)},
      {"private_round_trips",
       kernel.privateRoundTrips
           ? json::Value(json::Object{
                 {"loads", static_cast<int64_t>(kernel.privateRoundTrips->loads)},
                 {"first_store", refToJSON(kernel.privateRoundTrips->firstStore)},
                 {"first_load", refToJSON(kernel.privateRoundTrips->firstLoad)}})
           : json::Value(nullptr)},
      {"staged_loops", std::move(staged)},
      {"tensor_cores", tensorCoresToJSON(kernel)},
      {"cluster",
       kernel.cluster
           ? json::Value(json::Object{
                 {"arrives", static_cast<int64_t>(kernel.cluster->arrives)},
                 {"waits", static_cast<int64_t>(kernel.cluster->waits)},
                 {"generic_loads",
                  static_cast<int64_t>(kernel.cluster->genericLoads)},
                 {"generic_stores",
                  static_cast<int64_t>(kernel.cluster->genericStores)},
                 {"first", refToJSON(kernel.cluster->first)}})
           : json::Value(nullptr)},
      {"warp_reductions", std::move(reductions)},
      {"fma_chains", std::move(fmaChains)},
      {"global_round_trips", std::move(trips)},
  };
  if (!kernel.localLoads.empty() || !kernel.localStores.empty())
    verdicts["local_memory"] = json::Object{
        {"stores", refsToJSON(kernel.localStores)},
        {"loads", refsToJSON(kernel.localLoads)},
        {"description", describeLocalMemory(kernel)}};
  else
    verdicts["local_memory"] = nullptr;
  verdicts["global_store_kernel_boundary"] =
      static_cast<int64_t>(kernel.globalStores.size());
  verdicts["global_load_kernel_boundary"] =
      static_cast<int64_t>(kernel.globalLoads.size());

  json::Object object{
      {"name", kernel.name},
      {"demangled", kernel.demangledName},
      {"arch", kernel.arch},
      {"entry", kernel.isEntry},
      {"line", static_cast<int64_t>(kernel.line)},
      {"instructions", kernel.instructionCount},
      {"counts", countsToJSON(kernel.counts)},
      {"resources", kernel.resources ? resourcesToJSON(*kernel.resources)
                                     : json::Value(nullptr)},
      {"barriers", refsToJSON(kernel.barriers)},
      {"reconvergence", refsToJSON(kernel.reconvergence)},
      {"verdicts", std::move(verdicts)},
  };
  return object;
}

} // namespace

void printProfileText(const ModuleProfile &profile, raw_ostream &os,
                      const KernelProfile *only) {
  os << "motif-sass profile: " << profile.fileName << " ("
     << stringifySassFormat(profile.format) << ", " << profile.kernels.size()
     << " kernel" << (profile.kernels.size() == 1 ? "" : "s") << ")\n";
  for (const std::string &name : profile.unmatchedReportEntries)
    os << "note ptxas report names '" << name
       << "', which is not a kernel of this listing\n";
  for (const KernelProfile &kernel : profile.kernels) {
    if (only && &kernel != only)
      continue;
    os << "\n";
    printKernel(os, kernel);
  }
  if (!only && profile.kernels.size() > 1) {
    os << "\n";
    printTotals(os, profile);
  }
}

void printInstructionsText(const SassModule &module, raw_ostream &os) {
  os << "motif-sass parse: " << module.fileName << " ("
     << stringifySassFormat(module.format) << ", " << module.kernels.size()
     << " kernel" << (module.kernels.size() == 1 ? "" : "s") << ")\n";
  for (const SassKernel &kernel : module.kernels) {
    os << "kernel " << kernel.name << " line " << kernel.line
       << (kernel.arch.empty() ? "" : " " + kernel.arch)
       << (kernel.isEntry ? "" : " (device function)") << "\n";
    for (const SassInstruction &inst : kernel.instructions) {
      InstrClass cls = classifyInstruction(inst);
      os << "  " << formatAddress(inst.address) << " line " << inst.line;
      os << " pred=";
      if (inst.predicate.empty())
        os << "-";
      else
        os << (inst.predicateNegated ? "!" : "") << inst.predicate;
      os << " op=" << inst.opcode << " mods=";
      if (inst.modifiers.empty())
        os << "-";
      else
        os << join(inst.modifiers, ",");
      os << " operands=[" << join(inst.operands, " | ") << "]";
      os << " class=" << stringifyInstrKind(cls.kind);
      if (cls.space != MemorySpace::None)
        os << "." << stringifyMemorySpace(cls.space);
      if (cls.destSpace != MemorySpace::None)
        os << "->" << stringifyMemorySpace(cls.destSpace);
      if (cls.kind == InstrKind::Barrier)
        os << (cls.ordersSharedMemory ? " (orders shared memory)"
                                      : " (arrive only)");
      os << "\n";
    }
  }
}

json::Value profileToJSON(const ModuleProfile &profile,
                          const KernelProfile *only) {
  json::Array kernels;
  for (const KernelProfile &kernel : profile.kernels)
    if (!only || &kernel == only)
      kernels.push_back(kernelToJSON(kernel));
  json::Object object{{"file", profile.fileName},
                      {"format", stringifySassFormat(profile.format)},
                      {"kernels", std::move(kernels)}};
  if (!only) {
    ProfileSummary summary = summarizeModule(profile);
    json::Object verdicts;
    for (const SummaryMetric &metric : summary.verdicts)
      verdicts[metric.name] = *metric.value;
    object["totals"] = json::Object{
        {"kernels", static_cast<int64_t>(profile.kernels.size())},
        {"instructions", summary.instructions},
        {"counts", countsToJSON(summary.counts)},
        {"verdicts", std::move(verdicts)}};
  }
  json::Array unmatched;
  for (const std::string &name : profile.unmatchedReportEntries)
    unmatched.push_back(name);
  object["unmatched_ptxas_entries"] = std::move(unmatched);
  return object;
}

} // namespace sass
} // namespace motif
