//===- KernelEmitter.cpp - emit one motif.kernel as a gpu.func ------------===//
#include "KernelEmitter.h"

#include "motif/Dialect/Motif/IR/ScalarOps.h"
#include "motif/Dialect/Motif/IR/TensorCore.h"
#include "motif/Evaluator/CombinerLaws.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/ScopeExit.h"

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::detail;

void KernelEmitter::groupBlocks(int64_t group) {
  size_t n = gridExtents.size();
  if (group <= 1 || n < 2)
    return;
  int64_t rows = gridExtents[n - 2], cols = gridExtents[n - 1];
  if (rows <= 1 || cols <= 1)
    return;
  // The block's position among the rows x cols blocks of the last two dims,
  // then group g = pos / (group cols) holds rows first = g group ..,
  // size = min(rows - first, group) of them, column-major within it.
  Value bid = cluster > 1 ? blockId
                          : Value(gpu::BlockIdOp::create(b, loc,
                                                         gpu::Dimension::x));
  auto c = [&](int64_t v) { return constIndex(v); };
  Value pos = n > 2 ? Value(arith::RemUIOp::create(b, loc, bid, c(rows * cols)))
                    : bid;
  Value per = c(group * cols);
  Value first = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, pos, per), c(group));
  Value size = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, c(rows), first), c(group));
  Value within = arith::RemUIOp::create(b, loc, pos, per);
  blockCoords[n - 2] = arith::AddIOp::create(
      b, loc, first, arith::RemUIOp::create(b, loc, within, size));
  blockCoords[n - 1] = arith::DivUIOp::create(b, loc, within, size);
}

/// Alignment (bytes) the ABI requires of every buffer (docs/abi.md).
static constexpr int64_t kBufferAlignment = 16;

KernelEmitter::KernelEmitter(KernelOp kernel, gpu::GPUFuncOp func,
                             int64_t gridSize, ArrayRef<Value> inputs,
                             ArrayRef<int64_t> gridExtents,
                             bool dynamicShared, bool reverseRereads,
                             bool groupStores,
                             int64_t cluster)
    : b(func.getContext()), loc(kernel.getLoc()), kernel(kernel), func(func),
      threads(kernel.getThreads()),
      warps(std::max<int64_t>(1, llvm::divideCeil(kernel.getThreads(),
                                                  kWarpSize))),
      lanes(std::min<int64_t>(kernel.getThreads(), kWarpSize)),
      gridExtents(gridExtents), cluster(cluster),
      ctaThreads(kernel.getThreads() / cluster) {
  this->gridSize = gridSize;
  this->dynamicShared = dynamicShared;
  this->reverseRereads = reverseRereads;
  this->groupStores = groupStores;
  b.setInsertionPointToStart(&func.getBody().front());
  ctaTid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  tid = ctaTid;
  if (cluster > 1) {
    // The clusters tile blockIdx.x (cluster dims (cluster, 1, 1)): the
    // CTA's rank in its cluster is blockIdx.x % cluster (%cluster_ctaid.x),
    // the block blockIdx.x / cluster (%clusterid.x). Read from their own
    // registers, not derived from blockIdx.x: LLVM would otherwise see one
    // value masked and shifted two ways and fold a row's constant offsets
    // into it (an `or` it can no longer prove disjoint), and its load-store
    // vectorizer then leaves some 128-bit accesses as 16-bit ones.
    Value ctaRank = gpu::ClusterBlockIdOp::create(b, loc, gpu::Dimension::x);
    blockId = gpu::ClusterIdOp::create(b, loc, gpu::Dimension::x);
    tid = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, ctaRank, constIndex(ctaThreads)),
        ctaTid);
  }
  Value c32 = constIndex(kWarpSize);
  warpId = arith::DivUIOp::create(b, loc, tid, c32);
  laneId = arith::RemUIOp::create(b, loc, tid, c32);
  if (!blockId)
    blockId = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value bid = blockId;
  // Row-major linearization of the grid dims onto blockIdx.x.
  int64_t stride = 1;
  blockCoords.resize(gridExtents.size());
  for (int i = gridExtents.size() - 1; i >= 0; --i) {
    Value q = stride == 1 ? bid
                          : Value(arith::DivUIOp::create(b, loc, bid,
                                                         constIndex(stride)));
    // The outermost grid dim takes the rest of blockIdx.x: its extent,
    // which may be the runtime row count, is never needed.
    if (i == 0) {
      blockCoords[i] = q;
      break;
    }
    blockCoords[i] =
        arith::RemUIOp::create(b, loc, q, constIndex(gridExtents[i]));
    stride *= gridExtents[i];
  }
  // Buffers are 16-byte aligned (docs/abi.md): tell LLVM, so runs of four
  // consecutive f32 accesses can become one 128-bit access.
  for (BlockArgument arg : func.getArguments())
    params.push_back(memref::AssumeAlignmentOp::create(b, loc, arg,
                                                        kBufferAlignment));
  for (auto [i, v] : llvm::enumerate(inputs)) {
    Storage s;
    s.kind = Storage::Kind::Global;
    s.memref = params[i];
    storage[v] = s;
  }
}

void KernelEmitter::barrier(Location at) {
  if (cluster <= 1) {
    gpu::BarrierOp::create(b, at);
    return;
  }
  // Arrives and waits alternate: the start barrier's wait comes first.
  ensureClusterStarted(at);
  clusterBarriers = true;
  NVVM::ClusterArriveOp::create(b, at, /*aligned=*/b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, at, /*aligned=*/b.getUnitAttr());
}

void KernelEmitter::ensureClusterStarted(Location at) {
  if (!startArrive || clusterStarted)
    return;
  clusterStarted = true;
  // Before the top-level op that holds the insertion point (a wait inside a
  // loop would wait once a trip), or here at the top level.
  Block *block = b.getInsertionBlock();
  Operation *top = nullptr;
  for (Operation *p = block->getParentOp(); p && p != func.getOperation();
       p = p->getParentOp())
    top = p;
  OpBuilder::InsertionGuard guard(b);
  if (top)
    b.setInsertionPoint(top);
  NVVM::ClusterWaitOp::create(b, at, /*aligned=*/b.getUnitAttr());
}

Value KernelEmitter::ctaAddress(Value buf, ValueRange idx, Value rank,
                                Location at) {
  auto type = cast<MemRefType>(buf.getType());
  // Row-major element offset (the scratch buffers have identity layouts).
  Value offset = constIndex(0);
  for (auto [d, i] : llvm::enumerate(idx))
    offset = arith::AddIOp::create(
        b, at, arith::MulIOp::create(b, at, offset,
                                     constIndex(type.getDimSize(d))),
        i);
  int64_t bytes =
      llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
  Value address = arith::AddIOp::create(
      b, at, memref::ExtractAlignedPointerAsIndexOp::create(b, at, buf),
      arith::MulIOp::create(b, at, offset, constIndex(bytes)));
  MLIRContext *ctx = b.getContext();
  Value local = LLVM::IntToPtrOp::create(
      b, at, LLVM::LLVMPointerType::get(ctx, /*shared=*/3),
      arith::IndexCastUIOp::create(b, at, b.getI64Type(), address)
          .getResult());
  return NVVM::MapaOp::create(
      b, at, LLVM::LLVMPointerType::get(ctx, /*shared_cluster=*/7), local,
      arith::IndexCastUIOp::create(b, at, b.getI32Type(), rank).getResult());
}

Value KernelEmitter::loadFromCta(Value buf, ValueRange idx, Value rank,
                                 Location at) {
  auto type = cast<MemRefType>(buf.getType());
  auto load = LLVM::LoadOp::create(b, at, type.getElementType(),
                                   ctaAddress(buf, idx, rank, at));
  lastClusterRead = load;
  return load;
}

void KernelEmitter::storeToCta(Value buf, ValueRange idx, Value rank,
                               Value value, Location at) {
  LLVM::StoreOp::create(b, at, value, ctaAddress(buf, idx, rank, at));
}

Value KernelEmitter::sharedPointer(Value buf, Location at) {
  return LLVM::IntToPtrOp::create(
             b, at, LLVM::LLVMPointerType::get(b.getContext(), /*shared=*/3),
             arith::IndexCastUIOp::create(
                 b, at, b.getI64Type(),
                 memref::ExtractAlignedPointerAsIndexOp::create(b, at, buf))
                 .getResult())
      .getResult();
}

Operation *KernelEmitter::ctaThreadZeroBody(Location at) {
  // gpu.thread_id: the thread's number in its own CTA (`tid` numbers the
  // threads of the whole cluster).
  Value first = arith::CmpIOp::create(
      b, at, arith::CmpIPredicate::eq,
      gpu::ThreadIdOp::create(b, at, gpu::Dimension::x), constIndex(0));
  auto ifOp = scf::IfOp::create(b, at, first, /*withElseRegion=*/false);
  return ifOp.thenBlock()->getTerminator();
}

Value KernelEmitter::initExchangeBarrier(Location at) {
  auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                          gpu::AddressSpace::Workgroup);
  Value bar = addWorkgroupBuffer(
      MemRefType::get({1}, b.getI64Type(), nullptr, space), at, 8);
  // Its 8 bytes and at most 7 of padding before it (the static estimate
  // decides static against dynamic shared memory; the dynamic layout is
  // exact).
  sharedBytesUsed += 8 + 7;
  OpBuilder::InsertionGuard guard(b);
  if (!mbarrierInits) {
    // Before the start barrier's arrive: the fence (a release) and the
    // barrier publish the initialized mbarriers to the cluster before any
    // CTA's st.async reaches them. Thread 0 of each CTA initializes them.
    b.setInsertionPoint(startArrive);
    b.setInsertionPoint(ctaThreadZeroBody(at));
    mbarrierInits = NVVM::FenceMbarrierInitOp::create(b, at);
  }
  b.setInsertionPoint(mbarrierInits);
  NVVM::MBarrierInitOp::create(
      b, at, sharedPointer(bar, at),
      arith::ConstantOp::create(b, at, b.getI32IntegerAttr(1)), Value());
  return bar;
}

void KernelEmitter::expectExchangeBytes(Value bar, int64_t bytes,
                                        Location at) {
  // Thread 0's arrival, the one its phase waits for, with the bytes it
  // expects: the phase completes when every partial has landed. After the
  // start barrier, not with the init: a partial may land first (the
  // tx-count goes below zero until this arrive), and ptxas issues an init
  // on the uniform datapath, for the whole warp, which racecheck would see
  // unordered against thread 0's arrive without a barrier between them.
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ctaThreadZeroBody(at));
  NVVM::MBarrierArriveExpectTxOp::create(
      b, at, Type(), sharedPointer(bar, at),
      arith::ConstantOp::create(b, at, b.getI32IntegerAttr(bytes)),
      NVVM::MemScopeKind::CTA, /*relaxed=*/false, Value());
}

void KernelEmitter::storeToCtaAsync(Value buf, ValueRange idx, Value rank,
                                    Value value, Value bar, Location at) {
  Value raw = value.getType().isInteger(32)
                  ? value
                  : Value(arith::BitcastOp::create(b, at, b.getI32Type(),
                                                   value));
  Value to = ctaAddress(buf, idx, rank, at);
  Value counter = ctaAddress(bar, {constIndex(0)}, rank, at);
  LLVM::InlineAsmOp::create(
      b, at, TypeRange(), ValueRange{to, raw, counter},
      b.getStringAttr("st.async.shared::cluster.mbarrier::complete_tx::bytes."
                      "b32 [$0], $1, [$2];"),
      b.getStringAttr("l,r,l,~{memory}"), /*has_side_effects=*/b.getUnitAttr(),
      UnitAttr(), LLVM::TailCallKindAttr(), LLVM::AsmDialectAttr(),
      ArrayAttr());
}

Value KernelEmitter::constIndex(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value KernelEmitter::constF32(double v) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
}

SmallVector<DimPlan> KernelEmitter::planDims(const MotifSchedule &schedule) {
  ComputeOpInterface op = schedule.getOp();
  // Dims that index a register value are unrolled (its slots are SSA), and
  // short tile runs, so that consecutive elements become one wide access.
  SmallVector<bool> registerOperands;
  for (Value v : op->getOperands()) {
    auto it = storage.find(v);
    // A recomputed value is read as its map reads its operands: slot by
    // slot (unrolled) where they are registers; unrolled alike in any case.
    registerOperands.push_back(
        it != storage.end() && (it->second.kind == Storage::Kind::Registers ||
                                it->second.kind == Storage::Kind::Recompute));
  }
  bool registerResult = llvm::any_of(op->getUsers(), [](Operation *user) {
    auto mat = dyn_cast<MaterializeOp>(user);
    return mat && mat.getResidency() == Residency::Register;
  });
  SmallVector<bool> unrolled =
      unrolledDimsOf(schedule, registerOperands, registerResult);
  SmallVector<DimPlan> plans;
  for (auto [d, dim] : llvm::enumerate(schedule.getDims())) {
    DimPlan plan;
    static_cast<DimSchedule &>(plan) = dim;
    plan.unrolled = unrolled[d];
    plans.push_back(plan);
  }
  return plans;
}

void KernelEmitter::markRereads(ComputeOpInterface op,
                                MutableArrayRef<DimPlan> plans) {
  if (!reverseRereads || isa<ReduceOp, ContractOp>(op.getOperation()))
    return; // a reduction's fold order is its value
  for (auto [i, v] : llvm::enumerate(op->getOperands())) {
    auto it = storage.find(v);
    if (it == storage.end() || it->second.kind != Storage::Kind::Global ||
        !globalReads.contains(v))
      continue;
    for (int64_t d : op.getOperandIterationDims(i))
      if (!plans[d].unrolled && !plans[d].isGrid())
        plans[d].reversed = true;
  }
}

Value KernelEmitter::tileSelf(const DimPlan &plan, unsigned dim) {
  Value self;
  auto add = [&](Value v) {
    self = self ? Value(arith::AddIOp::create(b, loc, self, v)) : v;
  };
  auto scaled = [&](Value v, int64_t stride) {
    return stride == 1 ? v
                       : Value(arith::MulIOp::create(b, loc, v,
                                                     constIndex(stride)));
  };
  for (const SubLevel &l : plan.nest) {
    if (l.level == Level::Block) {
      unsigned gridDim = 0;
      for (unsigned e = 0; e < dim; ++e)
        gridDim += currentPlans[e].isGrid();
      add(scaled(blockCoords[gridDim], l.stride));
    } else if (l.level == Level::Thread && l.size > 1) {
      Value digit = l.digitStride == 1
                        ? tid
                        : Value(arith::DivUIOp::create(
                              b, loc, tid, constIndex(l.digitStride)));
      if (l.digitStride * l.size < threads)
        digit = arith::RemUIOp::create(b, loc, digit, constIndex(l.size));
      add(scaled(digit, l.stride));
    }
  }
  return self ? self : constIndex(0);
}

Value KernelEmitter::indexOf(const DimPlan &plan, unsigned dim, Value k) {
  if (plan.isTiled()) {
    // self (block and thread digits) + the seq digits of instance k.
    Value self = tileSelf(plan, dim);
    if (auto c = getConstantIntValue(k)) {
      int64_t offset = plan.seqOffset(*c);
      return offset ? Value(arith::AddIOp::create(b, loc, self,
                                                  constIndex(offset)))
                    : self;
    }
    Value index = self;
    for (const SubLevel &l : plan.nest) {
      if (l.level != Level::Seq || l.size == 1)
        continue;
      Value digit = l.digitStride == 1
                        ? k
                        : Value(arith::DivUIOp::create(
                              b, loc, k, constIndex(l.digitStride)));
      if (l.digitStride * l.size < plan.count)
        digit = arith::RemUIOp::create(b, loc, digit, constIndex(l.size));
      Value term = l.stride == 1 ? digit
                                 : Value(arith::MulIOp::create(
                                       b, loc, digit, constIndex(l.stride)));
      index = arith::AddIOp::create(b, loc, index, term);
    }
    return index;
  }
  switch (plan.level) {
  case Level::Block:
  case Level::BlockWarp:
    return k; // forEachInstance places grid dims itself
  case Level::Seq:
    return k;
  case Level::Thread:
  case Level::Warp:
  case Level::Lane: {
    if (plan.vector > 1) {
      // Constant instance numbers only: loops step over runs (runIndex).
      auto c = getConstantIntValue(k);
      assert(c && "vectorized dims are unrolled or run-looped");
      Value run = constIndex(*c / plan.vector);
      return runIndex(plan, run, *c % plan.vector);
    }
    Value base = plan.level == Level::Thread ? tid
                 : plan.level == Level::Warp ? warpId
                                             : laneId;
    if (plan.count == 1)
      return base;
    Value scaled =
        arith::MulIOp::create(b, loc, k, constIndex(plan.parallel));
    return arith::AddIOp::create(b, loc, scaled, base);
  }
  }
  llvm_unreachable("unknown level");
}

Value KernelEmitter::runIndex(const DimPlan &plan, Value run, int64_t v) {
  Value self = plan.level == Level::Lane ? laneId : tid;
  Value base = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, run, constIndex(plan.parallel)),
      self);
  Value start =
      arith::MulIOp::create(b, loc, base, constIndex(plan.vector));
  if (v == 0)
    return start;
  return arith::AddIOp::create(b, loc, start, constIndex(v));
}

void KernelEmitter::setIndex(Instance &inst, const DimPlan &plan, int64_t d,
                             Value index, Value outerActive) {
  inst.index[d] = index;
  if (!plan.partial)
    return;
  // Instances past the extent are inactive: loads clamp, stores and
  // reductions skip them.
  Value inBounds = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         index, constIndex(plan.extent));
  inst.active = outerActive
                    ? Value(arith::AndIOp::create(b, loc, outerActive, inBounds))
                    : inBounds;
}

Value KernelEmitter::inTile(Value index, int64_t tile) {
  if (!tile)
    return index;
  return arith::RemUIOp::create(b, loc, index, constIndex(tile));
}

Value KernelEmitter::guardedIndex(Value index, int64_t extent, bool partial) {
  if (!partial)
    return index;
  return arith::MinUIOp::create(b, loc, index, constIndex(extent - 1));
}

LogicalResult KernelEmitter::forEachInstance(
    ComputeOpInterface op, ArrayRef<DimPlan> plans, ArrayRef<int64_t> dims,
    Instance &inst, const std::function<LogicalResult(Instance &)> &body) {
  if (dims.empty())
    return body(inst);
  int64_t d = dims.front();
  const DimPlan &plan = plans[d];
  Value savedActive = inst.active;
  auto withIndex = [&](Value index) {
    setIndex(inst, plan, d, index, savedActive);
  };
  if (!plan.isTiled() &&
      (plan.level == Level::Block || plan.level == Level::BlockWarp)) {
    unsigned gridDim = 0;
    for (int64_t e = 0; e < d; ++e)
      gridDim += plans[e].isGrid();
    Value index = blockCoords[gridDim];
    if (plan.level == Level::BlockWarp)
      index = arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, index, constIndex(warps)),
          warpId);
    setIndex(inst, plan, d, index, savedActive);
    inst.k[d] = 0;
    LogicalResult result =
        forEachInstance(op, plans, dims.drop_front(), inst, body);
    inst.active = savedActive;
    return result;
  }
  if (plan.unrolled) {
    for (int64_t k = 0; k < plan.count; ++k) {
      withIndex(indexOf(plan, d, constIndex(k)));
      inst.k[d] = k;
      if (failed(forEachInstance(op, plans, dims.drop_front(), inst, body)))
        return failure();
      inst.active = savedActive;
    }
    return success();
  }
  int64_t runs = plan.count / plan.vector;
  auto loop = scf::ForOp::create(b, loc, constIndex(0), constIndex(runs),
                                 constIndex(1));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  ++loopDepth;
  // Reversed: run n-1-k at iteration k (whole runs, so a run's elements stay
  // one wide access).
  Value run = loop.getInductionVar();
  if (plan.reversed && runs > 1)
    run = arith::SubIOp::create(b, loc, constIndex(runs - 1), run);
  LogicalResult result = success();
  for (int64_t v = 0; v < plan.vector && succeeded(result); ++v) {
    withIndex(plan.vector > 1 ? runIndex(plan, run, v)
                              : indexOf(plan, d, run));
    inst.k[d] = -1;
    result = forEachInstance(op, plans, dims.drop_front(), inst, body);
    inst.active = savedActive;
  }
  --loopDepth;
  return result;
}

FailureOr<SmallVector<Value>> KernelEmitter::accumulate(
    ComputeOpInterface op, ArrayRef<DimPlan> plans, ArrayRef<int64_t> dims,
    Instance &inst, SmallVector<Value> accs,
    const std::function<FailureOr<SmallVector<Value>>(Instance &, ValueRange)>
        &step) {
  if (dims.empty()) {
    FailureOr<SmallVector<Value>> next = step(inst, accs);
    if (failed(next))
      return failure();
    if (inst.active)
      for (auto [n, old] : llvm::zip(*next, accs))
        n = arith::SelectOp::create(b, loc, inst.active, n, old);
    return next;
  }
  int64_t d = dims.front();
  const DimPlan &plan = plans[d];
  if (plan.isGrid())
    return op->emitOpError() << "reduces over a dim mapped to '"
                             << stringifyLevel(plan.level)
                             << "': a reduction across blocks needs a kernel "
                                "boundary (not lowered)";
  Value savedActive = inst.active;
  auto withIndex = [&](Value index) {
    setIndex(inst, plan, d, index, savedActive);
  };
  if (plan.unrolled) {
    for (int64_t k = 0; k < plan.count; ++k) {
      withIndex(indexOf(plan, d, constIndex(k)));
      inst.k[d] = k;
      FailureOr<SmallVector<Value>> next =
          accumulate(op, plans, dims.drop_front(), inst, accs, step);
      inst.active = savedActive;
      if (failed(next))
        return failure();
      accs = *next;
    }
    return accs;
  }
  int64_t runs = plan.count / plan.vector;
  auto loop = scf::ForOp::create(b, loc, constIndex(0), constIndex(runs),
                                 constIndex(1), accs);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ++loopDepth;
    SmallVector<Value> carried(loop.getRegionIterArgs());
    for (int64_t v = 0; v < plan.vector; ++v) {
      withIndex(plan.vector > 1
                    ? runIndex(plan, loop.getInductionVar(), v)
                    : indexOf(plan, d, loop.getInductionVar()));
      inst.k[d] = -1;
      FailureOr<SmallVector<Value>> next =
          accumulate(op, plans, dims.drop_front(), inst, carried, step);
      inst.active = savedActive;
      if (failed(next)) {
        --loopDepth;
        return failure();
      }
      carried = *next;
    }
    --loopDepth;
    scf::YieldOp::create(b, loc, carried);
  }
  return SmallVector<Value>(loop.getResults());
}

Value KernelEmitter::opaqueCopy(Value v) {
  Type type = v.getType();
  unsigned bits = type.getIntOrFloatBitWidth();
  if (bits != 16 && bits != 32)
    return v;
  Type bitsType = b.getIntegerType(bits);
  Value raw = type == bitsType ? v
                               : Value(arith::BitcastOp::create(b, loc,
                                                                bitsType, v));
  // No side effects (loads and stores move past it, and merge into wide
  // accesses), but an immediate of its own: no two copies are the same
  // expression, so none is merged with another.
  Value id = arith::ConstantIntOp::create(b, loc, opaqueCopies++, 32);
  auto copy = LLVM::InlineAsmOp::create(
      b, loc, bitsType, ValueRange{raw, id},
      b.getStringAttr(bits == 16 ? "mov.b16 $0, $1; // recompute $2"
                                 : "mov.b32 $0, $1; // recompute $2"),
      b.getStringAttr(bits == 16 ? "=h,h,n" : "=r,r,n"), UnitAttr(),
      UnitAttr(), LLVM::TailCallKindAttr(), LLVM::AsmDialectAttr(),
      ArrayAttr());
  Value out = copy.getResult(0);
  return type == bitsType ? out
                          : Value(arith::BitcastOp::create(b, loc, type, out));
}

FailureOr<Value> KernelEmitter::loadOperand(ComputeOpInterface op, unsigned i,
                                            const Instance &inst) {
  Value v = op->getOperand(i);
  auto it = storage.find(v);
  if (it == storage.end())
    return op->emitOpError() << "operand #" << i
                             << " has no storage in the lowering (internal)";
  Storage &s = it->second;
  SmallVector<int64_t> dims = op.getOperandIterationDims(i);
  SmallVector<int64_t> extents = op.getIterationExtents();
  auto index = [&](int64_t d) {
    // Out-of-bounds instances are inactive; clamp so they load safely.
    return guardedIndex(inst.index[d], extents[d], currentPlans[d].partial);
  };
  switch (s.kind) {
  case Storage::Kind::Global: {
    SmallVector<Value> idx;
    for (int64_t d : dims)
      idx.push_back(index(d));
    return Value(memref::LoadOp::create(b, loc, s.memref, idx));
  }
  case Storage::Kind::Shared: {
    // The producer's layout: block dims dropped, block.warp dims one row per
    // warp, the others indexed by this consumer's index of that dim.
    SmallVector<Value> idx;
    for (auto [a, kd] : llvm::enumerate(llvm::zip(s.shared.kinds, dims))) {
      auto [kind, d] = kd;
      if (kind == SharedLayout::DimKind::PerWarp)
        idx.push_back(warpId);
      else if (kind == SharedLayout::DimKind::Indexed)
        idx.push_back(inTile(index(d), s.shared.tiles[a]));
    }
    return Value(memref::LoadOp::create(b, loc, s.memref, idx));
  }
  case Storage::Kind::Constant:
    return Value(arith::ConstantOp::create(b, loc, s.constant));
  case Storage::Kind::Recompute: {
    // The map's instance at the element this reader reads: its iteration
    // dims are the value's dims, walked as this reader walks them (the
    // residency check: same thread, same instance numbers).
    ComputeOpInterface producer = s.recomputed;
    Instance at;
    SmallVector<DimPlan> plans;
    for (int64_t d : dims) {
      at.index.push_back(index(d));
      at.k.push_back(inst.k[d]);
      plans.push_back(currentPlans[d]);
    }
    at.active = inst.active;
    SmallVector<DimPlan> saved = std::exchange(currentPlans, plans);
    bool outer = std::exchange(recomputing, true);
    FailureOr<SmallVector<Value>> v = emitElementwise(*this, producer, at);
    recomputing = outer;
    currentPlans = std::move(saved);
    if (failed(v))
      return failure();
    return v->front();
  }
  case Storage::Kind::Registers: {
    // Slot k of every value dim, where this thread computed slot k: the
    // residency check made sure both motifs walk that dim alike.
    SmallVector<int64_t> k;
    for (int64_t d : dims) {
      if (inst.k[d] < 0)
        return op->emitOpError() << "internal: register operand #" << i
                                 << " indexed by a loop dim";
      k.push_back(inst.k[d]);
    }
    int64_t slot = s.registers.slotOf(k);
    if (slot >= static_cast<int64_t>(s.slots.size()) || !s.slots[slot])
      return op->emitOpError() << "reads register slot " << slot
                               << " of operand #" << i
                               << " before it is computed (internal)";
    if (s.tail && slot >= s.tailStart)
      return Value(
          memref::LoadOp::create(b, loc, s.tail, tailIndex(s, slot)));
    // Read to recompute a value: an opaque copy, so that LLVM does not
    // merge this evaluation with an earlier one of the same slot (which
    // would keep every result live from the first reader to the last: the
    // registers the recompute gives back). A value of one slot (a row's
    // statistic) varies with no instance: the copies of the slots that do
    // keep the evaluations apart, and its reads stay plain (an asm between
    // the loads of a tail would split their 128-bit accesses).
    if (recomputing && s.slots.size() > 1)
      return opaqueCopy(s.slots[slot]);
    return s.slots[slot];
  }
  }
  llvm_unreachable("unknown storage");
}

FailureOr<Value> KernelEmitter::loadAccumulated(ComputeOpInterface op,
                                                unsigned i,
                                                const Instance &inst) {
  FailureOr<Value> v = loadOperand(op, i, inst);
  if (failed(v) || v->getType().isF32())
    return v;
  return Value(arith::ExtFOp::create(b, loc, b.getF32Type(), *v));
}

Value KernelEmitter::ownerPredicate(ComputeOpInterface) {
  // The schedule model names the one thread that stores each element.
  Value zero = constIndex(0);
  Value pred;
  auto conj = [&](Value c) {
    pred = pred ? Value(arith::AndIOp::create(b, loc, pred, c)) : c;
  };
  if (schedule().ownerNeedsLaneZero())
    conj(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, laneId, zero));
  if (schedule().ownerNeedsWarpZero())
    conj(arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warpId, zero));
  return pred;
}

SmallVector<Value, 4>
KernelEmitter::addStagedTileBuffers(ArrayRef<OnlineStagedTile> tiles,
                                    Type element, Location at) {
  auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                          gpu::AddressSpace::Workgroup);
  SmallVector<Value, 4> bufs;
  for (const OnlineStagedTile &t : tiles) {
    SmallVector<int64_t> shape;
    if (t.stages > 1)
      shape.push_back(t.stages);
    shape.push_back(t.rows);
    shape.push_back(t.rowElements);
    bufs.push_back(addWorkgroupBuffer(
        MemRefType::get(shape, element, nullptr, space), at));
    sharedBytesUsed += t.bytes();
  }
  return bufs;
}

Value KernelEmitter::addWorkgroupBuffer(MemRefType type, Location at,
                                        int64_t alignment) {
  if (dynamicShared) {
    // A view at the next 16-byte boundary of the dynamic shared memory,
    // placed at the top of the body so it dominates every use.
    OpBuilder top(func.getContext());
    Block &entry = func.getBody().front();
    if (!dynamicSharedBase) {
      top.setInsertionPointToStart(&entry);
      auto bytesType = MemRefType::get(
          {ShapedType::kDynamic}, top.getI8Type(), nullptr,
          gpu::AddressSpaceAttr::get(func.getContext(),
                                     gpu::AddressSpace::Workgroup));
      auto base = gpu::DynamicSharedMemoryOp::create(top, at, bytesType);
      dynamicSharedBase = base;
      lastSharedView = base;
    }
    top.setInsertionPointAfter(lastSharedView);
    // Up to a 128-byte line the alignment only spreads accesses over the
    // banks (the dynamic base is 16-byte aligned by PTX, on a line in
    // practice): the offset is rounded, not the address.
    int64_t offset = llvm::alignTo(
        dynamicSharedEnd, alignment <= kSharedLineAlignment
                              ? alignment
                              : SharedLayout::kAlignment);
    int64_t bytes =
        type.getNumElements() *
        llvm::divideCeil(type.getElementType().getIntOrFloatBitWidth(), 8);
    Value shift = arith::ConstantIndexOp::create(top, at, offset);
    if (alignment > kSharedLineAlignment) {
      // The dynamic base is only 16-byte aligned: round the view's address
      // up at run time, within `alignment - 16` bytes reserved before it.
      Value base = memref::ExtractAlignedPointerAsIndexOp::create(
          top, at, dynamicSharedBase);
      Value address = arith::AddIOp::create(top, at, base, shift);
      Value mask = arith::ConstantIndexOp::create(top, at, alignment - 1);
      Value rounded = arith::AndIOp::create(
          top, at, arith::AddIOp::create(top, at, address, mask),
          arith::ConstantIndexOp::create(top, at, -alignment));
      shift = arith::SubIOp::create(top, at, rounded, base);
      bytes += alignment - SharedLayout::kAlignment;
    }
    auto view = memref::ViewOp::create(top, at, type, dynamicSharedBase, shift,
                                       ValueRange{});
    lastSharedView = view;
    dynamicSharedEnd = offset + bytes;
    return view;
  }
  Value buffer = func.addWorkgroupAttribution(type, at);
  func.setWorkgroupAttributionAttr(func.getNumWorkgroupAttributions() - 1,
                                   "llvm.align",
                                   b.getI64IntegerAttr(alignment));
  return buffer;
}

/// Every materialization of `v`, through chains of materializations (a
/// register value also yielded in global memory is stored by its producer).
static void collectMaterializations(Value v, SmallVectorImpl<MaterializeOp> &out) {
  for (Operation *user : v.getUsers())
    if (auto mat = dyn_cast<MaterializeOp>(user)) {
      out.push_back(mat);
      collectMaterializations(mat.getResult(), out);
    }
}

LogicalResult KernelEmitter::prepareDestinations(ComputeOpInterface op,
                                                 ArrayRef<DimPlan> plans) {
  Operation *operation = op.getOperation();
  for (Value r : operation->getResults()) {
    auto type = cast<RankedTensorType>(r.getType());
    for (Operation *user : r.getUsers())
      if (!isa<MaterializeOp>(user))
        return user->emitOpError()
               << "uses a motif result directly; the lowering expects a "
                  "motif.materialize";
    SmallVector<MaterializeOp> mats;
    collectMaterializations(r, mats);
    for (MaterializeOp mat : mats) {
      Storage s;
      switch (mat.getResidency()) {
      case Residency::Register: {
        if (isRecomputed(mat)) {
          s.kind = Storage::Kind::Recompute;
          s.recomputed = op;
          break;
        }
        if (TypedAttr c = constantOf(op)) {
          s.kind = Storage::Kind::Constant;
          s.constant = c;
          break;
        }
        s.kind = Storage::Kind::Registers;
        s.registers = registerLayoutOf(schedule());
        if (s.registers.slots > kMaxRegisterSlots)
          return mat.emitOpError()
                 << "keeps " << s.registers.slots
                 << " elements per thread in registers; the lowering unrolls "
                    "at most "
                 << kMaxRegisterSlots
                 << " (map more dims to threads, or use 'shared')";
        s.slots.assign(s.registers.slots, Value());
        if (std::optional<int64_t> tail = mat.getSharedTail()) {
          Type element = type.getElementType();
          s.tailLayout = tailLayoutOf(
              s.registers.slots, *tail, ctaThreads,
              llvm::divideCeil(element.getIntOrFloatBitWidth(), 8));
          s.tailStart = s.tailLayout.from;
          assignTail(mat, s, element, mat.getLoc());
        }
        break;
      }
      case Residency::Shared: {
        s.kind = Storage::Kind::Shared;
        s.shared = sharedLayoutOf(schedule(), type.getElementType());
        auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                                gpu::AddressSpace::Workgroup);
        auto memrefType = MemRefType::get(s.shared.paddedShape(),
                                          type.getElementType(), nullptr, space);
        s.memref = addWorkgroupBuffer(memrefType, mat.getLoc());
        sharedBytesUsed += s.shared.bytes;
        break;
      }
      case Residency::Global: {
        s.kind = Storage::Kind::Global;
        YieldOp yield = kernel.getYield();
        unsigned inputs = func.getNumArguments() - kernel.getNumResults();
        for (OpOperand &use : mat.getResult().getUses())
          if (use.getOwner() == yield)
            s.memref = params[inputs + use.getOperandNumber()];
        if (!s.memref)
          return mat.emitOpError() << "in global is not yielded (internal)";
        break;
      }
      }
      storage[mat.getResult()] = std::move(s);
    }
  }
  (void)plans;
  return success();
}

SmallVector<Value> KernelEmitter::tailIndex(const Storage &s, int64_t slot) {
  int64_t t = slot - s.tailLayout.from, w = s.tailLayout.width;
  // Each CTA holds the tails of its own threads.
  return {constIndex(t / w), ctaTid, constIndex(t % w)};
}

/// The motif of the kernel that reads `v` last (null: a reader that is not
/// a motif, e.g. another materialization).
static Operation *lastReaderOf(Value v) {
  Operation *last = nullptr;
  // A map only recomputed is read where its value is (effectiveReadersOf).
  SmallVector<Operation *> readers;
  effectiveReadersOf(v, readers);
  for (Operation *u : readers) {
    if (!isa<ComputeOpInterface>(u))
      return nullptr;
    if (!last || last->isBeforeInBlock(u))
      last = u;
  }
  return last;
}

void KernelEmitter::assignTail(MaterializeOp mat, Storage &s, Type element,
                               Location at) {
  auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                          gpu::AddressSpace::Workgroup);
  auto type =
      MemRefType::get(s.tailLayout.shape(), element, nullptr, space);
  for (auto it = freeTails.begin(); it != freeTails.end(); ++it)
    if (it->getType() == type) {
      s.tail = *it;
      freeTails.erase(it);
      return;
    }
  // A map reading an operand in its own register layout for the last time:
  // instance by instance it reads slot s of the operand before it writes
  // slot s of its result, so the result may keep its tail where the
  // operand's was (the operand's layout, a tail starting no earlier;
  // tailDonorOf, which the residency report asks too).
  if (Value v = tailDonorOf(mat)) {
    auto it = storage.find(v);
    if (it != storage.end() && it->second.tail &&
        it->second.tailLayout.from <= s.tailStart &&
        !llvm::is_contained(takenTails, it->second.tail)) {
      takenTails.push_back(it->second.tail);
      s.tail = it->second.tail;
      s.tailLayout = it->second.tailLayout;
      return;
    }
  }
  s.tail = addWorkgroupBuffer(type, at);
  sharedBytesUsed += s.tailLayout.bytes();
}

void KernelEmitter::releaseTails(ComputeOpInterface op) {
  // The operands, and through a recomputed operand its map's operands.
  SmallVector<Value> read(op->getOperands());
  for (size_t i = 0; i < read.size(); ++i) {
    auto it = storage.find(read[i]);
    if (it != storage.end() && it->second.kind == Storage::Kind::Recompute)
      for (Value v : it->second.recomputed->getOperands())
        if (!llvm::is_contained(read, v))
          read.push_back(v);
  }
  for (Value v : read) {
    auto it = storage.find(v);
    if (it == storage.end() || !it->second.tail ||
        lastReaderOf(v) != op.getOperation() ||
        llvm::is_contained(takenTails, it->second.tail) ||
        llvm::is_contained(freeTails, it->second.tail))
      continue;
    freeTails.push_back(it->second.tail);
  }
  takenTails.clear();
}

LogicalResult KernelEmitter::storeResults(ComputeOpInterface op,
                                          ArrayRef<DimPlan> plans,
                                          const Instance &inst,
                                          ValueRange values, Value owner) {
  SmallVector<int64_t> resultDims = op.getResultIterationDims();
  Value cond = owner;
  if (inst.active)
    cond = cond ? Value(arith::AndIOp::create(b, loc, cond, inst.active))
                : inst.active;
  for (auto [r, value] : llvm::zip(op->getResults(), values)) {
    SmallVector<MaterializeOp> mats;
    collectMaterializations(r, mats);
    for (MaterializeOp mat : mats) {
      Storage &s = storage[mat.getResult()];
      if (s.kind == Storage::Kind::Constant ||
          s.kind == Storage::Kind::Recompute)
        continue; // every reader makes the value itself
      if (s.kind == Storage::Kind::Registers) {
        SmallVector<int64_t> k;
        for (int64_t d : resultDims)
          k.push_back(inst.k[d]);
        int64_t slot = s.registers.slotOf(k);
        s.slots[slot] = value;
        if (s.tail && slot >= s.tailStart)
          memref::StoreOp::create(b, loc, value, s.tail, tailIndex(s, slot));
        continue;
      }
      SmallVector<Value> idx;
      if (s.kind == Storage::Kind::Global) {
        for (int64_t d : resultDims)
          idx.push_back(inst.index[d]);
      } else {
        for (auto [a, kd] :
             llvm::enumerate(llvm::zip(s.shared.kinds, resultDims))) {
          auto [kind, d] = kd;
          if (kind == SharedLayout::DimKind::PerWarp)
            idx.push_back(warpId);
          else if (kind == SharedLayout::DimKind::Indexed)
            idx.push_back(inTile(inst.index[d], s.shared.tiles[a]));
        }
      }
      if (!cond) {
        if (pendingStores && s.kind == Storage::Kind::Global)
          pendingStores->push_back({value, s.memref, idx});
        else
          memref::StoreOp::create(b, loc, value, s.memref, idx);
        continue;
      }
      auto ifOp = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      memref::StoreOp::create(b, loc, value, s.memref, idx);
    }
  }
  return success();
}

LogicalResult KernelEmitter::emitOp(ComputeOpInterface op) {
  if (auto oc = dyn_cast<OnlineContractOp>(op.getOperation()))
    return emitOnlineContraction(oc);
  currentSchedule.emplace(op, threads);
  scratchSets.clear();
  scratchUses = 0;
  SmallVector<DimPlan> plans = planDims(*currentSchedule);
  bool reduction = isa<ReduceOp, ContractOp>(op.getOperation());
  bool tensorCores = runsOnTensorCores(op.getOperation());
  bool blocked = tensorCores || isRegisterBlocked(*currentSchedule);
  if (!blocked)
    markRereads(op, plans);
  currentPlans = plans;
  // What this motif reads from global memory, for the motifs after it.
  llvm::scope_exit recordReads([&] {
    for (Value v : op->getOperands()) {
      auto it = storage.find(v);
      if (it != storage.end() && it->second.kind == Storage::Kind::Global)
        globalReads.insert(v);
    }
  });
  if (failed(prepareDestinations(op, plans)))
    return failure();
  // Its readers compute every element they read (register recompute).
  if (onlyRecomputed(op.getOperation()))
    return success();
  Value owner = ownerPredicate(op);
  Instance inst;
  size_t n = plans.size();
  inst.index.assign(n, Value());
  inst.k.assign(n, -1);
  if (blocked) {
    if (failed(tensorCores ? emitTensorCoreContraction(op, plans, owner)
                           : emitBlockedContraction(op, plans, owner)))
      return failure();
    if (llvm::any_of(op->getResults(), [](Value r) {
          SmallVector<MaterializeOp> mats;
          collectMaterializations(r, mats);
          return llvm::any_of(mats, [](MaterializeOp m) {
            return m.getResidency() == Residency::Shared;
          });
        }))
      gpu::BarrierOp::create(b, loc);
    return success();
  }
  // LLVM's load-store vectorizer merges a map's stores into 128-bit ones
  // only within one basic block and across no call that may touch memory.
  // Two things put those between the stores of consecutive elements: a body
  // whose math lowers to a branch (GELU's erf: libdevice's erff), and the
  // opaque inline-asm copies through which a map that recomputes a value
  // (rule 6) reads register slots. With group-stores a map's unmasked global
  // stores wait until 16 bytes of them are pending and are then emitted
  // together, after everything that computes them -- where its instances are
  // straight-line code: every result dim unrolled or the block's.
  SmallVector<PendingStore> pending;
  auto flush = [&] {
    for (PendingStore &st : pending)
      memref::StoreOp::create(b, loc, st.value, st.memref, st.index);
    pending.clear();
  };
  bool straightLine = llvm::all_of(op.getResultIterationDims(), [&](int64_t d) {
    return plans[d].unrolled ||
           (!plans[d].isTiled() && (plans[d].level == Level::Block ||
                                    plans[d].level == Level::BlockWarp));
  });
  bool group = groupStores && !reduction && straightLine;
  pendingStores = group ? &pending : nullptr;
  // A reduction's result instances in straight-line code exchange their
  // partials across warps behind one barrier (batchedExchangesOf): every
  // instance's partial first, then the exchange, then the stores.
  bool batched = reduction && straightLine && cluster <= 1 &&
                 batchedExchangesOf(*currentSchedule) > 0;
  SmallVector<Instance> batchedInsts;
  SmallVector<SmallVector<Value>> batchedPartials;
  ReductionPartial last;
  LogicalResult result = forEachInstance(
      op, plans, op.getResultIterationDims(), inst,
      [&](Instance &i) -> LogicalResult {
        if (batched) {
          FailureOr<ReductionPartial> p = reductionPartial(*this, op, plans, i);
          if (failed(p))
            return failure();
          batchedInsts.push_back(i);
          batchedPartials.push_back(p->values);
          last = std::move(*p);
          return success();
        }
        FailureOr<SmallVector<Value>> values =
            reduction ? emitReduction(*this, op, plans, i)
                      : emitElementwise(*this, op, i);
        if (failed(values))
          return failure();
        if (failed(storeResults(op, plans, i, *values, owner)))
          return failure();
        int64_t bytes = 0;
        for (PendingStore &st : pending)
          bytes += st.value.getType().getIntOrFloatBitWidth() / 8;
        if (bytes >= 16)
          flush();
        return success();
      });
  flush();
  pendingStores = nullptr;
  if (failed(result))
    return failure();
  if (batched) {
    SmallVector<SmallVector<Value>> all =
        allReduceBatched(op, std::move(batchedPartials),
                         currentSchedule->getReductionTree(), last.combine);
    for (auto [i, values] : llvm::zip(batchedInsts, all)) {
      values.resize(last.results);
      if (failed(storeResults(op, plans, i, values, owner)))
        return failure();
    }
  }
  bool shared = false;
  for (Value r : op->getResults()) {
    SmallVector<MaterializeOp> mats;
    collectMaterializations(r, mats);
    for (MaterializeOp mat : mats)
      shared |= mat.getResidency() == Residency::Shared;
  }
  // Producers in other threads must finish their stores before any reader.
  if (shared)
    barrier(loc);
  return success();
}

LogicalResult KernelEmitter::checkResidencies() {
  for (Operation &op : kernel.getBodyBlock().without_terminator()) {
    auto mat = dyn_cast<MaterializeOp>(op);
    if (!mat)
      continue;
    if (std::optional<std::string> why = checkMaterialization(mat))
      return mat.emitOpError() << *why;
  }
  // A tree computes the sequential fold only for a lawful combiner.
  for (Operation &op : kernel.getBodyBlock().without_terminator())
    if (auto red = dyn_cast<ReduceOp>(op))
      if (combinesInATree(red))
        if (std::optional<std::string> why = checkCombinerLaws(red))
          return red.emitOpError()
                 << "reduces across threads, but its combiner " << *why
                 << ": the threads' partials are combined in a tree "
                    "(docs/schedule.md), which computes the sequential fold "
                    "only for an associative, commutative combiner whose "
                    "identity is 'init'; map the reduced dims to 'seq'";
  return success();
}

LogicalResult KernelEmitter::emitCopy(MaterializeOp mat) {
  auto it = storage.find(mat.getInput());
  Value dest;
  YieldOp yield = kernel.getYield();
  unsigned inputs = func.getNumArguments() - kernel.getNumResults();
  for (OpOperand &use : mat.getResult().getUses())
    if (use.getOwner() == yield)
      dest = params[inputs + use.getOperandNumber()];
  if (it == storage.end() || it->second.kind != Storage::Kind::Global || !dest)
    return mat.emitOpError() << "copies a value the lowering cannot read "
                                "(internal)";
  // Every element once: i = block * threads + tid, step grid * threads.
  auto type = cast<RankedTensorType>(mat.getType());
  if (!type.hasStaticShape())
    return mat.emitOpError()
           << "copies a " << type
           << " as a kernel result: a copy of a tensor with a runtime row "
              "count is not supported (compute it with a motif.map)";
  Value bid = cluster > 1 ? blockId
                          : Value(gpu::BlockIdOp::create(b, loc,
                                                         gpu::Dimension::x));
  Value start = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, bid, constIndex(threads)), tid);
  auto loop = scf::ForOp::create(b, loc, start,
                                 constIndex(type.getNumElements()),
                                 constIndex(gridSize * threads));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  SmallVector<Value> idx(type.getRank());
  Value rest = loop.getInductionVar();
  for (int64_t a = type.getRank() - 1; a >= 0; --a) {
    Value extent = constIndex(type.getDimSize(a));
    idx[a] = a == 0 ? rest : Value(arith::RemUIOp::create(b, loc, rest, extent));
    if (a > 0)
      rest = arith::DivUIOp::create(b, loc, rest, extent);
  }
  Value v = memref::LoadOp::create(b, loc, it->second.memref, idx);
  memref::StoreOp::create(b, loc, v, dest, idx);
  return success();
}

LogicalResult KernelEmitter::emitStage(MaterializeOp mat) {
  if (llvm::none_of(mat.getResult().getUsers(),
                    [](Operation *u) { return isa<ComputeOpInterface>(u); }))
    return success(); // staged for nobody: nothing to load
  auto it = storage.find(mat.getInput());
  if (it == storage.end() || it->second.kind != Storage::Kind::Global)
    return mat.emitOpError() << "stages a value the lowering cannot read "
                                "(internal)";
  auto type = cast<RankedTensorType>(mat.getType());
  // The schedule model's box: one step of the reduction loop at a time for
  // a lone register-blocked reader (which restages at each step).
  std::string why;
  FailureOr<SharedLayout> layout = stagedLayoutOf(mat, why);
  if (failed(layout))
    return mat.emitOpError() << "cannot stage this tensor: " << why;
  Storage st;
  st.kind = Storage::Kind::Shared;
  st.shared = *layout;
  st.stageSource = it->second.memref;
  globalReads.insert(mat.getInput());
  st.stageType = type;
  auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                          gpu::AddressSpace::Workgroup);
  // A multi-stage tile (a tensor-core reader) has one buffer per stage.
  SmallVector<int64_t> shape = st.shared.bufferShape();
  if (st.shared.stages > 1)
    shape.insert(shape.begin(), st.shared.stages);
  st.memref = addWorkgroupBuffer(
      MemRefType::get(shape, type.getElementType(), nullptr, space),
      mat.getLoc(),
      st.shared.swizzle128   ? kSwizzle128Alignment
      : st.shared.xorChunks ? kSharedLineAlignment
                            : SharedLayout::kAlignment);
  sharedBytesUsed += st.shared.bytes;
  if (st.shared.steppedDim < 0) {
    emitStageCopy(st, Value());
    // Every thread's part of the tile is in before any reader reads it.
    gpu::BarrierOp::create(b, loc);
  }
  storage[mat.getResult()] = std::move(st);
  return success();
}

void KernelEmitter::emitStageCopy(const Storage &st, Value stepOffset) {
  // The box, row-major, `vector` consecutive elements per thread and step:
  // runs of four along the tensor's innermost dim when it is in the box and
  // every run starts 16-byte aligned in global memory.
  ArrayRef<int64_t> shape = st.shared.shape;
  RankedTensorType type = st.stageType;
  int64_t total = 1;
  for (int64_t e : shape)
    total *= e;
  int64_t rank = type.getRank();
  bool innermostInBox =
      !shape.empty() &&
      st.shared.kinds.back() == SharedLayout::DimKind::Indexed;
  int64_t vector = innermostInBox && shape.back() % 4 == 0 &&
                           type.getDimSize(rank - 1) % 4 == 0
                       ? 4
                       : 1;
  Value start = arith::MulIOp::create(b, loc, tid, constIndex(vector));
  auto loop = scf::ForOp::create(b, loc, start, constIndex(total),
                                 constIndex(threads * vector));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  SmallVector<Value> bufIdx(shape.size());
  Value rest = loop.getInductionVar();
  for (int64_t a = static_cast<int64_t>(shape.size()) - 1; a >= 0; --a) {
    bufIdx[a] = a == 0 ? rest
                       : Value(arith::RemUIOp::create(b, loc, rest,
                                                      constIndex(shape[a])));
    if (a > 0)
      rest = arith::DivUIOp::create(b, loc, rest, constIndex(shape[a]));
  }
  for (int64_t v = 0; v < vector; ++v) {
    SmallVector<Value> at(bufIdx);
    if (v)
      at.back() = arith::AddIOp::create(b, loc, at.back(), constIndex(v));
    SmallVector<Value> idx;
    unsigned bi = 0;
    for (auto [a, kind] : llvm::enumerate(st.shared.kinds)) {
      int64_t pos = st.shared.gridPos[a];
      Value coord = pos >= 0 ? blockCoords[pos] : Value();
      if (kind == SharedLayout::DimKind::Block) {
        idx.push_back(coord);
        continue;
      }
      Value inBox = at[bi++];
      if (static_cast<int64_t>(a) == st.shared.steppedDim)
        inBox = arith::AddIOp::create(b, loc, stepOffset, inBox);
      else if (coord && st.shared.tiles[a]) {
        inBox = arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(b, loc, coord,
                                  constIndex(st.shared.tiles[a])),
            inBox);
        // The last block of a partial tile nest: rows past the extent
        // repeat the last one (only masked instances read them).
        int64_t size = type.getDimSize(a);
        if (size % st.shared.tiles[a] != 0)
          inBox = arith::MinUIOp::create(b, loc, inBox, constIndex(size - 1));
      }
      idx.push_back(inBox);
    }
    Value x = memref::LoadOp::create(b, loc, st.stageSource, idx);
    memref::StoreOp::create(b, loc, x, st.memref, at);
  }
}

FailureOr<SmallVector<Instance>>
KernelEmitter::blockedInstances(ComputeOpInterface op,
                                ArrayRef<DimPlan> plans) {
  // Every result instance of this thread, in registers across the loop.
  SmallVector<int64_t> resultDims = op.getResultIterationDims();
  size_t n = plans.size();
  SmallVector<Instance> insts(1);
  insts[0].index.assign(n, Value());
  insts[0].k.assign(n, -1);
  for (int64_t d : resultDims) {
    SmallVector<Instance> next;
    for (const Instance &base : insts)
      for (int64_t k = 0; k < plans[d].count; ++k) {
        Instance i = base;
        i.k[d] = k;
        if (plans[d].isGrid() && !plans[d].isTiled()) {
          if (plans[d].level == Level::BlockWarp)
            return op->emitOpError() << "is a register-blocked contraction "
                                        "with a block.warp dim (not lowered)";
          unsigned g = 0;
          for (int64_t e = 0; e < d; ++e)
            g += plans[e].isGrid();
          i.index[d] = blockCoords[g];
        } else {
          // A partial last block: instances past the extent are inactive.
          setIndex(i, plans[d], d, indexOf(plans[d], d, constIndex(k)),
                   base.active);
        }
        next.push_back(i);
      }
    insts = std::move(next);
  }
  return insts;
}

LogicalResult KernelEmitter::emitBlockedContraction(ComputeOpInterface op,
                                                    ArrayRef<DimPlan> plans,
                                                    Value owner) {
  FailureOr<SmallVector<Instance>> blocked = blockedInstances(op, plans);
  if (failed(blocked))
    return failure();
  SmallVector<Instance> insts = std::move(*blocked);
  int64_t kd = op.getReductionIterationDims().front();
  for (unsigned i = 0; i < 2; ++i) {
    auto it = storage.find(op->getOperand(i));
    if (it == storage.end() || it->second.kind == Storage::Kind::Registers)
      return op->emitOpError() << "is a register-blocked contraction with "
                                  "an operand in registers (internal)";
  }
  // Operand tiles restaged at every step of the outer reduction loop.
  SmallVector<const Storage *> stepped;
  for (unsigned i = 0; i < 2; ++i) {
    const Storage &st = storage[op->getOperand(i)];
    if (st.kind == Storage::Kind::Shared && st.shared.steppedDim >= 0)
      stepped.push_back(&st);
  }
  const DimPlan &kp = plans[kd];
  int64_t outer = 1, inner = kp.count;
  if (!stepped.empty()) {
    outer = kp.nest.front().size;
    inner = kp.nest.front().stride;
  }
  SmallVector<Value> accs(insts.size(), constF32(0.0));
  auto outerLoop = scf::ForOp::create(b, loc, constIndex(0), constIndex(outer),
                                      constIndex(1), accs);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(outerLoop.getBody());
    ++loopDepth;
    Value k0 = outerLoop.getInductionVar();
    Value base = arith::MulIOp::create(b, loc, k0, constIndex(inner));
    if (!stepped.empty()) {
      // The previous step's readers are done before its tile is replaced;
      // the new tile is in before anyone reads it.
      gpu::BarrierOp::create(b, loc);
      for (const Storage *st : stepped)
        emitStageCopy(*st, base);
      gpu::BarrierOp::create(b, loc);
    }
    auto innerLoop = scf::ForOp::create(b, loc, constIndex(0),
                                        constIndex(inner), constIndex(1),
                                        outerLoop.getRegionIterArgs());
    {
      OpBuilder::InsertionGuard guard2(b);
      b.setInsertionPointToStart(innerLoop.getBody());
      Value k = arith::AddIOp::create(b, loc, base,
                                      innerLoop.getInductionVar());
      // Instance k of the reduced dim: its index is k itself (a seq walk).
      SmallVector<Value> next;
      for (auto [inst, acc] :
           llvm::zip(insts, innerLoop.getRegionIterArgs())) {
        // A reduced dim is walked in sequence (its tile nest has seq levels
        // only): instance k is index k.
        inst.index[kd] = k;
        FailureOr<Value> l = loadAccumulated(op, 0, inst);
        FailureOr<Value> r = loadAccumulated(op, 1, inst);
        if (failed(l) || failed(r)) {
          --loopDepth;
          return failure();
        }
        next.push_back(math::FmaOp::create(b, loc, *l, *r, acc));
      }
      scf::YieldOp::create(b, loc, next);
    }
    scf::YieldOp::create(b, loc, innerLoop.getResults());
    --loopDepth;
  }
  for (auto [inst, acc] : llvm::zip(insts, outerLoop.getResults()))
    if (failed(storeResults(op, plans, inst, {acc}, owner)))
      return failure();
  return success();
}

LogicalResult KernelEmitter::emit() {
  // The lowering emits only what the schedule model says is legal.
  if (failed(checkResidencies()))
    return failure();
  // cluster-push's start barrier: every thread arrives (it says the CTA
  // exists) before its first global load, and waits before its first push
  // or cluster barrier (ensureClusterStarted), by then long after the others
  // arrived. Erased below if nothing waits on it. A release arrive, though
  // nothing before it needs ordering: on the H200 the relaxed one (PTX ISA
  // 8.0) measured 1.3% slower (docs/results, session 13).
  if (cluster > 1 && clusterPush)
    startArrive = NVVM::ClusterArriveOp::create(b, loc, b.getUnitAttr());
  for (Operation &op : kernel.getBodyBlock().without_terminator()) {
    if (auto mat = dyn_cast<MaterializeOp>(op)) {
      // A tensor from outside the kernel staged in shared memory.
      if (mat.getResidency() == Residency::Shared && !producerOf(mat) &&
          !mat.getInput().getDefiningOp<MaterializeOp>()) {
        if (failed(emitStage(mat)))
          return failure();
        continue;
      }
      // A kernel result copied from outside the kernel (a motif's results
      // are stored by the motif).
      if (mat.getResidency() == Residency::Global && !producerOf(mat) &&
          failed(emitCopy(mat)))
        return failure();
      continue;
    }
    auto motif = dyn_cast<ComputeOpInterface>(op);
    if (!motif)
      return op.emitOpError() << "cannot be lowered inside a motif.kernel";
    if (failed(emitOp(motif)))
      return failure();
    releaseTails(motif);
  }
  // No CTA of a cluster leaves while another may still read its shared
  // memory. The barrier is split: every thread arrives (release) right after
  // the top-level op that holds the last read of another CTA's memory, and
  // waits (acquire) only at the exit. The arrive's release (MEMBAR.ALL.GPU)
  // then orders only those reads, not the kernel's global stores that follow,
  // and the wait at the exit finds the other CTAs long arrived: the stores
  // overlap the barrier instead of waiting for it. (LLVM 22 selects no relaxed
  // arrive at the PTX ISA it writes for sm_90, 7.8; the release is correct.)
  if (cluster > 1 && lastClusterRead) {
    Operation *top = lastClusterRead;
    while (top->getParentOp() != func.getOperation())
      top = top->getParentOp();
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointAfter(top);
      NVVM::ClusterArriveOp::create(b, loc, /*aligned=*/b.getUnitAttr());
    }
    NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/b.getUnitAttr());
  }
  if (startArrive && !clusterStarted)
    startArrive->erase();
  // cluster-mbarrier: when the start is the kernel's only cluster barrier and
  // it only publishes the mbarriers (fence.mbarrier_init.release.cluster
  // before it), its arrive is relaxed: no MEMBAR.ALL.GPU at the entry (bf16
  // 1024x131072 on an H100: 182.4 against 183.3 us; the small cluster
  // kernels 1.5 - 4%; docs/lowering.md, "Clusters"). Every other start stays
  // a release (with cluster barriers after it, a relaxed start lets ptxas
  // hoist its wait above the row's loads).
  else if (startArrive && mbarrierInits && !clusterBarriers &&
           !lastClusterRead) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(startArrive);
    NVVM::ClusterArriveRelaxedOp::create(b, startArrive->getLoc(),
                                         /*aligned=*/b.getUnitAttr());
    startArrive->erase();
  }
  gpu::ReturnOp::create(b, loc);
  return success();
}

Value mlir::motif::detail::emitFastExp2(OpBuilder &b, Location loc, Value x) {
  return LLVM::CallIntrinsicOp::create(
             b, loc, b.getF32Type(),
             b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f"), ValueRange{x})
      .getResult(0);
}

void mlir::motif::detail::emitScalarOp(OpBuilder &b, Operation &scalar,
                                       IRMapping &mapping) {
  auto exp2 = dyn_cast<math::Exp2Op>(scalar);
  if (exp2 && exp2.getType().isF32() && exp2->hasAttr(kFlushSubnormalAttr)) {
    mapping.map(exp2.getResult(),
                emitFastExp2(b, exp2.getLoc(),
                             mapping.lookup(exp2.getOperand())));
    return;
  }
  b.clone(scalar, mapping);
}

SmallVector<Value> KernelEmitter::emitRowCopies(Value mem,
                                                ArrayRef<Value> batchIdx,
                                                Value buf, Value stage,
                                                Value base, int64_t count,
                                                int64_t width, int64_t extent,
                                                bool guard, Location at,
                                                bool swizzle128) {
  Type element = cast<MemRefType>(buf.getType()).getElementType();
  int64_t perChunk = 128 / static_cast<int64_t>(element.getIntOrFloatBitWidth());
  int64_t perRow = width / perChunk, chunks = count * perRow;
  auto idx = [&](int64_t v) { return constIndex(v); };
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  SmallVector<Value> tokens;
  for (int64_t n = 0; n * threads < chunks; ++n) {
    OpBuilder::InsertionGuard g(b);
    Value chunk = arith::AddIOp::create(b, at, tid, idx(n * threads));
    bool partial = (n + 1) * threads > chunks;
    if (partial) {
      Value in = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ult, chunk,
                                       idx(chunks));
      auto ifOp = scf::IfOp::create(b, at, in, /*withElseRegion=*/false);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    }
    Value row = arith::DivUIOp::create(b, at, chunk, idx(perRow));
    Value col = arith::MulIOp::create(
        b, at, arith::RemUIOp::create(b, at, chunk, idx(perRow)),
        idx(perChunk));
    Value grow = arith::AddIOp::create(b, at, base, row);
    Value srcElements;
    if (guard) {
      Value inside = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ult,
                                           grow, idx(extent));
      srcElements =
          arith::SelectOp::create(b, at, inside, idx(perChunk), idx(0));
      grow = arith::MinUIOp::create(b, at, grow, idx(extent - 1));
    }
    SmallVector<Value> dst;
    if (stage)
      dst.push_back(stage);
    if (swizzle128) {
      // 8 chunks of 16 B an atom row: atom (c / 8), chunk (c % 8) ^ (row % 8).
      Value c = arith::RemUIOp::create(b, at, chunk, idx(perRow));
      dst.push_back(arith::DivUIOp::create(b, at, c, idx(8)));
      dst.push_back(row);
      Value swizzled = arith::XOrIOp::create(
          b, at, arith::RemUIOp::create(b, at, c, idx(8)),
          arith::RemUIOp::create(b, at, row, idx(8)));
      dst.push_back(arith::MulIOp::create(b, at, swizzled, idx(perChunk)));
    } else {
      dst.push_back(row);
      dst.push_back(col);
    }
    SmallVector<Value> src(batchIdx);
    src.push_back(grow);
    src.push_back(col);
    Value token = nvgpu::DeviceAsyncCopyOp::create(
        b, at, tokenType, buf, dst, mem, src, b.getIndexAttr(perChunk),
        srcElements, b.getUnitAttr());
    if (!partial)
      tokens.push_back(token);
  }
  return tokens;
}
