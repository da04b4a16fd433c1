//===- Reduction.cpp - reductions and contractions ------------------------===//
//
// One result instance of a reduction: fold the thread's own instances of the
// reduced dims from the identity in increasing order, then combine across
// lanes with a gpu.shuffle xor butterfly (offsets 16, 8, 4, 2, 1) and across
// warps through a shared scratch buffer behind a barrier, in warp order. The
// tree is fixed by the mapping and block size, so two kernels with the same
// mapping compute the same bits. A thread's several result instances (rows a
// block: `block x seq(R)`) may go through one exchange: every instance's
// butterfly, then one barrier for all of them (allReduceBatched), each
// instance's tree unchanged.
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

#include <limits>

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::detail;

namespace {
using CombineFn = std::function<SmallVector<Value>(ValueRange, ValueRange)>;
} // namespace

/// combine(acc, x) for a reduction's combiner.
static CombineFn combinerOf(KernelEmitter &e, ReduceOp op) {
  if (std::optional<CombinerKind> kind = op.getKind()) {
    return [&e, k = *kind](ValueRange acc, ValueRange x) {
      Value a = acc[0], v = x[0];
      switch (k) {
      case CombinerKind::Add:
        return SmallVector<Value>{arith::AddFOp::create(e.b, e.loc, a, v)};
      case CombinerKind::Mul:
        return SmallVector<Value>{arith::MulFOp::create(e.b, e.loc, a, v)};
      case CombinerKind::Max:
        return SmallVector<Value>{arith::MaximumFOp::create(e.b, e.loc, a, v)};
      case CombinerKind::Min:
        return SmallVector<Value>{arith::MinimumFOp::create(e.b, e.loc, a, v)};
      }
      llvm_unreachable("unknown combiner");
    };
  }
  Block *body = &op.getCombiner().front();
  return [&e, body](ValueRange acc, ValueRange x) {
    IRMapping mapping;
    unsigned n = acc.size();
    for (unsigned i = 0; i < n; ++i) {
      mapping.map(body->getArgument(i), acc[i]);
      mapping.map(body->getArgument(n + i), x[i]);
    }
    for (Operation &scalar : body->without_terminator())
      emitScalarOp(e.b, scalar, mapping);
    SmallVector<Value> out;
    for (Value v : body->getTerminator()->getOperands())
      out.push_back(mapping.lookup(v));
    return out;
  };
}

static SmallVector<Value> identityOf(KernelEmitter &e, ReduceOp op) {
  if (std::optional<CombinerKind> kind = op.getKind()) {
    double inf = std::numeric_limits<double>::infinity();
    switch (*kind) {
    case CombinerKind::Add:
      return {e.constF32(0.0)};
    case CombinerKind::Mul:
      return {e.constF32(1.0)};
    case CombinerKind::Max:
      return {e.constF32(-inf)};
    case CombinerKind::Min:
      return {e.constF32(inf)};
    }
  }
  SmallVector<Value> out;
  // Hold the attribute: a range-for over `*op.getInit()` would iterate a
  // destroyed temporary optional.
  ArrayAttr init = *op.getInit();
  for (Attribute a : init)
    out.push_back(arith::ConstantOp::create(e.b, e.loc, cast<TypedAttr>(a)));
  return out;
}

/// The cross-thread combine. With `flagged` every partial carries one more
/// value, 1.0 when it folded at least one element (else 0.0), and a partial
/// without elements is never combined: two identities of a general combiner
/// can make NaN (the online-softmax state's -inf - -inf).
static CombineFn treeCombine(KernelEmitter &e, CombineFn combine, bool flagged) {
  if (!flagged)
    return combine;
  return [&e, combine](ValueRange a, ValueRange x) {
    unsigned n = a.size() - 1;
    Value zero = e.constF32(0.0);
    Value av = arith::CmpFOp::create(e.b, e.loc, arith::CmpFPredicate::ONE,
                                     a[n], zero);
    Value xv = arith::CmpFOp::create(e.b, e.loc, arith::CmpFPredicate::ONE,
                                     x[n], zero);
    Value both = arith::AndIOp::create(e.b, e.loc, av, xv);
    SmallVector<Value> c = combine(a.take_front(n), x.take_front(n));
    SmallVector<Value> out;
    for (unsigned i = 0; i < n; ++i) {
      Value one = arith::SelectOp::create(e.b, e.loc, xv, x[i], a[i]);
      out.push_back(arith::SelectOp::create(e.b, e.loc, both, c[i], one));
    }
    out.push_back(arith::MaximumFOp::create(e.b, e.loc, a[n], x[n]));
    return out;
  };
}

FailureOr<ReductionPartial>
mlir::motif::detail::reductionPartial(KernelEmitter &e, ComputeOpInterface op,
                                      ArrayRef<DimPlan> plans, Instance &inst) {
  SmallVector<int64_t> reduced = op.getReductionIterationDims();
  ReductionTree tree = e.schedule().getReductionTree();
  if (std::optional<std::string> why = e.schedule().unsupportedAtBlockSize())
    return op->emitOpError() << *why;
  if (auto red = dyn_cast<ReduceOp>(op.getOperation())) {
    CombineFn combine = combinerOf(e, red);
    SmallVector<Value> init = identityOf(e, red);
    unsigned n = init.size();
    if (tree.flagged)
      init.push_back(e.constF32(0.0));
    FailureOr<SmallVector<Value>> partial = e.accumulate(
        op, plans, reduced, inst, init,
        [&](Instance &i, ValueRange acc) -> FailureOr<SmallVector<Value>> {
          SmallVector<Value> elems;
          for (unsigned k = 0; k < n; ++k) {
            FailureOr<Value> v = e.loadAccumulated(op, k, i);
            if (failed(v))
              return failure();
            elems.push_back(*v);
          }
          SmallVector<Value> next = combine(acc.take_front(n), elems);
          if (tree.flagged)
            next.push_back(e.constF32(1.0));
          return next;
        });
    if (failed(partial))
      return failure();
    return ReductionPartial{*partial, treeCombine(e, combine, tree.flagged), n};
  }
  FailureOr<SmallVector<Value>> partial = e.accumulate(
      op, plans, reduced, inst, {e.constF32(0.0)},
      [&](Instance &i, ValueRange acc) -> FailureOr<SmallVector<Value>> {
        FailureOr<Value> l = e.loadAccumulated(op, 0, i);
        FailureOr<Value> r = e.loadAccumulated(op, 1, i);
        if (failed(l) || failed(r))
          return failure();
        return SmallVector<Value>{
            math::FmaOp::create(e.b, e.loc, *l, *r, acc[0])};
      });
  if (failed(partial))
    return failure();
  CombineFn add = [&e](ValueRange a, ValueRange x) {
    return SmallVector<Value>{arith::AddFOp::create(e.b, e.loc, a[0], x[0])};
  };
  return ReductionPartial{*partial, add, 1};
}

FailureOr<SmallVector<Value>>
mlir::motif::detail::emitReduction(KernelEmitter &e, ComputeOpInterface op,
                                   ArrayRef<DimPlan> plans, Instance &inst) {
  FailureOr<ReductionPartial> p = reductionPartial(e, op, plans, inst);
  if (failed(p))
    return failure();
  FailureOr<SmallVector<Value>> all =
      e.allReduce(op, p->values, e.schedule().getReductionTree(), p->combine);
  if (failed(all))
    return failure();
  all->resize(p->results);
  return all;
}

SmallVector<Value> KernelEmitter::butterflyStep(
    SmallVector<Value> partial, int64_t offset, const ReductionTree &tree,
    const std::function<SmallVector<Value>(ValueRange, ValueRange)> &combine) {
  SmallVector<Value> others;
  for (Value v : partial)
    others.push_back(
        gpu::ShuffleOp::create(b, loc, v, offset, lanes, gpu::ShuffleMode::XOR)
            .getShuffleResult());
  if (!tree.ordered)
    return combine(partial, others);
  // combine(lower lane's, higher lane's) in both lanes of a pair, so every
  // lane ends with the same bits even when the combiner is commutative only
  // up to rounding.
  Value high = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::AndIOp::create(b, loc, laneId, constIndex(offset)), constIndex(0));
  SmallVector<Value> lo, hi;
  for (auto [own, other] : llvm::zip(partial, others)) {
    lo.push_back(arith::SelectOp::create(b, loc, high, other, own));
    hi.push_back(arith::SelectOp::create(b, loc, high, own, other));
  }
  return combine(lo, hi);
}

SmallVector<SmallVector<Value>> KernelEmitter::allReduceBatched(
    Operation *op, SmallVector<SmallVector<Value>> partials,
    const ReductionTree &tree,
    const std::function<SmallVector<Value>(ValueRange, ValueRange)> &combine) {
  assert(cluster <= 1 && !tree.lanesDiffer &&
         "batched exchanges: one CTA, one partial a warp");
  // Each butterfly step of every instance before the next step: the
  // instances' shuffles are independent, so they overlap.
  if (tree.acrossLanes)
    for (int64_t offset = lanes / 2; offset >= 1; offset /= 2)
      for (SmallVector<Value> &partial : partials)
        partial = butterflyStep(partial, offset, tree, combine);
  if (!tree.acrossWarps)
    return partials;
  // A set of scratch buffers an instance (scratchBytesOf reserves them):
  // lane 0 of every warp stores each instance's partial, one barrier, then
  // every thread folds each instance's partials in warp order.
  auto space =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  SmallVector<SmallVector<Value>> scratch;
  for (ArrayRef<Value> partial : partials) {
    SmallVector<Value> bufs;
    for (Value v : partial) {
      auto type = MemRefType::get({warps}, v.getType(), nullptr, space);
      bufs.push_back(addWorkgroupBuffer(type, op->getLoc()));
      sharedBytesUsed +=
          warps * llvm::divideCeil(v.getType().getIntOrFloatBitWidth(), 8);
    }
    scratch.push_back(bufs);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    Value speaks = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         laneId, constIndex(0));
    auto ifOp = scf::IfOp::create(b, loc, speaks, /*withElseRegion=*/false);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    for (auto [partial, bufs] : llvm::zip(partials, scratch))
      for (auto [v, buf] : llvm::zip(partial, bufs))
        memref::StoreOp::create(b, loc, v, buf, ValueRange{warpId});
  }
  barrier(loc);
  for (auto [partial, bufs] : llvm::zip(partials, scratch)) {
    auto read = [&](int64_t w) {
      SmallVector<Value> out;
      for (Value buf : bufs)
        out.push_back(
            memref::LoadOp::create(b, loc, buf, ValueRange{constIndex(w)}));
      return out;
    };
    SmallVector<Value> acc = read(0);
    for (int64_t w = 1; w < warps; ++w)
      acc = combine(acc, read(w));
    partial = acc;
  }
  // Inside a loop the next round rewrites the scratch: wait for readers.
  if (loopDepth > 0)
    barrier(loc);
  return partials;
}

FailureOr<SmallVector<Value>> KernelEmitter::allReduce(
    Operation *op, SmallVector<Value> partial, const ReductionTree &tree,
    const std::function<SmallVector<Value>(ValueRange, ValueRange)> &combine) {
  bool lanesDiffer = tree.lanesDiffer;
  if (tree.acrossLanes)
    for (int64_t offset = lanes / 2; offset >= 1; offset /= 2)
      partial = butterflyStep(partial, offset, tree, combine);
  if (tree.acrossWarps) {
    auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                            gpu::AddressSpace::Workgroup);
    // When the lanes of a warp hold partials of different results (a result
    // dim on lanes), every lane passes its own partial: scratch[warp][lane].
    // Otherwise the lanes agree and lane 0 speaks for its warp: scratch[warp].
    SmallVector<int64_t> shape{warps};
    if (lanesDiffer)
      shape.push_back(lanes);
    bool push = cluster > 1 && clusterPush;
    // cluster-mbarrier: the pushed partials counted on an mbarrier of each
    // receiving CTA (st.async), which waits on its own: no cluster barrier,
    // no release (MEMBAR.ALL.GPU). A fresh scratch set and mbarrier for the
    // exchange (one phase, parity 0), so outside any loop and for a motif of
    // one result instance only (scratchBytesOf's one set), and for 32-bit
    // partials (st.async's .b32).
    int64_t instances = 1;
    for (int64_t d : schedule().getResultDims())
      instances *= schedule().getDim(d).count;
    bool async = push && clusterMbarrier && loopDepth == 0 && instances == 1 &&
                 llvm::all_of(partial, [](Value v) {
                   return v.getType().getIntOrFloatBitWidth() == 32;
                 });
    Value exchangeBar;
    SmallVector<Value> scratch;
    if (async) {
      for (Value v : partial) {
        auto type = MemRefType::get(shape, v.getType(), nullptr, space);
        scratch.push_back(addWorkgroupBuffer(type, op->getLoc()));
        sharedBytesUsed += type.getNumElements() * 4;
      }
      exchangeBar = initExchangeBarrier(loc);
    } else {
      // Two sets of buffers per motif, used in turn by its successive result
      // instances: instance n + 2 rewrites a set only after every thread has
      // passed instance n + 1's barrier, so after its reads of instance n (no
      // barrier needed between unrolled instances; scratchBytesOf counts it).
      unsigned set = scratchUses++ % 2;
      if (scratchSets.size() <= set) {
        SmallVector<Value> bufs;
        for (Value v : partial) {
          auto type = MemRefType::get(shape, v.getType(), nullptr, space);
          bufs.push_back(addWorkgroupBuffer(type, op->getLoc()));
          sharedBytesUsed +=
              type.getNumElements() *
              llvm::divideCeil(v.getType().getIntOrFloatBitWidth(), 8);
        }
        scratchSets.push_back(bufs);
      }
      scratch = scratchSets[set];
    }
    auto at = [&](Value warp) -> SmallVector<Value> {
      if (lanesDiffer)
        return {warp, laneId};
      return {warp};
    };
    // cluster-push: the partials go to every CTA's scratch before the
    // barrier (lane r of the warp into CTA r when the lanes agree, else every
    // lane into each CTA in turn) and are read from the thread's own CTA
    // after it, so no CTA reads another's memory: no exit barrier.
    if (push)
      ensureClusterStarted(loc);
    // Every warp of the cluster sends each CTA one value a partial (a value
    // a lane and a partial when the lanes differ).
    if (async)
      expectExchangeBytes(
          exchangeBar,
          warps * (lanesDiffer ? lanes : 1) * 4 * int64_t(partial.size()), loc);
    {
      OpBuilder::InsertionGuard guard(b);
      if (!lanesDiffer) {
        Value speaks =
            push ? arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         laneId, constIndex(cluster))
                 : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         laneId, constIndex(0));
        auto ifOp = scf::IfOp::create(b, loc, speaks, /*withElseRegion=*/false);
        b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      }
      for (auto [v, buf] : llvm::zip(partial, scratch)) {
        if (!push) {
          memref::StoreOp::create(b, loc, v, buf, at(warpId));
        } else if (async && !lanesDiffer) {
          storeToCtaAsync(buf, at(warpId), laneId, v, exchangeBar, loc);
        } else if (async) {
          for (int64_t r = 0; r < cluster; ++r)
            storeToCtaAsync(buf, at(warpId), constIndex(r), v, exchangeBar,
                            loc);
        } else if (!lanesDiffer) {
          storeToCta(buf, at(warpId), laneId, v, loc);
        } else {
          for (int64_t r = 0; r < cluster; ++r)
            storeToCta(buf, at(warpId), constIndex(r), v, loc);
        }
      }
    }
    if (async) {
      // Phase 0 completes when every partial has landed here.
      NVVM::MBarrierTryWaitParityOp::create(
          b, loc, sharedPointer(exchangeBar, loc),
          arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)),
          arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(10000000)));
    } else {
      barrier(loc);
    }
    // In a cluster, warp w's partial is in the shared memory of the CTA
    // that runs it (rank w / (warps per CTA)). With one partial a warp, lane
    // l of every warp reads partial l there (one load of another CTA's
    // memory a lane, not one per partial) and the warp folds them in warp
    // order from its lanes (shuffle idx): the same partials in the same
    // order in every CTA, the bits of one block. With a partial a lane
    // (lanesDiffer) each lane reads its own column of every warp.
    int64_t warpsPerCta = ctaThreads / kWarpSize;
    SmallVector<Value> spread;
    if (cluster > 1 && !push && !lanesDiffer) {
      Value w = arith::MinUIOp::create(b, loc, laneId, constIndex(warps - 1));
      Value rank = arith::DivUIOp::create(b, loc, w, constIndex(warpsPerCta));
      for (Value buf : scratch)
        spread.push_back(loadFromCta(buf, {w}, rank, loc));
    }
    auto read = [&](unsigned i, int64_t w) -> Value {
      Value buf = scratch[i];
      if (cluster <= 1 || push)
        return memref::LoadOp::create(b, loc, buf, at(constIndex(w)));
      if (!spread.empty())
        return gpu::ShuffleOp::create(
                   b, loc, spread[i],
                   arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(w)),
                   arith::ConstantOp::create(b, loc,
                                             b.getI32IntegerAttr(kWarpSize)),
                   gpu::ShuffleMode::IDX)
            .getShuffleResult();
      return loadFromCta(buf, at(constIndex(w)), constIndex(w / warpsPerCta),
                         loc);
    };
    SmallVector<Value> acc;
    for (unsigned i = 0; i < scratch.size(); ++i)
      acc.push_back(read(i, 0));
    for (int64_t w = 1; w < warps; ++w) {
      SmallVector<Value> next;
      for (unsigned i = 0; i < scratch.size(); ++i)
        next.push_back(read(i, w));
      acc = combine(acc, next);
    }
    // Inside a loop the next round rewrites the scratch: wait for readers.
    if (loopDepth > 0)
      barrier(loc);
    partial = acc;
  }
  return partial;
}
