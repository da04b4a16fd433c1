//===- FuseMaterialization.cpp - move intermediates out of global memory --===//
//
// Decides, for every global materialization (a kernel result), whether it can
// live in registers or shared memory instead, and merges the kernels that
// produce and consume it. The decision per value:
//
//   1. observable (returned, `observable`, used outside kernels) -> global
//   2. a consumer in other blocks or on another grid             -> global
//   3. every reader owns the element                             -> register
//      (over the register budget: downgraded to shared)
//   4. other threads of the block read it                        -> shared
//   5. over the shared budget                                    -> global
//
// Then kernels joined by moved values form groups; a group must be closed (no
// member reads a global value another member writes), fit the shared budget,
// keep the equivalence cap (re-blocking a cross-thread reduction changes its
// bits) and be schedulable (no path leaves the group and comes back). Edges
// are given back to global until every group holds; each group becomes one
// kernel. Every decision is a remark on the materialization.
//
//===----------------------------------------------------------------------===//

#include "motif/Analysis/ExecutionScope.h"
#include "motif/Analysis/Invariants.h"
#include "motif/Analysis/ResourceModel.h"
#include "motif/Dialect/Motif/IR/TensorCore.h"
#include "motif/Dialect/Motif/Transforms/Passes.h"
#include "motif/Evaluator/CombinerLaws.h"
#include "motif/Support/ThreadDiagnostics.h"

#include "ApproximateMath.h"
#include "DefaultSchedules.h"
#include "OnlineSoftmax.h"
#include "RowBlocks.h"
#include "StageOperands.h"

#include "mlir/Analysis/TopologicalSortUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/SaveAndRestore.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

#define DEBUG_TYPE "fuse-materialization"

namespace mlir::motif {
#define GEN_PASS_DEF_FUSEMATERIALIZATION
#include "motif/Dialect/Motif/Transforms/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;
using namespace mlir::motif;

namespace {

/// One global materialization and everything decided about it.
struct Edge {
  KernelOp producer;
  unsigned result = 0;
  MaterializeOp mat;
  /// The motif that computes the value (null when the kernel copies a value
  /// from above).
  ComputeOpInterface producerOp;
  /// Motifs in other kernels that read the value, with the operand index.
  SmallVector<std::pair<ComputeOpInterface, unsigned>> consumers;
  Residency decision = Residency::Global;
  std::string rule;
  int64_t sharedBytes = 0;
  int64_t registers = 0;
  /// A register value's slots kept in its shared tail (docs/residency.md,
  /// "Shared tails"), and their bytes per block.
  int64_t tail = 0;
  int64_t tailBytes = 0;

  bool fused() const { return decision != Residency::Global; }
  Value value() { return producer.getResult(result); }
};

/// "the first R slots stay in registers, the last T in a shared tail ..."
std::string tailText(const Edge &e) {
  return "the first " + std::to_string(e.registers - e.tail) +
         " slots per thread stay in registers, the last " +
         std::to_string(e.tail) + " in a shared tail of each thread's own (" +
         std::to_string(e.tailBytes) +
         (KernelOp(e.producer).getClusterSize() > 1 ? " B per CTA"
                                                    : " B per block") +
         ", no barrier)";
}

std::string describe(Edge &e) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << e.producer.getSymName() << "'#" << e.result << " ("
     << e.value().getType() << ")";
  return s;
}

KernelOp kernelOf(Operation *op) { return op->getParentOfType<KernelOp>(); }

/// Marks each motif of a trial copy with its kernel (globalBytesOfPlan).
constexpr StringLiteral kTrialKernelAttr = "motif.trial_kernel";

/// Kernels joined by moved (non-global) values, as equivalence classes.
llvm::EquivalenceClasses<Operation *>
groupKernels(MutableArrayRef<Edge> edges, ArrayRef<KernelOp> kernels) {
  llvm::EquivalenceClasses<Operation *> groups;
  for (KernelOp k : kernels)
    groups.insert(k.getOperation());
  for (Edge &e : edges)
    if (e.fused())
      for (auto &c : e.consumers)
        groups.unionSets(e.producer.getOperation(),
                         kernelOf(c.first).getOperation());
  return groups;
}

/// Bytes of one element of `type` (a tensor).
int64_t elementBytesOf(Type type) {
  return llvm::divideCeil(
      cast<ShapedType>(type).getElementType().getIntOrFloatBitWidth(), 8);
}

/// "'<producer>' (<type>)" for a materialization the fusion named
/// (motif.producer), else "<otherwise> (<type>)".
std::string nameOf(MaterializeOp m, const std::string &otherwise) {
  std::string name;
  llvm::raw_string_ostream os(name);
  if (auto was = m->getAttrOfType<StringAttr>("motif.producer"))
    os << "'" << was.getValue() << "'";
  else
    os << otherwise;
  os << " (" << m.getType() << ")";
  return name;
}

/// Bytes of a tensor; per row when its leading dim is the runtime row count.
int64_t tensorBytes(Type type) {
  auto t = cast<RankedTensorType>(type);
  return elementsPerRow(t) * llvm::divideCeil(t.getElementTypeBitWidth(), 8);
}

/// The threads of one CTA of `ks` merged into a block of `threads`: a
/// cluster all of them share splits the block (its CTAs each have the
/// register file of an SM to themselves); else the whole block.
int64_t ctaThreadsOf(ArrayRef<KernelOp> ks, int64_t threads) {
  if (ks.empty())
    return threads;
  IntegerAttr cluster = KernelOp(ks.front()).getClusterAttr();
  if (!cluster ||
      !llvm::all_of(ks, [&](KernelOp k) { return k.getClusterAttr() == cluster; }) ||
      clusterShapeError(threads, cluster.getInt()))
    return threads;
  return threads / cluster.getInt();
}

/// Shared bytes a kernel declares besides shared tails: its shared values
/// and the cross-warp scratch of its reductions, at `threads` per block.
int64_t kernelSharedBytes(KernelOp kernel, int64_t threads) {
  int64_t bytes = 0;
  kernel.getBodyBlock().walk([&](ComputeOpInterface op) {
    bytes += scratchBytesOf(MotifSchedule(op, threads));
  });
  kernel.getBodyBlock().walk([&](MaterializeOp m) {
    if (m.getResidency() != Residency::Shared)
      return;
    if (ComputeOpInterface p = producerOf(m))
      bytes += sharedLayoutOf(MotifSchedule(p, threads),
                              m.getType().getElementType())
                   .bytes;
  });
  return bytes;
}

/// Why shared tails needing `need` B at once do not fit: over the tail budget
/// `tails`, or, with a kernel's `other` shared bytes, over the chip.
std::string tailsOverText(int64_t need, int64_t tails, int64_t other,
                          const TargetResources &target) {
  return std::to_string(need) + " B at once, over " +
         (need > tails ? "the tail budget (" + std::to_string(tails) + " B)"
                       : "what " + target.chip.str() + " gives a block (" +
                             std::to_string(target.sharedBytesPerBlockOptIn) +
                             " B) with its other " + std::to_string(other) +
                             " shared bytes");
}

/// The register values of kernels that run as one body (members in order,
/// then their motifs), as live intervals over its motifs: what the register
/// live-set check of docs/residency.md counts.
struct LiveSet {
  LiveSet(ArrayRef<KernelOp> kernels, int64_t threads)
      : threads(threads), ctaThreads(ctaThreadsOf(kernels, threads)) {
    for (KernelOp k : kernels) {
      start[k.getOperation()] = static_cast<int64_t>(position.size()) - 1;
      k.getBodyBlock().walk([&](ComputeOpInterface op) {
        position.try_emplace(op.getOperation(), position.size());
      });
    }
  }

  /// A value computed by `producer` (null: loaded at the start of `kernel`,
  /// rule 3) and read by the motifs among `readers`; `skip` is a motif not
  /// to count as a reader (a load about to be replaced).
  /// `tail`: the slots of the value kept in its shared tail.
  void add(std::string name, Value value, ComputeOpInterface producer,
           KernelOp kernel, Edge *owner, int64_t tail = 0) {
    int64_t first = producer ? position.lookup(producer.getOperation())
                             : start.lookup(kernel.getOperation());
    int64_t slots =
        !producer ? 1
        : constantOf(producer)
            ? 0 // a constant map: its readers make the value
            : registerLayoutOf(MotifSchedule(producer, threads)).slots;
    addInterval(std::move(name), value, first, slots, owner, nullptr, tail);
  }

  /// `slots` per thread, of which `tail` in the value's shared tail.
  void addInterval(std::string name, Value value, int64_t first, int64_t slots,
                   Edge *owner, Operation *skip = nullptr, int64_t tail = 0) {
    tail = std::clamp<int64_t>(tail, 0, slots);
    // Each CTA holds the tails of its own threads.
    int64_t tailBytes = tail * ctaThreads * elementBytesOf(value.getType());
    int64_t last = first;
    Operation *lastReader = nullptr;
    // A recomputed map's readers read its operands (effectiveReadersOf).
    SmallVector<Operation *> readers;
    effectiveReadersOf(value, readers);
    for (Operation *u : readers)
      if (auto it = position.find(u);
          u != skip && it != position.end() && it->second >= last) {
        last = it->second;
        lastReader = u;
      }
    // A map with the value's register layout reads it slot for slot.
    bool consumed =
        lastReader && isa<MapOp>(lastReader) &&
        llvm::is_contained(value.getUsers(), lastReader) &&
        registerLayoutOf(MotifSchedule(cast<ComputeOpInterface>(lastReader),
                                       threads))
                .slots == slots;
    intervals.push_back({first, last, slots - tail, consumed});
    elementBytes.push_back(elementBytesOf(value.getType()));
    // A map reading its operand's tail for the last time, slot for slot,
    // writes a result tail of the same element type in the same region (the
    // lowering reuses it).
    bool sameElement =
        consumed && lastReader->getNumResults() == 1 &&
        cast<ShapedType>(lastReader->getResult(0).getType()).getElementType() ==
            cast<ShapedType>(value.getType()).getElementType();
    tails.push_back({first, last, tailBytes, sameElement});
    names.push_back(std::move(name));
    owners.push_back(owner);
  }

  /// The register materializations the kernels already have.
  void addMaterializations(ArrayRef<KernelOp> kernels) {
    for (KernelOp k : kernels)
      k.getBodyBlock().walk([&](MaterializeOp m) {
        // A recomputed value keeps no slots (its operands live longer).
        if (m.getResidency() != Residency::Register || isRecomputed(m))
          return;
        add(nameOf(m, "a register value of '" + k.getSymName().str() + "'"),
            m.getResult(), producerOf(m), k, nullptr,
            m.getSharedTail().value_or(0));
      });
  }

  /// "<name>: <slots>, ..." for the values live at `peak`.
  std::string describe(const RegisterPressure &peak) const {
    std::string live;
    for (auto [n, i] : llvm::enumerate(peak.live))
      live += (n ? ", " : "") + names[i] + ": " +
              std::to_string(intervals[i].slots);
    return live;
  }

  int64_t threads;
  /// Threads of one CTA (a cluster's CTAs each hold their threads' tails).
  int64_t ctaThreads;
  llvm::DenseMap<Operation *, int64_t> position, start;
  SmallVector<LiveInterval> intervals;
  /// The bytes of an element of each interval's value (two 16-bit slots
  /// share a 32-bit register where the lowering keeps them packed).
  SmallVector<int64_t> elementBytes;
  /// The same intervals in shared bytes of their tails.
  SmallVector<LiveInterval> tails;
  SmallVector<std::string> names;
  SmallVector<Edge *> owners; // null: a value the kernels already had
};

struct FuseMaterializationPass
    : public motif::impl::FuseMaterializationBase<FuseMaterializationPass> {
  using FuseMaterializationBase::FuseMaterializationBase;

  LogicalResult initialize(MLIRContext *ctx) override;
  void runOnOperation() override;

private:
  /// The options, checked once by initialize().
  TargetResources target;
  Equivalence cap = Equivalence::Bitwise;
  int64_t budget = 0;
  /// Shared bytes per block of a kernel's wgmma pipeline (sm_90a), else 0.
  int64_t wgmmaBudget = 0;
  /// Shared bytes per block the shared tails of register values may take.
  int64_t tails = 0;

  /// Rules 1-5 on the kernels of `func` (after the rewrites before them), the
  /// groups merged, rule 3 and staging applied; `applied` is raised to the
  /// class of what was done.
  LogicalResult fuse(func::FuncOp func, Equivalence &applied);
  /// Set while fuse() plans a trial copy: no statistics.
  bool trial = false;
  /// Every global materialization of `kernels`, decided (rules 1-5) and
  /// given back to global until every group is legal.
  SmallVector<Edge> planEdges(ArrayRef<KernelOp> kernels,
                              Equivalence &applied);
  /// Bytes the kernels of `func` would load from and store to global memory,
  /// by the kernel each motif came from, if row blocks ran with
  /// `clusterThreads` and the fusion then ran: a trial on a copy, quiet.
  /// `grewCluster`: whether row blocks gave a kernel a larger cluster than
  /// it had.
  llvm::StringMap<int64_t> globalBytesOfPlan(func::FuncOp func,
                                             int64_t clusterThreads,
                                             bool *grewCluster = nullptr);
  /// Decides one edge in isolation (rules 1-5).
  void decide(Edge &e, const TargetResources &target, int64_t budget);
  /// Gives edges back to global until every group is legal. Returns the
  /// group leader of every kernel.
  void legalizeGroups(SmallVectorImpl<Edge> &edges,
                      ArrayRef<KernelOp> kernels, int64_t budget,
                      Equivalence cap, Equivalence &applied);
  void mergeGroup(ArrayRef<KernelOp> members, ArrayRef<Edge *> edges,
                  RewriterBase &rewriter);
  /// Rule 3: loads inputs read by several motifs of `kernel` once.
  void cacheReusedInputs(KernelOp kernel, RewriterBase &rewriter);
  /// Rule 6: the values of `kernel` kept with a shared tail that its readers
  /// may compute again from operands on chip, where that lowers the peak.
  int64_t recomputeValues(KernelOp kernel);
};

} // namespace

void FuseMaterializationPass::decide(Edge &e, const TargetResources &target,
                                     int64_t budget) {
  auto keep = [&](const Twine &why) {
    e.decision = Residency::Global;
    e.rule = why.str();
  };
  if (e.mat.getObservable())
    return keep("rule 1: externally observable (marked 'observable')");
  for (OpOperand &use : e.value().getUses()) {
    Operation *user = use.getOwner();
    if (isa<func::ReturnOp>(user))
      return keep("rule 1: externally observable (returned by the function)");
    if (!kernelOf(user))
      return keep("rule 1: externally observable (used by '" +
                  user->getName().getStringRef() + "' outside any kernel)");
    auto motif = dyn_cast<ComputeOpInterface>(user);
    if (!motif)
      return keep("kept: '" + user->getName().getStringRef() +
                  "' in kernel '" + kernelOf(user).getSymName() +
                  "' reads it as a whole");
    e.consumers.push_back({motif, use.getOperandNumber()});
  }
  if (e.consumers.empty())
    return keep("kept: no consumer");
  // Program order, so remarks read in the order of the source.
  llvm::sort(e.consumers, [](auto &a, auto &b) {
    KernelOp ka = kernelOf(a.first), kb = kernelOf(b.first);
    if (ka != kb)
      return ka->isBeforeInBlock(kb);
    return a.first->isBeforeInBlock(b.first);
  });
  if (!e.producerOp)
    return keep("kept: the kernel copies a value it does not compute");

  // Once merged, every member runs with the largest block.
  int64_t threads = e.producer.getThreads();
  SmallVector<KernelOp> members{e.producer};
  for (auto [consumer, idx] : e.consumers) {
    threads = std::max<int64_t>(threads, kernelOf(consumer).getThreads());
    members.push_back(kernelOf(consumer));
  }
  // A cluster's CTAs each hold the shared tails of their own threads.
  int64_t ctaThreads = ctaThreadsOf(members, threads);

  Scope worst = Scope::SameThread;
  std::string why;
  for (auto [consumer, idx] : e.consumers) {
    EdgeScope s = classifyEdge(e.producerOp, consumer, idx, threads);
    std::string where = "consumer '" + kernelOf(consumer).getSymName().str() +
                        "' (" + consumer->getName().getStringRef().str() + ")";
    if (s.scope == Scope::CrossBlock)
      return keep("rule 1: " + where + " runs in other blocks: " + s.reason);
    // Keep the reason of the first consumer with the worst scope.
    if (why.empty() || static_cast<int>(s.scope) > static_cast<int>(worst)) {
      worst = s.scope;
      why = where + ": " + s.reason;
    }
  }
  llvm::SetVector<StringRef> readers;
  for (auto &c : e.consumers)
    readers.insert(kernelOf(c.first).getSymName());
  if (readers.size() > 1) {
    std::string all;
    for (auto [i, name] : llvm::enumerate(readers))
      all += (i ? ", '" : "'") + name.str() + "'";
    why = std::to_string(readers.size()) + " consumer kernels (" + all +
          "); first with this scope: " + why;
  }

  MotifSchedule schedule(e.producerOp, threads);
  e.sharedBytes =
      sharedLayoutOf(schedule,
                     cast<ShapedType>(e.value().getType()).getElementType())
          .bytes;
  if (worst == Scope::SameThread) {
    e.registers = registerLayoutOf(schedule).slots;
    if (e.registers <= registerBudget) {
      e.decision = Residency::Register;
      e.rule = "rule 1: not observable, same thread; " + why;
      return;
    }
    // A contraction's accumulators (tensor cores, or register blocking)
    // are registers across its whole k loop whatever the product's
    // residency: keeping them to the epilogue adds none, and a shared tail
    // would only store and reload them. The register budget counts values
    // a kernel adds.
    if (auto c = dyn_cast<ContractOp>(e.producerOp.getOperation());
        c && (c.getMma() || isRegisterBlocked(schedule)) &&
        e.registers <= kMaxRegisterSlots) {
      e.decision = Residency::Register;
      e.rule = "rule 1: not observable, same thread; the contraction's " +
               std::to_string(e.registers) +
               " accumulators per thread, registers across its k loop "
               "anyway (over the register budget, " +
               std::to_string(registerBudget) +
               ", which counts values a kernel adds); " + why;
      return;
    }
    std::string over = std::to_string(e.registers) +
                       " registers per thread exceed the register budget (" +
                       std::to_string(registerBudget) + ")";
    if (e.sharedBytes > budget) {
      // Too large for shared memory as a whole: the part past the register
      // budget in a shared tail, each thread's own.
      int64_t eb = elementBytesOf(e.value().getType());
      int64_t tail = sharedTailFor(e.registers, registerBudget, eb);
      int64_t bytes = tailLayoutOf(e.registers, tail, ctaThreads, eb).bytes();
      if (e.registers <= kMaxRegisterSlots && bytes <= tails) {
        e.decision = Residency::Register;
        e.tail = tail;
        e.tailBytes = bytes;
        e.rule = "rule 5: " + over + " and the whole value would need " +
                 std::to_string(e.sharedBytes) +
                 " shared bytes, over the budget (" + std::to_string(budget) +
                 " B); " + tailText(e) + "; " + why;
        return;
      }
      why = "rule 5: " + over + ", downgraded to shared (a shared tail of " +
            std::to_string(tail) + " slots would need " +
            std::to_string(bytes) + " B, over the tail budget (" +
            std::to_string(tails) + " B)" +
            (e.registers > kMaxRegisterSlots
                 ? ", and the lowering unrolls at most " +
                       std::to_string(kMaxRegisterSlots) + " slots"
                 : std::string()) +
            "); " + why;
    } else {
      why = "rule 5: " + over + ", downgraded to shared; " + why;
    }
  } else {
    why = "rule 1: not observable, other threads of the block read it "
          "(block barrier); " + why;
  }
  if (e.sharedBytes > budget)
    return keep("rule 5: refused: " + std::to_string(e.sharedBytes) +
                " shared bytes per block exceed the budget (" +
                std::to_string(budget) + " B on " + target.chip.str() +
                "); " + why);
  e.decision = Residency::Shared;
  e.rule = why;
}

void FuseMaterializationPass::legalizeGroups(SmallVectorImpl<Edge> &edges,
                                             ArrayRef<KernelOp> kernels,
                                             int64_t budget, Equivalence cap,
                                             Equivalence &applied) {
  auto giveBack = [&](Edge &e, const Twine &why) {
    LLVM_DEBUG(llvm::dbgs() << "give back " << describe(e) << ": " << why
                            << "\n");
    e.decision = Residency::Global;
    e.rule = why.str();
    e.tail = e.tailBytes = 0;
  };
  // A register value that must leave registers: to shared memory within
  // the budget, else back to global; `who` names it in the rule.
  auto toSharedOrBack = [&](Edge &e, const std::string &why, StringRef who) {
    if (e.sharedBytes <= budget) {
      e.decision = Residency::Shared;
      e.tail = e.tailBytes = 0;
      e.rule = why + "; " + who.str() + " moved to shared (" +
               std::to_string(e.sharedBytes) + " B)";
      return;
    }
    giveBack(e, why + "; " + who.str() + " needs " +
                    std::to_string(e.sharedBytes) +
                    " shared bytes, over the budget (" +
                    std::to_string(budget) + " B), so it stays global");
  };
  bool changed = true;
  while (changed) {
    changed = false;
    llvm::EquivalenceClasses<Operation *> groups = groupKernels(edges, kernels);
    auto sameGroup = [&](Operation *a, Operation *b) {
      return groups.getLeaderValue(a) == groups.getLeaderValue(b);
    };

    // Closed: a member may not read a global value another member writes.
    for (Edge &e : edges) {
      if (e.fused())
        continue;
      for (Operation *user : e.value().getUsers()) {
        KernelOp reader = kernelOf(user);
        if (!reader || reader == e.producer ||
            !sameGroup(reader, e.producer))
          continue;
        // Take the reader out of the group: every moved edge that joins it
        // (as consumer, or as producer).
        for (Edge &f : edges)
          if (f.fused() && (f.producer == reader ||
                            llvm::any_of(f.consumers, [&](auto &c) {
                              return kernelOf(c.first) == reader;
                            }))) {
            giveBack(f, "kept: kernel '" + reader.getSymName() +
                            "' also reads " + describe(e) +
                            ", which stays in global memory (" + e.rule +
                            "), so it cannot be merged with '" +
                            e.producer.getSymName() + "', which writes it");
            changed = true;
          }
      }
      if (changed)
        break;
    }
    if (changed)
      continue;

    // Per group: schedulable, shared budget, equivalence cap.
    llvm::MapVector<Operation *, SmallVector<KernelOp>> members;
    for (KernelOp k : kernels)
      members[groups.getLeaderValue(k.getOperation())].push_back(k);
    for (auto &[leader, ks] : members) {
      if (ks.size() < 2)
        continue;
      llvm::SmallPtrSet<Operation *, 8> inGroup;
      for (KernelOp k : ks)
        inGroup.insert(k.getOperation());
      SmallVector<Edge *> groupEdges;
      for (Edge &e : edges)
        if (e.fused() && inGroup.contains(e.producer.getOperation()))
          groupEdges.push_back(&e);

      // Schedulable: nothing outside the group both reads a member's result
      // and (transitively) feeds a member.
      // A kernel's results are read by motifs inside other kernels: the
      // reader is the kernel around the use.
      auto readers = [](Operation *k) {
        SmallVector<Operation *> out;
        for (Operation *u : k->getUsers())
          if (KernelOp r = kernelOf(u))
            out.push_back(r.getOperation());
        return out;
      };
      llvm::SetVector<Operation *> outside;
      SmallVector<Operation *> work;
      for (KernelOp k : ks)
        for (Operation *r : readers(k))
          if (!inGroup.contains(r))
            work.push_back(r);
      while (!work.empty()) {
        Operation *op = work.pop_back_val();
        if (!outside.insert(op))
          continue;
        for (Operation *r : readers(op))
          if (!inGroup.contains(r))
            work.push_back(r);
      }
      Operation *cycle = nullptr;
      for (Operation *op : outside)
        for (Operation *r : readers(op))
          if (inGroup.contains(r))
            cycle = op;
      if (cycle) {
        for (Edge *e : groupEdges)
          giveBack(*e, "kept: merging would need kernel '" +
                           cast<KernelOp>(cycle).getSymName() +
                           "' both after and before the merged kernel");
        changed = true;
        break;
      }

      // The merged kernel's shared memory: the shared materializations and
      // the cross-warp scratch of every reduction, at the merged block size.
      int64_t mergedThreads = 0;
      for (KernelOp k : ks)
        mergedThreads = std::max<int64_t>(mergedThreads, k.getThreads());
      // ... and the shared materializations the kernels already had.
      int64_t scratch = 0;
      for (KernelOp k : ks)
        scratch += kernelSharedBytes(k, mergedThreads);
      int64_t shared = scratch;
      Edge *largest = nullptr;
      for (Edge *e : groupEdges)
        if (e->decision == Residency::Shared) {
          shared += e->sharedBytes;
          if (!largest || e->sharedBytes > largest->sharedBytes)
            largest = e;
        }
      if (shared > budget && !largest) {
        // Only scratch: the reductions alone do not fit once merged.
        for (Edge *e : groupEdges)
          giveBack(*e, "rule 5: refused: the merged kernel's reductions and "
                       "shared values would need " + std::to_string(scratch) +
                       " shared bytes, over the budget (" +
                       std::to_string(budget) + " B)");
        changed = true;
        break;
      }
      if (shared > budget) {
        giveBack(*largest, "rule 5: refused: the merged kernel would need " +
                               std::to_string(shared) +
                               " shared bytes per block (" +
                               std::to_string(scratch) +
                               " of them reduction scratch and shared values the "
                               "kernels had), over the budget (" +
                               std::to_string(budget) + " B); this is its "
                               "largest buffer (" +
                               std::to_string(largest->sharedBytes) + " B)");
        changed = true;
        break;
      }

      // The merged kernel's register live set: every value it keeps in
      // registers, from the motif that computes it to its last reader, in
      // the order the merged body runs (members in order, then their
      // motifs). Over the budget, the largest value live at the worst
      // motif goes to shared memory (or back to global).
      {
        LiveSet set(ks, mergedThreads);
        for (Edge *e : groupEdges)
          if (e->decision == Residency::Register)
            set.add(describe(*e), e->value(), e->producerOp, e->producer, e,
                    e->tail);
        set.addMaterializations(ks);

        // The shared tails live at once (a map that consumes a tail slot for
        // slot writes its own in the same region) fit the tail budget and,
        // with the rest of the kernel's shared memory, the chip.
        RegisterPressure tailPeak = peakRegisterPressure(set.tails);
        if (tailPeak.slots > tails ||
            (tailPeak.slots > 0 &&
             shared + tailPeak.slots > target.sharedBytesPerBlockOptIn)) {
          Edge *victim = nullptr;
          for (unsigned i : tailPeak.live)
            if (set.owners[i] && set.owners[i]->tail &&
                (!victim || set.owners[i]->tailBytes > victim->tailBytes))
              victim = set.owners[i];
          std::string why =
              "rule 5: the merged kernel's shared tails would need " +
              tailsOverText(tailPeak.slots, tails, shared, target);
          if (!victim) {
            for (Edge *e : groupEdges)
              giveBack(*e, "kept: " + why);
          } else {
            giveBack(*victim, why + "; this is the largest");
          }
          changed = true;
          break;
        }

        int64_t liveBudget =
            liveRegisterBudget(ctaThreadsOf(ks, mergedThreads),
                               target.registersPerThread, target.registersPerSM);
        RegisterPressure peak = peakRegisterPressure(set.intervals);
        if (peak.slots > liveBudget) {
          Edge *victim = nullptr;
          for (unsigned i : peak.live)
            if (set.owners[i]) {
              victim = set.owners[i];
              break;
            }
          std::string why =
              "rule 5: the merged kernel would keep " +
              std::to_string(peak.slots) +
              " registers per thread live at once (" + set.describe(peak) +
              "), over the " + std::to_string(liveBudget) +
              " a thread of threads(" + std::to_string(mergedThreads) +
              ") has for values on " + target.chip.str() + " (" +
              std::to_string(kRegisterReserve) +
              " kept for addresses and indices)";
          if (!victim) {
            // Only values the kernels already held: merging cannot help.
            for (Edge *e : groupEdges)
              giveBack(*e, "kept: " + why);
            changed = true;
            break;
          }
          LLVM_DEBUG(llvm::dbgs() << "live set over budget: " << describe(*victim) << "\n");
          // A register value too large for shared memory as a whole moves
          // the slots over the live budget into its shared tail.
          int64_t eb = elementBytesOf(victim->value().getType());
          int64_t keep = victim->registers - victim->tail -
                         (peak.slots - liveBudget);
          int64_t tail = sharedTailFor(victim->registers, keep, eb);
          int64_t tailBytes =
              tailLayoutOf(victim->registers, tail,
                           ctaThreadsOf(ks, mergedThreads), eb)
                  .bytes();
          if (victim->sharedBytes > budget &&
              victim->decision == Residency::Register &&
              victim->registers <= kMaxRegisterSlots &&
              tail > victim->tail && tailBytes <= tails) {
            victim->tail = tail;
            victim->tailBytes = tailBytes;
            victim->rule = why + "; the largest of them keeps " +
                           tailText(*victim);
          } else {
            toSharedOrBack(*victim, why, "the largest of them");
          }
          changed = true;
          break;
        }
      }

      // The lowering unrolls the dims a motif indexes register values by:
      // every motif of the group stays within the unrolled work it takes
      // (docs/residency.md, "Unrolled work"). Over it, the largest register
      // value the motif reads or writes moves to shared (or back to global).
      {
        auto isRegisterEdge = [&](Value v) -> Edge * {
          for (Edge *e : groupEdges)
            if (e->decision == Residency::Register && e->value() == v)
              return e;
          return nullptr;
        };
        Edge *victim = nullptr;
        std::string why;
        for (KernelOp k : ks) {
          k.getBodyBlock().walk([&](ComputeOpInterface op) {
            if (victim)
              return;
            SmallVector<Edge *> touching;
            for (Value v : op->getOperands())
              if (Edge *e = isRegisterEdge(v))
                touching.push_back(e);
            bool result = false;
            for (Edge *e : groupEdges)
              if (e->decision == Residency::Register && e->producerOp == op) {
                touching.push_back(e);
                result = true;
              }
            if (touching.empty())
              return;
            int64_t work = unrolledWorkOf(
                op, mergedThreads,
                [&](Value v) { return isRegisterEdge(v) != nullptr; }, result);
            if (work <= kMaxUnrolledWork)
              return;
            for (Edge *e : touching)
              if (!victim || e->registers > victim->registers)
                victim = e;
            why = "rule 5: in registers, it would make the lowering unroll '" +
                  op->getName().getStringRef().str() + "' of kernel '" +
                  k.getSymName().str() + "' to " + std::to_string(work) +
                  " instances of its body, over the " +
                  std::to_string(kMaxUnrolledWork) + " it unrolls at most";
          });
          if (victim)
            break;
        }
        if (victim) {
          toSharedOrBack(*victim, why, "it");
          changed = true;
          break;
        }
      }

      int64_t threads = 0;
      for (KernelOp k : ks)
        threads = std::max<int64_t>(threads, k.getThreads());
      // Every member's reductions must still be lowerable in the merged
      // block (a lane butterfly needs a power of two up to 32, or a
      // multiple of 32).
      for (KernelOp k : ks) {
        std::optional<std::string> why;
        k.getBodyBlock().walk([&](ComputeOpInterface op) {
          if (!why)
            why = MotifSchedule(op, threads).unsupportedAtBlockSize();
        });
        if (!why)
          continue;
        for (Edge *e : groupEdges)
          if (e->producer == k || llvm::any_of(e->consumers, [&](auto &c) {
                return kernelOf(c.first) == k;
              }))
            giveBack(*e, "rule 5: refused: merged into a block of " +
                             std::to_string(threads) + " threads, kernel '" +
                             k.getSymName() + "' " + *why);
        changed = true;
        break;
      }
      if (changed)
        break;

      // Re-blocking a reduction across threads reorders its tree.
      for (KernelOp k : ks) {
        if (static_cast<int64_t>(k.getThreads()) == threads)
          continue;
        Operation *reducer = nullptr;
        k.getBodyBlock().walk([&](ComputeOpInterface op) {
          if (reducesAcrossThreads(op))
            reducer = op;
        });
        if (!reducer)
          continue;
        if (static_cast<int>(Equivalence::Tolerance) >
            static_cast<int>(cap)) {
          for (Edge *e : groupEdges)
            if (e->producer == k || llvm::any_of(e->consumers, [&](auto &c) {
                  return kernelOf(c.first) == k;
                }))
              giveBack(*e, "equivalence cap: merging re-blocks kernel '" +
                               k.getSymName() + "' from " +
                               std::to_string(k.getThreads()) + " to " +
                               std::to_string(threads) +
                               " threads, which reorders its cross-thread "
                               "reduction (class 'tolerance', above the cap '" +
                               stringifyEquivalence(cap) + "')");
          changed = true;
          break;
        }
        if (static_cast<int>(applied) < static_cast<int>(Equivalence::Tolerance))
          applied = Equivalence::Tolerance;
      }
      if (changed)
        break;
    }
  }
}

void FuseMaterializationPass::mergeGroup(ArrayRef<KernelOp> group,
                                         ArrayRef<Edge *> edges,
                                         RewriterBase &rewriter) {
  SmallVector<KernelOp> members(group);
  auto edgeFor = [&](KernelOp k, unsigned r) -> Edge * {
    for (Edge *e : edges)
      if (e->producer == k && e->result == r)
        return e;
    return nullptr;
  };
  // Results that leave the group stay kernel results (global).
  SmallVector<std::pair<KernelOp, unsigned>> outs;
  SmallVector<Type> types;
  int64_t threads = 0;
  for (KernelOp k : members) {
    threads = std::max<int64_t>(threads, k.getThreads());
    for (unsigned r = 0; r < k.getNumResults(); ++r) {
      Edge *e = edgeFor(k, r);
      if (e && e->fused())
        continue;
      outs.push_back({k, r});
      types.push_back(k.getResult(r).getType());
    }
  }
  std::string name;
  if (members.size() == 2)
    name = (members[0].getSymName() + "_" + members[1].getSymName()).str();
  else
    name = (members.front().getSymName() + "_to_" +
            members.back().getSymName())
               .str();

  // Kernel names are unique in a function (they name result buffers).
  {
    llvm::StringSet<> taken;
    for (auto k : members.front()->getBlock()->getOps<KernelOp>())
      if (!llvm::is_contained(members, k))
        taken.insert(k.getSymName());
    std::string base = name;
    for (int i = 1; taken.contains(name); ++i)
      name = base + "_" + std::to_string(i);
  }
  rewriter.setInsertionPointAfter(members.back());
  auto merged = KernelOp::create(rewriter, members.back().getLoc(), types,
                                 name, threads);
  // Members run as one cluster shape (row blocks gives a group one): the
  // merged kernel keeps it (settleClusters drops it where it cannot run).
  if (IntegerAttr cluster = members.front().getClusterAttr())
    if (llvm::all_of(members, [&](KernelOp k) {
          return k.getClusterAttr() == cluster &&
                 static_cast<int64_t>(k.getThreads()) == threads;
        }))
      merged.setClusterAttr(cluster);
  Block &body = merged.getBodyBlock();
  rewriter.setInsertionPointToStart(&body);
  IRMapping map;
  for (KernelOp k : members) {
    for (Operation &op : k.getBodyBlock().without_terminator())
      rewriter.clone(op, map);
    for (unsigned r = 0; r < k.getNumResults(); ++r) {
      Edge *e = edgeFor(k, r);
      if (!e || !e->fused())
        continue;
      auto mat = cast<MaterializeOp>(map.lookup(e->mat.getResult()).getDefiningOp());
      mat.setResidency(e->decision);
      if (e->decision == Residency::Register && e->tail)
        mat.setSharedTailAttr(rewriter.getI64IntegerAttr(e->tail));
      map.map(k.getResult(r), mat.getResult());
    }
  }
  SmallVector<Value> yielded;
  for (auto [k, r] : outs)
    yielded.push_back(map.lookup(k.getYield().getOperand(r)));
  // The implicit terminator is empty; replace it with the real yield.
  Operation *oldYield = body.getTerminator();
  rewriter.setInsertionPoint(oldYield);
  YieldOp::create(rewriter, merged.getLoc(), yielded);
  rewriter.eraseOp(oldYield);

  for (auto [i, out] : llvm::enumerate(outs))
    rewriter.replaceAllUsesWith(out.first.getResult(out.second),
                                merged.getResult(i));
  for (KernelOp k : llvm::reverse(members))
    rewriter.eraseOp(k);
}

void FuseMaterializationPass::cacheReusedInputs(KernelOp kernel,
                                                RewriterBase &rewriter) {
  MLIRContext *ctx = kernel.getContext();
  // Tensors from outside the kernel (global memory), by first use.
  llvm::MapVector<Value, SmallVector<OpOperand *>> reads =
      readsFromOutside(kernel);
  for (auto &[value, uses] : reads) {
    llvm::SmallPtrSet<Operation *, 4> readers;
    for (OpOperand *use : uses)
      readers.insert(use->getOwner());
    if (readers.size() < 2)
      continue;
    auto first = cast<ComputeOpInterface>(uses.front()->getOwner());
    SmallVector<int64_t> firstDims =
        first.getOperandIterationDims(uses.front()->getOperandNumber());
    auto type = cast<RankedTensorType>(value.getType());
    // The reader's levels (or tile nests) of the dims the input has.
    SmallVector<Attribute> levels;
    int64_t tileThreads = 1;
    for (int64_t d : firstDims) {
      levels.push_back(first.getMapping()[d]);
      if (TileAttr tile = first.getTile(d))
        for (auto [l, size] : llvm::zip(tile.getLevels(), tile.getSizes()))
          if (l == Level::Thread || l == Level::Warp)
            tileThreads *= size;
    }
    if (tileThreads > 1 &&
        tileThreads != static_cast<int64_t>(kernel.getThreads())) {
      kernel.emitRemark() << "kernel '" << kernel.getSymName()
                          << "': " << nameOfKernelInput(value) << " (" << type
                          << ") read by " << readers.size()
                          << " motifs stays in global memory (rule 3 not "
                             "applied: its first reader's tile nest spreads "
                             "threads over dims the tensor lacks)";
      continue;
    }
    std::string name = nameOfKernelInput(value);

    // The load: an identity map in the first reader's layout.
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&kernel.getBodyBlock());
    SmallVector<Attribute> indexing{rewriter.getDenseI64ArrayAttr(
        llvm::to_vector(llvm::seq<int64_t>(0, type.getRank())))};
    auto load = MapOp::create(rewriter, kernel.getLoc(), type,
                              ValueRange{value},
                              rewriter.getArrayAttr(indexing),
                              rewriter.getArrayAttr(levels));
    Block *body = rewriter.createBlock(&load.getBody(), {},
                                       {type.getElementType()},
                                       {kernel.getLoc()});
    YieldOp::create(rewriter, kernel.getLoc(), body->getArgument(0));
    rewriter.setInsertionPointAfter(load);
    auto loadIface = cast<ComputeOpInterface>(load.getOperation());

    std::string refusal;
    if (loadIface.getGridExtents() != first.getGridExtents())
      refusal = "its first reader spreads other dims over blocks";
    int64_t threads = kernel.getThreads();
    int64_t regs = elementsPerThread(loadIface, threads);
    int64_t eb = elementBytesOf(type);
    // Slots past the register budget (or the live set) go to a shared tail,
    // each thread's own, where the tail budget allows.
    int64_t tail = 0;
    std::string tailWhy;
    if (refusal.empty() && regs > registerBudget) {
      tailWhy = std::to_string(regs) + " registers per thread exceed the "
                "register budget (" + std::to_string(registerBudget) + ")";
      if (tails == 0 || regs > kMaxRegisterSlots)
        refusal = tailWhy + (tails == 0
                                 ? std::string(" (shared tails are off: "
                                               "tail-budget=0)")
                                 : " (the lowering unrolls at most " +
                                       std::to_string(kMaxRegisterSlots) +
                                       " slots, so no shared tail)");
      else
        tail = sharedTailFor(regs, registerBudget, eb);
    }
    int64_t liveBudget =
        liveRegisterBudget(kernel.getCtaThreads(), target.registersPerThread,
                           target.registersPerSM);
    while (refusal.empty()) {
      // The kernel's register live set with the load: it is live from the
      // kernel's start to its last reader.
      LiveSet set({kernel}, threads);
      set.addMaterializations({kernel});
      set.addInterval("this input", value, -1, regs, nullptr,
                      load.getOperation(), tail);
      RegisterPressure peak = peakRegisterPressure(set.intervals);
      if (peak.slots > liveBudget &&
          llvm::is_contained(peak.live, set.intervals.size() - 1)) {
        std::string over =
            "the kernel would keep " + std::to_string(peak.slots) +
            " registers per thread live at once (" + set.describe(peak) +
            "), over the " + std::to_string(liveBudget) +
            " a thread of threads(" + std::to_string(threads) +
            ") has for values (" + std::to_string(kRegisterReserve) +
            " kept for addresses and indices)";
        int64_t grown =
            tails > 0 && regs <= kMaxRegisterSlots
                ? sharedTailFor(regs, regs - tail - (peak.slots - liveBudget),
                                eb)
                : 0;
        if (grown > tail) {
          tail = grown;
          tailWhy = over;
          continue;
        }
        refusal = over;
        break;
      }
      if (tail) {
        RegisterPressure tailPeak = peakRegisterPressure(set.tails);
        int64_t other = kernelSharedBytes(kernel, threads);
        if (tailPeak.slots > tails ||
            tailPeak.slots + other > target.sharedBytesPerBlockOptIn)
          refusal = tailWhy + "; with a shared tail of " +
                    std::to_string(tail) + " slots the kernel's tails would "
                    "need " +
                    tailsOverText(tailPeak.slots, tails, other, target);
      }
      break;
    }
    for (OpOperand *use : uses) {
      if (!refusal.empty())
        break;
      auto reader = cast<ComputeOpInterface>(use->getOwner());
      EdgeScope s = classifyEdge(loadIface, reader, use->getOperandNumber(),
                                 kernel.getThreads());
      if (s.scope != Scope::SameThread) {
        refusal = "'" + use->getOwner()->getName().getStringRef().str() +
                  "' reads it in other threads (" + s.reason + ")";
        break;
      }
      // In registers, the dims the reader indexes it by are unrolled.
      int64_t work = unrolledWorkOf(reader, /*threads=*/0,
                                    [&](Value v) { return v == value; });
      if (work > kMaxUnrolledWork)
        refusal = "in registers, it would make the lowering unroll '" +
                  reader->getName().getStringRef().str() + "' to " +
                  std::to_string(work) + " instances of its body, over the " +
                  std::to_string(kMaxUnrolledWork) + " it unrolls at most";
    }
    if (!refusal.empty()) {
      kernel.emitRemark() << "kernel '" << kernel.getSymName() << "': "
                          << name << " (" << type << ") read by "
                          << readers.size()
                          << " motifs stays in global memory (rule 3 not "
                             "applied: "
                          << refusal << ")";
      rewriter.eraseOp(load);
      continue;
    }
    std::string rule = "rule 3: " + name + " is read by " +
                       std::to_string(readers.size()) +
                       " motifs of the kernel; loaded once, " +
                       std::to_string(regs - tail) + " register(s) per thread";
    if (tail)
      rule += " and " + std::to_string(tail) +
              " slots in a shared tail of each thread's own (" +
              std::to_string(tail * kernel.getCtaThreads() * eb) +
              (kernel.getClusterSize() > 1 ? " B per CTA" : " B per block") +
              ", no barrier; " + tailWhy + ")";
    auto mat = MaterializeOp::create(rewriter, kernel.getLoc(), type,
                                     load.getResult(), Residency::Register,
                                     /*observable=*/false);
    if (tail)
      mat.setSharedTailAttr(rewriter.getI64IntegerAttr(tail));
    mat->setAttr("motif.was", ResidencyAttr::get(ctx, Residency::Global));
    mat->setAttr("motif.rule", StringAttr::get(ctx, rule));
    mat->setAttr("motif.producer", StringAttr::get(ctx, "input " + name));
    // Every reader but one loaded it from global memory before.
    mat->setAttr("motif.saved_bytes",
                 IntegerAttr::get(IntegerType::get(ctx, 64),
                                  tensorBytes(type) * (readers.size() - 1)));
    for (OpOperand *use : uses)
      rewriter.modifyOpInPlace(use->getOwner(),
                               [&] { use->set(mat.getResult()); });
    kernel.emitRemark() << "kernel '" << kernel.getSymName() << "': " << name
                        << " (" << type << "): global -> register (" << rule
                        << ")";
    if (!trial)
      ++numInputsCached;
  }
}

/// What a block of `kernel` keeps on chip at its peak (the fusion's live-set
/// model): shared-tail bytes, register slots a thread, and 32-bit registers a
/// thread (16-bit slots two to a register).
struct Footprint {
  int64_t tails = 0, slots = 0, registers = 0;
};
static Footprint footprintOf(KernelOp kernel) {
  LiveSet set({kernel}, kernel.getThreads());
  set.addMaterializations({kernel});
  SmallVector<LiveInterval> words(set.intervals);
  for (auto [w, bytes] : llvm::zip(words, set.elementBytes))
    w.slots = llvm::divideCeil(w.slots * bytes, 4);
  return {peakRegisterPressure(set.tails).slots,
          peakRegisterPressure(set.intervals).slots,
          peakRegisterPressure(words).slots};
}

/// Blocks of `kernel` an SM of `target` holds at once, by its registers (the
/// peak `registers` a thread plus kRegisterReserve, in units of 8), its
/// shared bytes (`tailBytes` of tails and the rest it declares) and threads.
static int64_t blocksPerSM(KernelOp kernel, int64_t registers,
                           int64_t tailBytes, const TargetResources &target) {
  int64_t threads = kernel.getCtaThreads();
  int64_t perThread = llvm::alignTo(registers + kRegisterReserve, 8);
  int64_t blocks = target.registersPerSM / (perThread * threads);
  int64_t shared = tailBytes + kernelSharedBytes(kernel, kernel.getThreads());
  if (shared > 0)
    blocks = std::min(blocks, target.sharedBytesPerSM / shared);
  return std::min(blocks, target.maxThreadsPerSM / threads);
}

/// Scalar ops a map body computes (its yield not counted).
static int64_t bodyOpsOf(MapOp map) {
  return static_cast<int64_t>(
      llvm::range_size(map.getBody().front().without_terminator()));
}

int64_t FuseMaterializationPass::recomputeValues(KernelOp kernel) {
  // A body of at most this many scalar ops is computed again by each reader.
  constexpr int64_t kMaxRecomputedOps = 16;
  int64_t count = 0;
  SmallVector<MaterializeOp> candidates;
  // Values kept with a shared tail, or in shared memory (rule 5's downgrade
  // of a value its own threads read): on chip at a cost in shared bytes; and
  // values in registers of a kernel that runs one block an SM.
  kernel.getBodyBlock().walk([&](MaterializeOp m) {
    if (m.getResidency() != Residency::Global && !m.getRecompute() &&
        m.getInput().getDefiningOp<MapOp>())
      candidates.push_back(m);
  });
  for (MaterializeOp mat : candidates) {
    auto map = mat.getInput().getDefiningOp<MapOp>();
    std::string name = nameOf(
        mat, "the value of a map of '" + kernel.getSymName().str() + "'");
    auto decline = [&](const Twine &why) {
      if (!trial)
        mat.emitRemark() << "rule 6 (recompute) not applied to " << name
                         << ": " << why;
    };
    // The map's value is this materialization only, read element by element.
    // A copy (rule 3's load of an input) has nothing to compute again.
    if (!map->getResult(0).hasOneUse() || bodyOpsOf(map) == 0)
      continue;
    SmallVector<Operation *> readers;
    bool elementwise = true;
    for (Operation *u : mat.getResult().getUsers()) {
      elementwise &= isa<MapOp, ReduceOp, BroadcastOp, TransposeOp>(u);
      if (!llvm::is_contained(readers, u))
        readers.push_back(u);
    }
    if (!elementwise || readers.empty())
      continue;
    // A value in registers is a candidate only where the kernel runs one
    // block an SM (quietly otherwise: the common case).
    Footprint before = footprintOf(kernel);
    bool onChip = mat.getSharedTail() || mat.getResidency() == Residency::Shared;
    int64_t blocksBefore =
        blocksPerSM(kernel, before.registers, before.tails, target);
    if (!onChip && blocksBefore != 1)
      continue;
    if (bodyOpsOf(map) > kMaxRecomputedOps) {
      decline("its body has " + Twine(bodyOpsOf(map)) +
              " operations, more than the " + Twine(kMaxRecomputedOps) +
              " a reader computes again");
      continue;
    }
    // Every operand on chip in this thread: a register value of the kernel.
    std::string operands, offChip;
    for (Value v : map.getInputs()) {
      auto from = v.getDefiningOp<MaterializeOp>();
      std::string what;
      llvm::raw_string_ostream os(what);
      if (auto was = from ? from->getAttrOfType<StringAttr>("motif.producer")
                          : StringAttr())
        os << "'" << was.getValue() << "'";
      else
        os << "a " << v.getType();
      if (!from || from->getParentOp() != kernel.getOperation() ||
          from.getResidency() != Residency::Register) {
        offChip = what;
        break;
      }
      operands += (operands.empty() ? "" : ", ") + what +
                  (isRecomputed(from) ? " (itself recomputed)" : "");
    }
    if (!offChip.empty()) {
      decline("its operand " + offChip +
              " is not kept in registers by the kernel (recomputing would "
              "read it again from memory)");
      continue;
    }
    int64_t tailsBefore = before.tails, regsBefore = before.slots;
    std::optional<int64_t> tail = mat.getSharedTail();
    Residency was = mat.getResidency();
    int64_t sharedBefore =
        was == Residency::Shared
            ? sharedLayoutOf(MotifSchedule(
                                 cast<ComputeOpInterface>(map.getOperation()),
                                 kernel.getThreads()),
                             mat.getType().getElementType())
                  .bytes
            : 0;
    mat.setResidency(Residency::Register);
    mat.setRecompute(true);
    mat.removeSharedTailAttr();
    Footprint after = footprintOf(kernel);
    int64_t tailsAfter = after.tails, regsAfter = after.slots;
    // Fewer shared bytes (a tail or a buffer given back) without more
    // registers than a thread has for values; or, for a value in registers,
    // a kernel that ran one block an SM (load, reduce and store in turn)
    // now holding two or more, whose phases overlap.
    int64_t live = liveRegisterBudget(kernel.getCtaThreads(),
                                      target.registersPerThread,
                                      target.registersPerSM);
    int64_t blocksAfter =
        blocksPerSM(kernel, after.registers, tailsAfter, target);
    bool better =
        onChip ? (tailsAfter < tailsBefore + sharedBefore && regsAfter <= live)
               : (blocksBefore == 1 && blocksAfter > 1);
    std::optional<std::string> illegal = checkMaterialization(mat);
    // The register case is measured slower (docs/residency.md, "Recompute"):
    // taken only when asked for.
    bool unasked = !onChip && better && !recomputeRegisters;
    if (!better || illegal || unasked) {
      mat.setResidency(was);
      mat.setRecompute(false);
      if (tail)
        mat.setSharedTailAttr(
            IntegerAttr::get(IntegerType::get(mat.getContext(), 64), *tail));
      if (illegal)
        decline("its readers cannot compute it: " + *illegal);
      else if (unasked)
        decline("it is kept in registers and recompute-registers=false: "
                "recomputed, it would let the kernel hold " +
                Twine(blocksAfter) + " blocks an SM instead of 1 (registers "
                "a thread at their peak " +
                Twine(before.registers) + " -> " + Twine(after.registers) +
                ")");
      else if (!onChip && blocksBefore == 1)
        decline("the kernel would still hold one block an SM (registers a "
                "thread at their peak " +
                Twine(before.registers) + " -> " + Twine(after.registers) +
                ", with " + Twine(kRegisterReserve) +
                " for addresses and indices)");
      else if (onChip)
        decline("the kernel would keep as much on chip or need more "
                "registers (shared bytes of its values at their peak " +
                Twine(tailsBefore + sharedBefore) + " -> " + Twine(tailsAfter) +
                " B, registers a thread " + Twine(regsBefore) + " -> " +
                Twine(regsAfter) + ", " + Twine(live) +
                " for values: its operands live as long as its readers)");
      continue;
    }
    std::string rule =
        "rule 6: recomputed by its " + std::to_string(readers.size()) +
        " reader(s) from " + operands + " (in registers): its " +
        std::to_string(registerLayoutOf(MotifSchedule(
                           cast<ComputeOpInterface>(map.getOperation()),
                           kernel.getThreads()))
                           .slots) +
        " slots a thread are not kept (" +
        (was == Residency::Shared ? "it was in shared memory"
         : tail                   ? "it had a shared tail"
                                  : "it was in registers") +
        "); shared bytes of the kernel's values at their peak " +
        std::to_string(tailsBefore + sharedBefore) + " -> " +
        std::to_string(tailsAfter) + " B, blocks an SM " +
        std::to_string(blocksBefore) + " -> " + std::to_string(blocksAfter) +
        ", registers a thread for its values (16-bit ones two to a "
        "register) " +
        std::to_string(before.registers) + " -> " +
        std::to_string(after.registers) +
        "; its body (" + std::to_string(bodyOpsOf(map)) +
        " operations) runs once a reader (bitwise: the same operations on "
        "the same values)";
    if (!trial)
      mat.emitRemark() << "rule 6 (recompute): " << name << " "
                       << StringRef(rule).drop_front(strlen("rule 6: "));
    mat->setAttr("motif.rule", StringAttr::get(mat.getContext(), rule));
    ++count;
  }
  return count;
}

LogicalResult FuseMaterializationPass::initialize(MLIRContext *ctx) {
  // Options are checked once, before any function: a module without one
  // still refuses a bad option. They name the option, not a source line.
  auto bad = [&](const Twine &why) {
    emitError(UnknownLoc::get(ctx)) << "fuse-materialization: " << why;
    return failure();
  };
  std::optional<TargetResources> t = lookupTarget(chip);
  if (!t)
    return bad("unknown chip '" + chip + "' (known: " + knownTargets() + ")");
  target = *t;
  std::optional<Equivalence> c = symbolizeEquivalence(equivalenceCap);
  if (!c)
    return bad("unknown equivalence cap '" + equivalenceCap +
               "' (expected bitwise, tolerance, mathematical or semantic)");
  cap = *c;
  if (sharedBudget < -1)
    return bad("shared budget " + Twine(static_cast<int64_t>(sharedBudget)) +
               " is negative (use -1 for the chip's default)");
  budget = sharedBudget < 0 ? target.sharedBytesPerBlock : sharedBudget;
  // wgmma pipelines live in dynamic shared memory: up to the per-block
  // opt-in maximum unless the budget is set (sm_90a only).
  wgmmaBudget = chip != "sm_90a"   ? 0
                : sharedBudget < 0 ? target.sharedBytesPerBlockOptIn
                                   : budget;
  if (budget > target.sharedBytesPerBlockOptIn)
    return bad("shared budget " + Twine(budget) + " B exceeds " + target.chip +
               "'s per-block maximum (" + Twine(target.sharedBytesPerBlockOptIn) +
               " B)");
  if (tailBudget < -1)
    return bad("tail budget " + Twine(static_cast<int64_t>(tailBudget)) +
               " is negative (use -1 for the chip's opt-in maximum, 0 for "
               "no tails)");
  tails = tailBudget < 0 ? target.sharedBytesPerBlockOptIn : tailBudget;
  if (tails > target.sharedBytesPerBlockOptIn)
    return bad("tail budget " + Twine(tails) + " B exceeds " + target.chip +
               "'s per-block maximum (" +
               Twine(target.sharedBytesPerBlockOptIn) + " B)");
  if (registerBudget < 0 || registerBudget > target.registersPerThread)
    return bad("register budget " + Twine(static_cast<int64_t>(registerBudget)) +
               " is outside [0, " + Twine(target.registersPerThread) + "]");
  if (rowClusterThreads != 0 &&
      (rowClusterThreads < kWarpSize || rowClusterThreads > kRowMaxThreads ||
       !llvm::isPowerOf2_64(rowClusterThreads)))
    return bad("row cluster threads " +
               Twine(static_cast<int64_t>(rowClusterThreads)) +
               " is not 0 (off) or a power of two in [32, " +
               Twine(kRowMaxThreads) + "]");
  if (rowBlockMinGrid < 0)
    return bad("row-block-min-grid " +
               Twine(static_cast<int64_t>(rowBlockMinGrid)) +
               " is negative (0 keeps one row a block)");
  if (mmaMinGrid < -1)
    return bad("mma-min-grid " + Twine(static_cast<int64_t>(mmaMinGrid)) +
               " is below -1 (-1: the chip's SMs; 0 takes the largest tile "
               "that divides)");
  if (rowClusters != "auto" && rowClusters != "always" && rowClusters != "off")
    return bad("unknown row-clusters '" + rowClusters +
               "' (expected auto, always or off)");
  return success();
}

/// Whether `kernel` holds a contraction on wgmma (its staged operand tiles
/// then take the wgmma pipeline's budget).
static bool holdsWgmma(KernelOp kernel) {
  bool found = false;
  kernel.walk([&](ContractOp c) {
    if (std::optional<MmaShape> shape = c.getMma())
      found |= isWgmma(*shape);
  });
  return found;
}

SmallVector<Edge>
FuseMaterializationPass::planEdges(ArrayRef<KernelOp> kernels,
                                   Equivalence &applied) {
  SmallVector<Edge> edges;
  for (KernelOp k : kernels) {
    for (unsigned r = 0; r < k.getNumResults(); ++r) {
      Edge e;
      e.producer = k;
      e.result = r;
      e.mat = cast<MaterializeOp>(k.getYield().getOperand(r).getDefiningOp());
      if (Operation *def = e.mat.getInput().getDefiningOp())
        if (kernelOf(def) == k)
          e.producerOp = dyn_cast<ComputeOpInterface>(def);
      decide(e, target, budget);
      edges.push_back(std::move(e));
    }
  }
  legalizeGroups(edges, kernels, budget, cap, applied);
  return edges;
}

llvm::StringMap<int64_t>
FuseMaterializationPass::globalBytesOfPlan(func::FuncOp func,
                                           int64_t clusterThreads,
                                           bool *grewCluster) {
  OwningOpRef<func::FuncOp> copy(func.clone());
  ThreadDiagnosticHandler quiet(&getContext());
  llvm::SaveAndRestore inTrial(trial, true);
  Equivalence applied = Equivalence::Bitwise;
  (void)applyRowBlocks(*copy, cap, registerBudget, applied, clusterThreads,
                       target.maxClusterSize, nullptr, rowBlockMinGrid);
  if (grewCluster) {
    llvm::StringMap<int64_t> had;
    for (KernelOp k : func.getBody().front().getOps<KernelOp>())
      had[k.getSymName()] = k.getClusterSize();
    *grewCluster = llvm::any_of(
        copy->getBody().front().getOps<KernelOp>(), [&](KernelOp k) {
          return k.getClusterSize() > had.lookup(k.getSymName());
        });
  }
  // Each motif remembers its kernel: merged kernels are named anew.
  MLIRContext *ctx = &getContext();
  for (KernelOp k : copy->getBody().front().getOps<KernelOp>())
    for (Operation &op : k.getBodyBlock())
      op.setAttr(kTrialKernelAttr, StringAttr::get(ctx, k.getSymName()));
  llvm::StringMap<int64_t> bytes;
  if (failed(fuse(*copy, applied))) {
    // Unplannable this way: as if everything went through global memory.
    for (KernelOp k : copy->getBody().front().getOps<KernelOp>())
      bytes[k.getSymName()] = std::numeric_limits<int64_t>::max() / 4;
    return bytes;
  }
  // Per kernel after the fusion: every tensor it reads from outside (an
  // argument, another kernel's result: global memory), once per reader,
  // and every value it stores.
  for (KernelOp k : copy->getBody().front().getOps<KernelOp>()) {
    int64_t traffic = 0;
    StringRef origin;
    k.getBodyBlock().walk([&](Operation *op) {
      if (auto name = op->getAttrOfType<StringAttr>(kTrialKernelAttr);
          name && origin.empty())
        origin = name.getValue();
      for (Value v : op->getOperands())
        if (isa<RankedTensorType>(v.getType()) &&
            !k.getBody().isAncestor(v.getParentRegion()))
          traffic += tensorBytes(v.getType());
      if (auto m = dyn_cast<MaterializeOp>(op);
          m && m.getResidency() == Residency::Global)
        traffic += tensorBytes(m.getType());
    });
    bytes[origin.empty() ? k.getSymName() : origin] += traffic;
  }
  return bytes;
}

LogicalResult FuseMaterializationPass::fuse(func::FuncOp func,
                                            Equivalence &applied) {
  // A general combiner combined in a tree must be lawful; re-blocking
  // changes its tree, so under the bitwise cap an unlawful one is an error.
  bool lawless = false;
  func.walk([&](ReduceOp red) {
    if (!combinesInATree(red))
      return;
    std::optional<std::string> why = checkCombinerLaws(red);
    if (!why)
      return;
    if (cap == Equivalence::Bitwise) {
      red.emitError() << "the combiner " << *why
                      << ": a reduction across threads needs an associative, "
                         "commutative combiner with 'init' as its identity";
      lawless = true;
    } else {
      red.emitWarning() << "the combiner " << *why
                        << ": the GPU's tree computes another function than "
                           "the sequential fold";
    }
  });
  if (lawless)
    return failure();

  SmallVector<KernelOp> kernels;
  for (Operation &op : func.getBody().front())
    if (auto k = dyn_cast<KernelOp>(op))
      kernels.push_back(k);
  if (kernels.empty())
    return success();

  if (!func->hasAttr(kInvariantsAttrName))
    func->setAttr(kInvariantsAttrName, computeInvariants(func));

  SmallVector<Edge> edges = planEdges(kernels, applied);

  // Remarks and records, on the original materializations.
  MLIRContext *ctx = &getContext();
  for (Edge &e : edges) {
    if (e.fused())
      e.mat.emitRemark() << describe(e) << ": global -> "
                         << stringifyResidency(e.decision)
                         << (e.tail ? " shared_tail(" + std::to_string(e.tail) +
                                          ")"
                                    : std::string())
                         << " (" << e.rule << ")";
    else
      e.mat.emitRemark() << describe(e) << ": stays global (" << e.rule << ")";
    e.mat->setAttr("motif.was", ResidencyAttr::get(ctx, Residency::Global));
    e.mat->setAttr("motif.rule", StringAttr::get(ctx, e.rule));
    e.mat->setAttr("motif.producer",
                   StringAttr::get(ctx, e.producer.getSymName() + "#" +
                                            std::to_string(e.result)));
    // Unfused, the value is stored once and loaded by every consumer motif.
    int64_t saved = 0;
    if (e.fused()) {
      llvm::SmallPtrSet<Operation *, 4> readers;
      for (auto &c : e.consumers)
        readers.insert(c.first);
      saved = tensorBytes(e.value().getType()) * (1 + readers.size());
    }
    e.mat->setAttr("motif.saved_bytes",
                   IntegerAttr::get(IntegerType::get(ctx, 64), saved));
    switch (e.decision) {
    case Residency::Register:
      if (!trial)
        ++numRegister;
      break;
    case Residency::Shared:
      if (!trial)
        ++numShared;
      break;
    case Residency::Global:
      if (!trial)
        ++numGlobal;
      break;
    }
  }

  // Merge every group of two or more kernels.
  llvm::EquivalenceClasses<Operation *> groups = groupKernels(edges, kernels);
  llvm::MapVector<Operation *, SmallVector<KernelOp>> members;
  for (KernelOp k : kernels)
    members[groups.getLeaderValue(k.getOperation())].push_back(k);
  IRRewriter rewriter(ctx);
  for (auto &[leader, ks] : members) {
    if (ks.size() < 2)
      continue;
    SmallVector<Edge *> groupEdges;
    for (Edge &e : edges)
      if (llvm::is_contained(ks, e.producer))
        groupEdges.push_back(&e);
    mergeGroup(ks, groupEdges, rewriter);
    if (!trial)
      numKernelsRemoved += ks.size() - 1;
  }
  if (cacheInputs)
    for (KernelOp k : llvm::to_vector(func.getBody().front().getOps<KernelOp>()))
      cacheReusedInputs(k, rewriter);
  if (stageOperands)
    for (KernelOp k : llvm::to_vector(func.getBody().front().getOps<KernelOp>()))
      if (int64_t n = stageOperandTiles(
              k, rewriter, wgmmaBudget && holdsWgmma(k) ? wgmmaBudget : budget);
          !trial)
        numStaged += n;
  if (recompute)
    for (KernelOp k : func.getBody().front().getOps<KernelOp>())
      if (int64_t n = recomputeValues(k); !trial)
        numRecomputed += n;
  // A cluster the fusion made unrunnable (a value it moved to shared memory,
  // a staged tile) is dropped: the block runs as one CTA, the same schedule.
  if (int64_t n = settleClusters(func); !trial)
    numClusters += n;
  if (!sortTopologically(&func.getBody().front())) {
    func.emitError() << "internal error: merged kernels cannot be ordered";
    return failure();
  }
  func->setAttr("motif.equivalence", EquivalenceAttr::get(ctx, applied));
  return success();
}

void FuseMaterializationPass::runOnOperation() {
  func::FuncOp func = getOperation();
  // A declaration has nothing to fuse.
  if (func.isExternal())
    return;
  const TargetResources *target = &this->target;
  Equivalence *cap = &this->cap;
  // The weakest class applied so far: an earlier rewrite (a standalone
  // --motif-online-softmax) keeps its class through this one.
  Equivalence applied = Equivalence::Bitwise;
  if (auto prior = func->getAttrOfType<EquivalenceAttr>("motif.equivalence"))
    applied = prior.getValue();

  // Tiles for contractions that state none (bitwise: the fold order stays).
  if (defaultSchedules)
    numDefaultSchedules += applyDefaultSchedules(
        func, *cap, applied, mmaMinGrid < 0 ? target->typicalSMs : mmaMinGrid,
        budget, wgmmaBudget);
  // Which contractions run on tensor cores, and why an eligible one does not
  // (the program states it: the fusion applies no class for it).
  (void)remarkTensorCores(func);

  // Rule 4 next: it changes which reductions there are, so the invariants
  // the fusion keeps are those of the rewritten program (the rewrite itself
  // is held to its class, `mathematical`, by motif-equiv).
  if (onlineSoftmax) {
    IRRewriter rewriter(&getContext());
    // Only where it removes a pass: a row that fits the register budget is
    // loaded once by the fusion (rule 3) and the state would add work.
    auto gate = [&](ReduceOp max) -> std::string {
      KernelOp kernel = max->getParentOfType<KernelOp>();
      int64_t threads = kernel.getThreads();
      Type element =
          cast<RankedTensorType>(max.getInputs()[0].getType()).getElementType();
      int64_t eb = llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
      // Elements of the row a thread of a block of `n` threads walks (the
      // instances per thread of every dim, reduced ones included).
      auto rowOver = [&](int64_t n) {
        MotifSchedule s(cast<ComputeOpInterface>(max.getOperation()), n);
        int64_t each = 1;
        for (const DimSchedule &d : s.getDims())
          each *= d.count;
        return std::make_pair(each, scratchBytesOf(s));
      };
      // The slots of `each` a thread keeps in its shared tail in CTAs of
      // `cta` threads (the rest in registers, within the register budget
      // and the live set), and that tail's bytes per CTA.
      auto tailOver = [&](int64_t each, int64_t cta) {
        int64_t live = liveRegisterBudget(cta, target->registersPerThread,
                                          target->registersPerSM);
        int64_t tail = sharedTailFor(
            each, std::min<int64_t>(registerBudget, live - 1), eb);
        return std::make_pair(tail,
                              tailLayoutOf(each, tail, cta, eb).bytes());
      };
      auto [perThread, scratch] = rowOver(threads);
      // The fused kernel keeps the row and its statistic live at once: the
      // same live-set budget the fusion holds it to (a row within the
      // per-value budget but over the live set would be refused there and
      // stay two kernels, with neither the one read nor the online state).
      int64_t live = liveRegisterBudget(kernel.getCtaThreads(),
                                        target->registersPerThread,
                                        target->registersPerSM);
      if (perThread > registerBudget || perThread + 1 > live) {
        // Registers and a shared tail may still hold it: the fusion then
        // reads it once as well (docs/residency.md, "Shared tails").
        auto [tail, bytes] = tailOver(perThread, kernel.getCtaThreads());
        if (tails == 0 || perThread > kMaxRegisterSlots ||
            bytes + scratch >
                std::min(tails, target->sharedBytesPerBlockOptIn)) {
          // Row blocks may still grow the block to hold it (the cap admits
          // `tolerance` here): one CTA of up to kRowMaxThreads first, then,
          // with row clusters on, kMaxThreadsPerBlock in CTAs of
          // row-cluster-threads, each with its registers and tails
          // (docs/residency.md, "Row blocks"). One pass over x there beats
          // the state's two (on the H200, f32 rows of 65536 grown to 512
          // threads: 0.280 ms against 0.402; f32 rows of 131072 in a
          // cluster of 8 x 128: 301 us against 434).
          if (!rowBlocks)
            return "";
          auto [grown, grownScratch] = rowOver(kRowMaxThreads);
          auto [grownTail, grownBytes] = tailOver(grown, kRowMaxThreads);
          if (grown <= kMaxRegisterSlots &&
              (grownTail == 0 ||
               grownBytes + grownScratch <=
                   std::min(tails, target->sharedBytesPerBlockOptIn)))
            return "the row stays on chip in one block of " +
                   std::to_string(kRowMaxThreads) +
                   " threads (row blocks grow it): " + std::to_string(grown) +
                   " element(s) per thread, " +
                   std::to_string(grown - grownTail) + " in registers and " +
                   std::to_string(grownTail) + " in a shared tail (" +
                   std::to_string(grownBytes) +
                   " B per block), so the fusion reads it once and the "
                   "online state's two passes would only add traffic "
                   "(row-blocks=false lets it rewrite)";
          int64_t cta = rowClusterThreads;
          if (cta <= 0 || rowClusters == "off" ||
              target->maxClusterSize <= 1 || cta >= kMaxThreadsPerBlock ||
              kMaxThreadsPerBlock / cta > target->maxClusterSize)
            return "";
          auto [each, wideScratch] = rowOver(kMaxThreadsPerBlock);
          auto [ctaTail, ctaBytes] = tailOver(each, cta);
          if (each > kMaxRegisterSlots || ctaBytes > tails ||
              ctaBytes + wideScratch > target->sharedBytesPerBlockOptIn)
            return "";
          return "the row stays on chip in a cluster of " +
                 std::to_string(kMaxThreadsPerBlock / cta) + " CTAs of " +
                 std::to_string(cta) + " threads: " + std::to_string(each) +
                 " element(s) per thread, " + std::to_string(each - ctaTail) +
                 " in registers and " + std::to_string(ctaTail) +
                 " in a shared tail (" + std::to_string(ctaBytes) +
                 " B per CTA), so the fusion reads it once and the online "
                 "state's two passes would only add traffic (row-clusters=off "
                 "lets it rewrite)";
        }
        return "the row stays on chip: " + std::to_string(perThread) +
               " element(s) per thread, " + std::to_string(perThread - tail) +
               " in registers and " + std::to_string(tail) +
               " in a shared tail of each thread's own (" +
               std::to_string(bytes) + " B per block, within the tail budget "
               "of " + std::to_string(tails) + " B), so the fusion reads it "
               "once and the online state would only add work "
               "(--motif-online-softmax rewrites regardless; tail-budget=0 "
               "turns tails off)";
      }
      return "the row stays on chip: " + std::to_string(perThread) +
             " element(s) per thread, within the register budget (" +
             std::to_string(registerBudget) + ") and, with its statistic, "
             "within the live set of threads(" + std::to_string(threads) +
             ") (" + std::to_string(live) +
             "), so the fusion reads it once and the online state would "
             "only add work (--motif-online-softmax rewrites regardless)";
    };
    if (int64_t n = rewriteOnlineSoftmax(func, *cap, rewriter, gate, chip)) {
      numOnline += n;
      if (applied < Equivalence::Mathematical)
        applied = Equivalence::Mathematical;
    }
  }

  // Fast exp and row divisions, where the cap admits `mathematical` (after
  // rule 4, which writes its own exp2; before the fusion, which only moves
  // values).
  if (approximateMath && *cap >= Equivalence::Mathematical) {
    IRRewriter rewriter(&getContext());
    if (mlir::motif::approximateMath(func, rewriter) &&
        applied < Equivalence::Mathematical)
      applied = Equivalence::Mathematical;
  }

  // Row kernels whose block is larger than their rows need, or too small to
  // hold them in registers (before the residencies, which count the elements
  // each thread holds).
  bool clustersOn = rowClusterThreads > 0 && rowClusters != "off";
  if (rowBlocks && clustersOn && rowClusters == "always" &&
      target->maxClusterSize <= 1)
    func.emitRemark() << "row clusters (row-clusters=always, "
                         "row-cluster-threads="
                      << static_cast<int64_t>(rowClusterThreads)
                      << ") not used: " << target->chip
                      << " has no thread-block clusters; long rows grow to at "
                         "most "
                      << kRowMaxThreads << " threads in one CTA";
  if (rowBlocks) {
    int64_t clusterThreads = target->maxClusterSize > 1 && clustersOn
                                 ? static_cast<int64_t>(rowClusterThreads)
                                 : 0;
    bool automatic = rowClusters == "auto";
    // A cluster where it keeps on chip what one CTA cannot: the fusion plans
    // the function both ways (docs/residency.md, "Row clusters": at equal
    // global traffic one CTA is faster).
    llvm::StringMap<int64_t> alone, clustered;
    if (clusterThreads > 0 && automatic) {
      bool grew = false;
      clustered = globalBytesOfPlan(func, clusterThreads, &grew);
      if (grew)
        alone = globalBytesOfPlan(func, 0);
    }
    auto decline = [&](ArrayRef<KernelOp> ks) -> std::string {
      int64_t a = 0, c = 0;
      for (KernelOp k : ks) {
        a += alone.lookup(k.getSymName());
        c += clustered.lookup(k.getSymName());
      }
      if (c < a) {
        KernelOp first = ks.front();
        first.emitRemark()
            << "row clusters: kernel '" << first.getSymName()
            << "': a cluster keeps on chip what one CTA of at most "
            << kRowMaxThreads << " threads cannot: " << a << " -> " << c
            << " B stored to and loaded from global memory";
        return "";
      }
      if (c == a)
        return "one CTA of at most " + std::to_string(kRowMaxThreads) +
               " threads keeps as much on chip (" + std::to_string(a) +
               " B stored to and loaded from global memory either way), and "
               "the cluster's barriers and remote loads would only add time";
      return "one CTA of at most " + std::to_string(kRowMaxThreads) +
             " threads keeps more on chip (" + std::to_string(a) +
             " B stored to and loaded from global memory, against " +
             std::to_string(c) + " B with the cluster)";
    };
    numRowBlocks += applyRowBlocks(
        func, *cap, registerBudget, applied, clusterThreads,
        target->maxClusterSize,
        clusterThreads > 0 && automatic
            ? llvm::function_ref<std::string(ArrayRef<KernelOp>)>(decline)
            : nullptr,
        rowBlockMinGrid);
  }

  if (failed(fuse(func, applied)))
    return signalPassFailure();
}
