//===- MotifProfile.h - Execution motifs and residency verdicts -*- C++ -*-===//
//
// Reads a kernel's SASS as execution motifs (seed 000): where intermediates
// live (register, shared, local, global) and how they are communicated and
// synchronized. Every verdict carries the instruction addresses that prove
// it. The analysis is a linear scan in address order with no control flow
// and no register data flow; docs/motif-sass.md lists what that misses.
//
//===----------------------------------------------------------------------===//

#ifndef MOTIF_SASS_MOTIFPROFILE_H
#define MOTIF_SASS_MOTIFPROFILE_H

#include "motif/Sass/PtxasReport.h"
#include "motif/Sass/SassParser.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace motif {
namespace sass {

/// An instruction named in a verdict.
struct InstrRef {
  uint64_t address = 0;
  std::string opcode; ///< full opcode, e.g. "LDS.128"
};

/// STS -> BAR -> LDS: a value written to shared memory, a barrier that
/// orders it, and a read after the barrier.
struct SharedChain {
  InstrRef store, barrier, load;
};

/// A shared store that reaches a shared load with no ordering barrier in
/// between (address order). A data race unless the same thread reads back
/// its own value.
struct SharedHazard {
  InstrRef store, load;
};

/// An HGMMA with A in registers whose A registers an instruction writes
/// before a `WARPGROUP.DEPBAR.LE gsb0, 0x0` (the wait for every wgmma group)
/// follows it in address order: the PTX ISA makes that undefined (the
/// tensor cores may still read them). Address order stands in for control
/// flow, as for shared hazards.
struct WgmmaRegisterHazard {
  InstrRef wgmma, writer;
  std::string reg; ///< the A register written ("R152")
};

/// Shared loads that read back an address a store of the same thread wrote
/// with no barrier between: the store and the load name the same address
/// (`[R49+0x1000]`) and no instruction between them redefines a register of
/// it. Where that address differs per thread (a register value's shared
/// tail, docs/residency.md) each thread reads its own store: no barrier is
/// needed and this is no hazard.
struct PrivateRoundTrips {
  InstrRef firstStore, firstLoad;
  uint64_t loads = 0;
  /// The address registers they go through ("R49").
  std::vector<std::string> registers;
};

/// A run of shuffles of one mode whose immediate lane offsets do not repeat
/// (16, 8, 4, 2, 1 for a full warp butterfly).
struct WarpReduction {
  std::string mode;              ///< "BFLY", "DOWN", ...
  std::vector<InstrRef> stages;
  std::vector<int64_t> offsets;  ///< -1 where the offset is a register
};

/// A global store followed (in address order) by a global load in the same
/// kernel: an intermediate that left registers and came back.
/// A dependent multiply-add chain: each FFMA accumulates into the register
/// the previous FMUL/FFMA of the chain wrote (a dot product, an affine
/// accumulation: seed 000's q.k_j is FMUL -> FFMA -> FFMA -> FFMA).
struct FmaChain {
  std::vector<InstrRef> instructions;
};

/// Reported FMA chains have at least this many instructions.
constexpr size_t kMinFmaChainLength = 3;

struct GlobalRoundTrip {
  InstrRef store, load;
};

/// A staged-tile loop: tiles stored to shared memory (STS or LDGSTS), a
/// barrier, then a loop (a backward branch) whose shared loads feed many
/// FFMAs -- the shape of a tiled contraction (docs/motif-sass.md).
struct StagedLoop {
  InstrRef store, barrier;
  /// The loop: its first instruction and its backward branch.
  InstrRef loopStart, branch;
  uint64_t sharedLoads = 0;  ///< LDS instructions in the loop
  uint64_t sharedWords = 0;  ///< 32-bit words they load (LDS.128: 4)
  uint64_t ffma = 0;         ///< FFMA instructions in the loop
};

/// Tensor-core matrix multiplies (HMMA, HGMMA) and what feeds them: ldmatrix
/// (LDSM) loads of fragments from shared memory and cp.async (LDGSTS) or TMA
/// (UTMALDG) copies staging the tiles.
struct TensorCoreUse {
  /// Instructions per full opcode ("HMMA.16816.F32.BF16").
  std::map<std::string, uint64_t> mma;
  uint64_t ldsm = 0, ldgsts = 0, utmaldg = 0;
  /// HGMMAs whose A operand is a register (`HGMMA.. Rd, Ra, gdesc[..]`), not
  /// a shared-memory descriptor: A (e.g. the flash form's P) never went
  /// through shared memory.
  uint64_t registerA = 0;
  InstrRef first; ///< the first tensor-core instruction
};

/// A thread-block cluster's exchange: cluster barriers (UCGABAR_ARV, then
/// UCGABAR_WAIT) and the generic loads (LD) and stores (ST) that read and
/// write distributed shared memory after them (motif's cluster reductions:
/// mapa + ld.shared::cluster, or with cluster-push mapa +
/// st.shared::cluster).
struct ClusterUse {
  uint64_t arrives = 0, waits = 0;
  /// Generic loads and stores after the first cluster barrier.
  uint64_t genericLoads = 0, genericStores = 0;
  /// st.async stores (STAS) after it, their bytes counted on the receiving
  /// CTA's mbarrier (cluster-mbarrier's exchange), and the mbarrier waits
  /// (SYNCS.PHASECHK).
  uint64_t asyncStores = 0, mbarrierWaits = 0;
  InstrRef first; ///< the first cluster barrier
};

/// The motif profile of one kernel.
struct KernelProfile {
  std::string name;
  std::string demangledName;
  std::string arch;       ///< "sm_90", or empty when the listing omits it
  bool isEntry = true;    ///< false for a device function's text section
  unsigned line = 0;
  uint64_t instructionCount = 0;
  /// Instructions per count key (only keys that occur).
  std::map<std::string, uint64_t> counts;
  std::optional<KernelResources> resources;

  std::vector<InstrRef> globalLoads, globalStores;
  std::vector<InstrRef> sharedLoads, sharedStores;
  std::vector<InstrRef> localLoads, localStores;
  std::vector<InstrRef> barriers;
  std::vector<InstrRef> reconvergence;

  std::vector<SharedChain> sharedChains;
  std::vector<SharedHazard> hazards;
  std::vector<WgmmaRegisterHazard> wgmmaHazards;
  /// Set when shared loads read back their own thread's stores.
  std::optional<PrivateRoundTrips> privateRoundTrips;
  std::vector<WarpReduction> warpReductions;
  std::vector<FmaChain> fmaChains;
  std::vector<GlobalRoundTrip> globalRoundTrips;
  std::vector<StagedLoop> stagedLoops;
  /// Set when the kernel runs tensor-core instructions.
  std::optional<TensorCoreUse> tensorCores;
  /// Set when the kernel synchronizes a thread-block cluster.
  std::optional<ClusterUse> cluster;

  /// No shared or local memory traffic and no global round trip: every
  /// intermediate of this kernel stays in registers (or goes through
  /// shuffles).
  bool isRegisterOnly() const;
  /// Count under `key`, 0 if absent.
  uint64_t count(llvm::StringRef key) const;
};

/// Profiles of every kernel of one listing.
struct ModuleProfile {
  std::string fileName;
  SassFormat format = SassFormat::Nvdisasm;
  std::vector<KernelProfile> kernels;
  /// Names in the ptxas report that matched no kernel.
  std::vector<std::string> unmatchedReportEntries;
};

/// Profiles one kernel.
KernelProfile profileKernel(const SassKernel &kernel);

/// Profiles every kernel; attaches resources from `report` by name.
ModuleProfile profileModule(const SassModule &module,
                            const PtxasReport *report = nullptr);

/// Finds a kernel by exact name, then by a unique substring of the mangled
/// or demangled name. Errors list the candidates.
llvm::Expected<const KernelProfile *> findKernel(const ModuleProfile &profile,
                                                 llvm::StringRef name);

/// Text report (FileCheck-friendly, one fact per line). When `only` is set,
/// prints that kernel only and no file totals.
void printProfileText(const ModuleProfile &profile, llvm::raw_ostream &os,
                      const KernelProfile *only = nullptr);

/// JSON report of the same content.
llvm::json::Value profileToJSON(const ModuleProfile &profile,
                                const KernelProfile *only = nullptr);

/// One side of a diff: a kernel, or the whole file.
struct DiffSide {
  const ModuleProfile *module = nullptr;
  /// Null: whole-file totals.
  const KernelProfile *kernel = nullptr;
};

/// Prints two profiles side by side: counts before/after with deltas,
/// resources, and verdicts that changed.
void printDiffText(const DiffSide &a, const DiffSide &b, llvm::raw_ostream &os);

/// JSON form of the diff.
llvm::json::Value diffToJSON(const DiffSide &a, const DiffSide &b);

/// Prints the parsed listing, one instruction per line with its predicate,
/// opcode, modifiers, operands and class (what `motif-sass parse` shows).
void printInstructionsText(const SassModule &module, llvm::raw_ostream &os);

/// Formats an address the way nvdisasm does: "/*01c0*/".
std::string formatAddress(uint64_t address);

} // namespace sass
} // namespace motif

#endif // MOTIF_SASS_MOTIFPROFILE_H
