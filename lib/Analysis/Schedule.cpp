//===- Schedule.cpp - the meaning of a motif's mapping --------------------===//
#include "motif/Analysis/Schedule.h"
#include "motif/Dialect/Motif/IR/TensorCore.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::motif;

/// Elements per 128-bit access for 32-bit elements.
static constexpr int64_t kVectorWidth = 4;

/// Elements per thread run for the motifs of `op`'s function: a 128-bit
/// access of its narrowest tensors. 4 (f32) unless the function's arguments
/// or results hold f16 or bf16, then 8. One value per function, so that
/// every motif of a function maps a dim alike whichever kernel it ends up in
/// (fusion merges kernels of one function; docs/schedule.md, "Runs").
static int64_t vectorWidthOf(Operation *op) {
  auto func = op->getParentOfType<FunctionOpInterface>();
  if (!func)
    return kVectorWidth;
  auto half = [](Type t) {
    Type e = getElementTypeOrSelf(t);
    return e.isF16() || e.isBF16();
  };
  if (llvm::any_of(func.getArgumentTypes(), half) ||
      llvm::any_of(func.getResultTypes(), half))
    return 2 * kVectorWidth;
  return kVectorWidth;
}

static int64_t saturatingMul(int64_t a, int64_t b) {
  int64_t r;
  if (llvm::MulOverflow(a, b, r))
    return std::numeric_limits<int64_t>::max();
  return r;
}

static int64_t saturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (llvm::AddOverflow(a, b, r))
    return std::numeric_limits<int64_t>::max();
  return r;
}

BlockShape BlockShape::of(int64_t threads) {
  BlockShape s;
  s.threads = std::max<int64_t>(1, threads);
  s.warps = llvm::divideCeil(s.threads, kWarpSize);
  s.lanes = std::min<int64_t>(s.threads, kWarpSize);
  return s;
}

int64_t ThreadCoords::representative(int64_t t) const {
  if (tid)
    return t;
  int64_t w = warp ? t / kWarpSize : 0;
  int64_t l = lane ? t % kWarpSize : 0;
  return w * kWarpSize + l;
}

int64_t DimSchedule::blockTile() const {
  if (!nest.empty() && nest.front().level == Level::Block)
    return nest.front().stride;
  return 0;
}

int64_t DimSchedule::seqOffset(int64_t k) const {
  int64_t offset = 0;
  for (const SubLevel &l : nest)
    if (l.level == Level::Seq)
      offset += ((k / l.digitStride) % l.size) * l.stride;
  return offset;
}

int64_t DimSchedule::index(int64_t self, int64_t k) const {
  if (isTiled())
    return self + seqOffset(k);
  switch (level) {
  case Level::Block:
  case Level::BlockWarp:
    return self;
  case Level::Seq:
    return k;
  case Level::Thread:
  case Level::Warp:
  case Level::Lane:
    if (vector > 1)
      return ((k / vector) * parallel + self) * vector + k % vector;
    return k * parallel + self;
  }
  llvm_unreachable("unknown level");
}

MotifSchedule::MotifSchedule(ComputeOpInterface op, int64_t threads)
    : op(op), operation(op.getOperation()) {
  if (threads <= 0) {
    auto kernel = op->getParentOfType<KernelOp>();
    threads = kernel ? kernel.getThreads() : 1;
  }
  block = BlockShape::of(threads);
  resultDims = op.getResultIterationDims();
  reducedDims = op.getReductionIterationDims();
  for (unsigned i = 0, e = op->getNumOperands(); i < e; ++i)
    operandDims.push_back(op.getOperandIterationDims(i));
  SmallVector<int64_t> extents = op.getIterationExtents();
  dims.resize(extents.size());
  // Thread digits of the tile nests: the last thread level varies fastest;
  // `warp(n)` levels take the digits above all `thread(n)` ones (the thread
  // levels are then a warp's 32 lanes), the last warp level fastest among
  // them. A warp level is a thread digit from here on (SubLevel::level).
  int64_t tidStride = 1;
  int64_t warpStride = 1;
  for (int64_t d = 0, e = extents.size(); d < e; ++d)
    if (TileAttr tile = op.getTile(d))
      for (auto [l, size] : llvm::zip(tile.getLevels(),
                                      tile.resolvedSizes(extents[d])))
        if (l == Level::Thread)
          warpStride = saturatingMul(warpStride, size);
  for (int64_t d = extents.size() - 1; d >= 0; --d) {
    TileAttr tile = op.getTile(d);
    if (!tile)
      continue;
    DimSchedule &s = dims[d];
    s.level = op.getLevel(d);
    s.extent = extents[d];
    ArrayRef<Level> levels = tile.getLevels();
    SmallVector<int64_t> sizes = tile.resolvedSizes(s.extent);
    s.nest.resize(levels.size());
    int64_t stride = 1, seqStride = 1;
    for (int64_t j = levels.size() - 1; j >= 0; --j) {
      SubLevel &l = s.nest[j];
      l.level = levels[j];
      l.size = sizes[j];
      l.stride = stride;
      stride = saturatingMul(stride, l.size);
      if (l.level == Level::Thread) {
        l.digitStride = tidStride;
        tidStride = saturatingMul(tidStride, l.size);
      } else if (l.level == Level::Warp) {
        l.level = Level::Thread;
        l.digitStride = warpStride;
        warpStride = saturatingMul(warpStride, l.size);
      } else if (l.level == Level::Seq) {
        l.digitStride = seqStride;
        seqStride = saturatingMul(seqStride, l.size);
      }
    }
    s.count = seqStride;
    s.parallel = 1;
    // An outermost block level over an extent its inner levels do not
    // divide: the last block's instances past the extent are masked.
    s.partial = stride != s.extent;
  }
  int64_t runWidth = vectorWidthOf(operation);
  for (auto [d, s] : llvm::enumerate(dims)) {
    if (s.isTiled())
      continue;
    s.level = op.getLevel(d);
    s.extent = extents[d];
    switch (s.level) {
    case Level::Block:
    case Level::Seq:
      s.parallel = 1;
      break;
    case Level::Thread:
      s.parallel = block.threads;
      break;
    case Level::Warp:
    case Level::BlockWarp:
      s.parallel = block.warps;
      break;
    case Level::Lane:
      s.parallel = block.lanes;
      break;
    }
    if (s.level == Level::Block) {
      s.count = 1;
    } else if (s.level == Level::BlockWarp) {
      // One index per warp of the grid: each thread sees one instance.
      s.count = 1;
      s.partial = s.extent % block.warps != 0;
    } else {
      s.count = llvm::divideCeil(s.extent, s.parallel);
      s.partial = saturatingMul(s.count, s.parallel) != s.extent;
    }
    if (s.level == Level::Thread || s.level == Level::Lane) {
      // The widest run that divides the dim evenly: runs of 8 half
      // elements, else of 4.
      for (int64_t w = runWidth; w >= kVectorWidth; w /= 2)
        if (s.extent % saturatingMul(s.parallel, w) == 0) {
          s.vector = w;
          break;
        }
    }
  }
}

SmallVector<int64_t> MotifSchedule::getGridDims() const {
  SmallVector<int64_t> out;
  for (auto [d, s] : llvm::enumerate(dims))
    if (s.isGrid())
      out.push_back(d);
  return out;
}

SmallVector<int64_t> MotifSchedule::getGridExtents() const {
  SmallVector<int64_t> out;
  for (const DimSchedule &s : dims) {
    if (s.isTiled()) {
      if (s.blockTile())
        out.push_back(s.nest.front().size);
      continue;
    }
    if (s.level == Level::Block)
      out.push_back(s.extent);
    else if (s.level == Level::BlockWarp)
      out.push_back(llvm::divideCeil(s.extent, block.warps));
  }
  return out;
}

int64_t MotifSchedule::selfOf(unsigned d, int64_t tid,
                              ArrayRef<int64_t> blockCoords) const {
  const DimSchedule &s = dims[d];
  auto gridPos = [&] {
    unsigned pos = 0;
    for (unsigned e = 0; e < d; ++e)
      pos += dims[e].isGrid();
    return pos;
  };
  if (s.isTiled()) {
    int64_t self = 0;
    for (const SubLevel &l : s.nest) {
      if (l.level == Level::Block)
        self += blockCoords[gridPos()] * l.stride;
      else if (l.level == Level::Thread)
        self += ((tid / l.digitStride) % l.size) * l.stride;
    }
    return self;
  }
  switch (s.level) {
  case Level::Block:
  case Level::BlockWarp: {
    unsigned pos = 0;
    for (unsigned e = 0; e < d; ++e)
      pos += dims[e].isGrid();
    int64_t coord = blockCoords[pos];
    if (s.level == Level::BlockWarp)
      return coord * block.warps + block.warpOf(tid);
    return coord;
  }
  case Level::Thread:
    return tid;
  case Level::Warp:
    return block.warpOf(tid);
  case Level::Lane:
    return block.laneOf(tid);
  case Level::Seq:
    return 0;
  }
  llvm_unreachable("unknown level");
}

std::string MotifSchedule::describeDim(unsigned d) const {
  const DimSchedule &s = dims[d];
  if (!s.isTiled())
    return stringifyLevel(s.level).str();
  std::string out;
  for (const SubLevel &l : s.nest) {
    if (!out.empty())
      out += " x ";
    out += stringifyLevel(l.level).str() + "(" + std::to_string(l.size) + ")";
  }
  return out;
}

ThreadCoords MotifSchedule::usedCoords() const {
  ThreadCoords c;
  for (const DimSchedule &s : dims) {
    c.tid |= s.level == Level::Thread;
    c.warp |= s.level == Level::Warp || s.level == Level::BlockWarp;
    c.lane |= s.level == Level::Lane;
  }
  return c;
}

namespace {
struct ResultLevels {
  bool thread = false, warp = false, lane = false;
};
} // namespace

static ResultLevels resultLevels(const MotifSchedule &s) {
  ResultLevels r;
  for (int64_t d : s.getResultDims()) {
    Level l = s.getDim(d).level;
    r.thread |= l == Level::Thread;
    r.warp |= l == Level::Warp || l == Level::BlockWarp;
    r.lane |= l == Level::Lane;
  }
  return r;
}

bool MotifSchedule::ownerNeedsLaneZero() const {
  ResultLevels r = resultLevels(*this);
  return !r.thread && !r.lane && block.lanes > 1;
}

bool MotifSchedule::ownerNeedsWarpZero() const {
  ResultLevels r = resultLevels(*this);
  return !r.thread && !r.warp && block.warps > 1;
}

bool MotifSchedule::isStoreOwner(int64_t tid) const {
  if (ownerNeedsLaneZero() && block.laneOf(tid) != 0)
    return false;
  if (ownerNeedsWarpZero() && block.warpOf(tid) != 0)
    return false;
  return true;
}

ReductionTree MotifSchedule::getReductionTree() const {
  ReductionTree t;
  bool someThreadIdle = false;
  for (int64_t d : reducedDims) {
    const DimSchedule &s = dims[d];
    t.acrossLanes |= s.level == Level::Thread || s.level == Level::Lane;
    t.acrossWarps |= s.level == Level::Thread || s.level == Level::Warp;
    someThreadIdle |= s.isParallel() && s.extent < s.parallel;
  }
  t.acrossLanes &= block.lanes > 1;
  t.acrossWarps &= block.warps > 1;
  for (int64_t d : resultDims)
    t.lanesDiffer |= dims[d].level == Level::Lane;
  // Built-in combiners have exact identities; a general combiner may turn
  // two identities into NaN (the online-softmax state's -inf - -inf).
  auto reduce = dyn_cast<ReduceOp>(operation);
  t.flagged = reduce && !reduce.getKind() && someThreadIdle &&
              (t.acrossLanes || t.acrossWarps);
  t.ordered = reduce && !reduce.getKind() && t.acrossLanes;
  return t;
}

std::optional<std::string> MotifSchedule::unsupportedAtBlockSize() const {
  return blockSizeError(op, block.threads);
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

int64_t RegisterLayout::slotOf(ArrayRef<int64_t> k) const {
  int64_t slot = 0;
  for (auto [c, kk] : llvm::zip(counts, k))
    slot = slot * c + (c == 1 ? 0 : kk);
  return slot;
}

RegisterPressure
mlir::motif::peakRegisterPressure(ArrayRef<LiveInterval> intervals) {
  auto liveAt = [&](int64_t p, SmallVectorImpl<unsigned> *live) {
    int64_t others = 0, consumed = 0, produced = 0;
    for (auto [i, iv] : llvm::enumerate(intervals)) {
      if (p < iv.first || p > iv.last)
        continue;
      if (live)
        live->push_back(i);
      if (iv.last == p && iv.first < p && iv.consumedByLast)
        consumed = saturatingAdd(consumed, iv.slots);
      else if (iv.first == p && iv.last > p)
        produced = saturatingAdd(produced, iv.slots);
      else
        others = saturatingAdd(others, iv.slots);
    }
    return saturatingAdd(others, std::max(consumed, produced));
  };
  RegisterPressure best;
  SmallVector<int64_t> candidates;
  for (const LiveInterval &iv : intervals) {
    candidates.push_back(iv.first);
    candidates.push_back(iv.last);
  }
  llvm::sort(candidates);
  if (candidates.empty())
    return best;
  bool found = false;
  for (int64_t p : candidates) {
    int64_t sum = liveAt(p, nullptr);
    if (!found || sum > best.slots) {
      best.slots = sum;
      best.position = p;
      found = true;
    }
  }
  liveAt(best.position, &best.live);
  llvm::stable_sort(best.live, [&](unsigned a, unsigned b) {
    return intervals[a].slots > intervals[b].slots;
  });
  return best;
}

int64_t mlir::motif::liveRegisterBudget(int64_t threads,
                                        int64_t registersPerThread,
                                        int64_t registersPerSM) {
  int64_t perThread =
      std::min(registersPerThread, registersPerSM / std::max<int64_t>(threads, 1));
  return std::max<int64_t>(perThread - kRegisterReserve, 0);
}

RegisterLayout mlir::motif::registerLayoutOf(const MotifSchedule &producer) {
  RegisterLayout layout;
  for (int64_t d : producer.getResultDims()) {
    const DimSchedule &s = producer.getDim(d);
    // Grid levels have one instance per thread; a tiled dim its seq run.
    int64_t c = s.count;
    layout.counts.push_back(c);
    layout.slots = saturatingMul(layout.slots, c);
  }
  return layout;
}

TailLayout mlir::motif::tailLayoutOf(int64_t slots, int64_t tail,
                                     int64_t threads, int64_t elementBytes) {
  TailLayout layout;
  layout.slots = std::clamp<int64_t>(tail, 0, slots);
  layout.from = slots - layout.slots;
  layout.threads = threads;
  layout.elementBytes = elementBytes;
  int64_t width = std::max<int64_t>(16 / elementBytes, 1);
  while (width > 1 && (layout.slots % width || layout.from % width))
    width /= 2;
  layout.width = width;
  return layout;
}

Value mlir::motif::tailDonorOf(MaterializeOp mat) {
  auto map = mat.getInput().getDefiningOp<MapOp>();
  if (!mat.getSharedTail() || !map ||
      mat.getResidency() != Residency::Register)
    return Value();
  int64_t tail = static_cast<int64_t>(*mat.getSharedTail());
  auto op = cast<ComputeOpInterface>(map.getOperation());
  MotifSchedule own(op);
  int64_t slots = registerLayoutOf(own).slots;
  SmallVector<int64_t> resultDims = op.getResultIterationDims();
  for (auto [i, v] : llvm::enumerate(map.getInputs())) {
    auto from = v.getDefiningOp<MaterializeOp>();
    if (!from || from.getResidency() != Residency::Register ||
        static_cast<int64_t>(from.getSharedTail().value_or(0)) < tail ||
        from.getType().getElementType() != mat.getType().getElementType() ||
        op.getOperandIterationDims(i) != resultDims)
      continue;
    ComputeOpInterface producer = producerOf(from);
    if (!producer ||
        registerLayoutOf(MotifSchedule(producer)).counts !=
            registerLayoutOf(own).counts ||
        registerLayoutOf(MotifSchedule(producer)).slots != slots)
      continue;
    // Nothing reads it after the map (nor as a whole; a recomputed map's
    // readers read it too).
    SmallVector<Operation *> readers;
    effectiveReadersOf(v, readers);
    bool last = llvm::all_of(readers, [&](Operation *u) {
      return isa<ComputeOpInterface>(u) &&
             (u == map.getOperation() || u->isBeforeInBlock(map));
    });
    if (last)
      return v;
  }
  return Value();
}

int64_t mlir::motif::sharedTailFor(int64_t slots, int64_t registers,
                                   int64_t elementBytes) {
  if (slots <= registers)
    return 0;
  int64_t width = std::max<int64_t>(16 / elementBytes, 1);
  int64_t kept = std::max<int64_t>(registers, 0) / width * width;
  return slots - kept;
}

SmallVector<int64_t> SharedLayout::bufferIndex(ArrayRef<int64_t> valueIndex,
                                               int64_t warp) const {
  SmallVector<int64_t> idx;
  for (auto [a, kv] : llvm::enumerate(llvm::zip(kinds, valueIndex))) {
    auto [kind, v] = kv;
    if (kind == DimKind::PerWarp)
      idx.push_back(warp);
    else if (kind == DimKind::Indexed)
      idx.push_back(tiles[a] ? v % tiles[a] : v);
  }
  return idx;
}

SmallVector<int64_t> SharedLayout::paddedShape() const {
  SmallVector<int64_t> shape(this->shape);
  if (!shape.empty())
    shape.back() += pad;
  return shape;
}

SmallVector<int64_t> SharedLayout::bufferShape() const {
  if (!swizzle128 || shape.size() != 2)
    return paddedShape();
  int64_t atom = 128 / elementBytes;
  return {shape[1] / atom, shape[0], atom};
}

FailureOr<SharedLayout> mlir::motif::stagedLayoutOf(const MotifSchedule &reader,
                                                    unsigned operand,
                                                    Type elementType,
                                                    std::string &why,
                                                    bool steps) {
  SharedLayout layout;
  layout.elementBytes = std::max<int64_t>(
      1, llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8));
  ArrayRef<int64_t> dims = reader.getOperandDims(operand);
  ArrayRef<DimSchedule> all = reader.getDims();
  for (int64_t d : dims) {
    const DimSchedule &s = all[d];
    int64_t pos = -1;
    if (s.isGrid()) {
      pos = 0;
      for (int64_t e = 0; e < d; ++e)
        pos += all[e].isGrid();
    }
    layout.gridPos.push_back(pos);
    if (s.level == Level::BlockWarp && !s.isTiled()) {
      why = "its reader maps a dim of it to 'block.warp' (a box per warp is "
            "not staged)";
      return failure();
    }
    if (s.isGrid() && !s.isTiled()) {
      layout.kinds.push_back(SharedLayout::DimKind::Block);
      layout.tiles.push_back(0);
      continue;
    }
    bool reduced = llvm::is_contained(reader.getReducedDims(), d);
    // (A tensor-core reader always stages its steps, even a single one.)
    if (steps && reduced && s.isTiled() && s.nest.size() >= 2 &&
        s.nest.front().level == Level::Seq &&
        (s.nest.front().size > 1 ||
         runsOnTensorCores(reader.getOperation())) &&
        layout.steppedDim < 0) {
      // One step of the outer reduction loop: its inner extent.
      int64_t step = s.nest.front().stride;
      layout.steppedDim = layout.kinds.size();
      layout.kinds.push_back(SharedLayout::DimKind::Indexed);
      layout.tiles.push_back(step);
      layout.shape.push_back(step);
      continue;
    }
    int64_t e = s.blockTile() ? s.blockTile() : s.extent;
    layout.kinds.push_back(SharedLayout::DimKind::Indexed);
    layout.tiles.push_back(s.blockTile());
    layout.shape.push_back(e);
  }
  // A reader whose consecutive threads (its fastest thread digit) walk
  // another dim than the tile's innermost reads down a column: pad each row
  // by one element so that a column spans all 32 banks (rows of a multiple
  // of 32 words would put a whole column in one bank). Readers that walk the
  // innermost dim read along rows and keep them 16-byte aligned.
  bool alongRows = false;
  if (!dims.empty()) {
    const DimSchedule &inner = all[dims.back()];
    if (inner.isTiled()) {
      for (const SubLevel &l : inner.nest)
        alongRows |= l.level == Level::Thread && l.digitStride == 1 &&
                     l.size > 1;
    } else {
      alongRows = inner.level == Level::Thread || inner.level == Level::Lane;
    }
  }
  if (layout.shape.size() >= 2 && layout.shape.back() % 32 == 0 && !alongRows)
    layout.pad = 1;
  // A tensor-core reader loads 16-byte rows of 8x8 matrices (ldmatrix) that
  // cp.async wrote: rows of a power of two of 16-byte chunks are stored
  // unpadded with their chunks XOR-swizzled (xorChunks), so that the 8 rows
  // of one matrix fall in different banks; other rows stay 16-byte aligned,
  // an odd number of chunks long (padded by 16 bytes when even) to the same
  // end; the steps of k go through `stages` buffers. A tf32 B[k, j] tile is read element by element instead (no
  // ldmatrix .trans on 32-bit elements): lane (g, c) reads row c (and c + 4)
  // at column g, so rows padded by 32 bytes put the 4 rows x 8 columns of
  // one read on 32 different banks.
  if (steps && layout.steppedDim >= 0 &&
      runsOnTensorCores(reader.getOperation())) {
    std::string ignored;
    if (FailureOr<MmaTiling> t =
            mmaTilingOf(cast<ContractOp>(reader.getOperation()), ignored);
        succeeded(t)) {
      bool scalarRows = t->tf32() && t->rhsKMajor && operand == 1;
      layout.pad = (scalarRows ? 32 : 16) / layout.elementBytes;
      layout.stages = t->stages();
      int64_t chunks = layout.chunksPerRow();
      if (!scalarRows && layout.shape.size() == 2 && chunks >= 2 &&
          llvm::isPowerOf2_64(chunks)) {
        layout.pad = 0;
        layout.xorChunks = true;
      } else if (!scalarRows && chunks % 2 == 1) {
        // An odd number of chunks a row already puts 8 consecutive rows on
        // 8 different bank groups.
        layout.pad = 0;
      }
      // wgmma reads 128-byte swizzled atoms through descriptors: no pad.
      // A and B [j, k] are one atom of 64 k wide; B [k, j] (MN-major) is N
      // / 64 atoms of 64 rows of k.
      if (t->wgmma() && layout.shape.size() == 2 &&
          (layout.shape[1] * layout.elementBytes) % 128 == 0 &&
          layout.shape[0] % 8 == 0) {
        layout.pad = 0;
        layout.swizzle128 = true;
        layout.xorChunks = true;
      }
    }
  }
  int64_t bytes = saturatingMul(layout.elementBytes, layout.stages);
  for (int64_t e : layout.paddedShape())
    bytes = saturatingMul(bytes, e);
  layout.bytes = bytes;
  return layout;
}

FailureOr<SharedLayout> mlir::motif::stagedLayoutOf(MaterializeOp mat,
                                                    std::string &why) {
  OpOperand *first = nullptr;
  unsigned readers = 0;
  for (OpOperand &use : mat.getResult().getUses())
    if (isa<ComputeOpInterface>(use.getOwner())) {
      first = first ? first : &use;
      ++readers;
    }
  if (!first) {
    why = "no motif reads it";
    return failure();
  }
  MotifSchedule reader(cast<ComputeOpInterface>(first->getOwner()));
  return stagedLayoutOf(reader, first->getOperandNumber(),
                        mat.getType().getElementType(), why,
                        readers == 1 && isRegisterBlocked(reader));
}

bool mlir::motif::sameStagedBox(const SharedLayout &a, const SharedLayout &b) {
  return a.kinds == b.kinds && a.tiles == b.tiles && a.shape == b.shape &&
         a.gridPos == b.gridPos && a.steppedDim == b.steppedDim;
}

SharedLayout mlir::motif::sharedLayoutOf(const MotifSchedule &producer,
                                         Type elementType) {
  SharedLayout layout;
  layout.elementBytes =
      std::max<int64_t>(1, llvm::divideCeil(elementType.getIntOrFloatBitWidth(), 8));
  int64_t bytes = layout.elementBytes;
  for (int64_t d : producer.getResultDims()) {
    const DimSchedule &s = producer.getDim(d);
    layout.tiles.push_back(s.blockTile());
    if (s.isTiled()) {
      // A block holds its tile of the dim (the whole dim without a block
      // level).
      int64_t e = s.blockTile() ? s.blockTile() : s.extent;
      layout.kinds.push_back(SharedLayout::DimKind::Indexed);
      layout.shape.push_back(e);
      bytes = saturatingMul(bytes, e);
      continue;
    }
    if (s.level == Level::Block) {
      layout.kinds.push_back(SharedLayout::DimKind::Block);
      continue;
    }
    int64_t e = s.extent;
    if (s.level == Level::BlockWarp) {
      layout.kinds.push_back(SharedLayout::DimKind::PerWarp);
      e = std::min(s.extent, producer.getBlock().warps);
    } else {
      layout.kinds.push_back(SharedLayout::DimKind::Indexed);
    }
    layout.shape.push_back(e);
    bytes = saturatingMul(bytes, e);
  }
  layout.bytes = bytes;
  return layout;
}

bool mlir::motif::isRegisterBlocked(const MotifSchedule &s) {
  if (!isa<ContractOp>(s.getOperation()) || s.getReducedDims().size() != 1 ||
      !s.getOp().isTiled())
    return false;
  // Operands are read from memory (global, or staged in shared memory).
  for (Value v : s.getOperation()->getOperands())
    if (auto mat = v.getDefiningOp<MaterializeOp>())
      if (mat.getResidency() == Residency::Register)
        return false;
  const DimSchedule &k = s.getDim(s.getReducedDims().front());
  if (k.isParallel() || k.isGrid())
    return false;
  int64_t instances = 1;
  for (int64_t d : s.getResultDims()) {
    const DimSchedule &r = s.getDim(d);
    // A partial last block of a tile nest is masked per instance
    // (blockedInstances); a partial walk of an untiled dim is not.
    if ((r.partial && !r.isTiled()) || r.level == Level::BlockWarp)
      return false;
    instances = saturatingMul(instances, r.count);
    if (instances > kMaxBlockedInstances)
      return false;
  }
  return instances > 1;
}

/// The result instances one thread of a reduction computes.
static int64_t resultInstancesOf(const MotifSchedule &s) {
  int64_t instances = 1;
  for (int64_t d : s.getResultDims())
    instances = saturatingMul(instances, s.getDim(d).count);
  return instances;
}

int64_t mlir::motif::batchedExchangesOf(const MotifSchedule &s) {
  if (!isa<ReduceOp, ContractOp>(s.getOperation()))
    return 0;
  ReductionTree t = s.getReductionTree();
  if (!t.acrossWarps || t.lanesDiffer)
    return 0;
  int64_t instances = resultInstancesOf(s);
  return instances >= 2 && instances <= kMaxBatchedExchanges ? instances : 0;
}

int64_t mlir::motif::scratchBytesOf(const MotifSchedule &s) {
  Operation *op = s.getOperation();
  if (!isa<ReduceOp, ContractOp>(op))
    return 0;
  ReductionTree t = s.getReductionTree();
  if (!t.acrossWarps)
    return 0;
  const BlockShape &b = s.getBlock();
  int64_t values = op->getNumResults() + (t.flagged ? 1 : 0);
  int64_t perSet =
      saturatingMul(values, b.warps * (t.lanesDiffer ? b.lanes : 1));
  int64_t sets = resultInstancesOf(s) > 1 ? 2 : 1;
  if (int64_t batched = batchedExchangesOf(s))
    sets = batched;
  // Elements are 32-bit (f32 states and the f32 flag).
  return saturatingMul(saturatingMul(perSet, sets), 4);
}

//===----------------------------------------------------------------------===//
// Legal residencies
//===----------------------------------------------------------------------===//

StringRef mlir::motif::stringifyScope(Scope s) {
  switch (s) {
  case Scope::SameThread:
    return "same thread";
  case Scope::SameBlock:
    return "same block";
  case Scope::CrossBlock:
    return "other blocks";
  }
  llvm_unreachable("unknown scope");
}

static std::string fmt(ArrayRef<int64_t> v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(v, os, [&](int64_t e) { os << formatExtent(e); });
  os << "]";
  return s;
}

EdgeScope mlir::motif::classifyEdge(const MotifSchedule &producer,
                                    const MotifSchedule &consumer,
                                    unsigned operandIndex) {
  ArrayRef<int64_t> pDims = producer.getResultDims();
  ArrayRef<int64_t> cDims = consumer.getOperandDims(operandIndex);
  std::string why;
  llvm::raw_string_ostream os(why);

  // Block b's copy (shared) or threads (registers) hold only what block b
  // computed: both motifs must place every element in the same block.
  if (producer.getGridExtents() != consumer.getGridExtents()) {
    os << "the producer runs on grid " << fmt(producer.getGridExtents())
       << " but the consumer on " << fmt(consumer.getGridExtents());
    return {Scope::CrossBlock, why};
  }
  for (int64_t d : producer.getReducedDims())
    if (producer.getDim(d).isGrid()) {
      os << "the producer reduces across blocks";
      return {Scope::CrossBlock, why};
    }
  // Grid position by grid position, the same value dim the same way (a
  // whole block per index, a warp per index, or a tile of a size per block).
  struct GridPlace {
    int64_t valueDim, kind, tile;
    bool operator==(const GridPlace &o) const {
      return valueDim == o.valueDim && kind == o.kind && tile == o.tile;
    }
    bool operator!=(const GridPlace &o) const { return !(*this == o); }
  };
  auto placeOf = [](const MotifSchedule &m, int64_t d, int64_t valueDim) {
    const DimSchedule &s = m.getDim(d);
    return GridPlace{valueDim, s.blockTile() ? 2 : s.level == Level::BlockWarp,
                     s.blockTile()};
  };
  SmallVector<GridPlace> pOrder, cOrder;
  for (int64_t d : producer.getGridDims())
    pOrder.push_back(placeOf(producer, d, llvm::find(pDims, d) - pDims.begin()));
  for (int64_t d : consumer.getGridDims()) {
    auto *it = llvm::find(cDims, d);
    if (it == cDims.end()) {
      os << "every block of the consumer's block dim #" << d
         << " reads the whole value";
      return {Scope::CrossBlock, why};
    }
    cOrder.push_back(placeOf(consumer, d, it - cDims.begin()));
  }
  if (pOrder != cOrder) {
    auto grid = [](ArrayRef<GridPlace> order) {
      std::string s;
      llvm::raw_string_ostream gs(s);
      gs << "[";
      llvm::interleaveComma(order, gs, [&](const GridPlace &o) {
        gs << "dim " << o.valueDim;
        if (o.kind == 2)
          gs << " in tiles of " << o.tile << " per block";
        else
          gs << (o.kind ? " per warp" : " per block");
      });
      gs << "]";
      return s;
    };
    os << "producer and consumer spread the value over the grid differently ("
       << grid(pOrder) << " vs " << grid(cOrder) << ")";
    return {Scope::CrossBlock, why};
  }

  // Registers: a thread reads slot k of a dim where it computed slot k, so
  // the element must be at the same index -- the same level (or the same
  // tile nest, with the same thread digits) on both sides.
  auto sameWalk = [](const DimSchedule &a, const DimSchedule &b) {
    if (a.isTiled() != b.isTiled())
      return false;
    if (!a.isTiled())
      return a.level == b.level;
    if (a.nest.size() != b.nest.size())
      return false;
    for (auto [x, y] : llvm::zip(a.nest, b.nest))
      if (x.level != y.level || x.size != y.size ||
          (x.level == Level::Thread && x.digitStride != y.digitStride))
        return false;
    return true;
  };
  for (auto [a, pd] : llvm::enumerate(pDims)) {
    if (sameWalk(producer.getDim(pd), consumer.getDim(cDims[a])))
      continue;
    os << "dim " << a << " is computed at '" << producer.describeDim(pd)
       << "' but read at '" << consumer.describeDim(cDims[a]) << "'";
    return {Scope::SameBlock, why};
  }
  // A producer whose threads compute different elements, read by a tiled
  // consumer whose thread digits also index dims the value lacks: threads
  // would read elements other threads computed. (With sized thread levels
  // multiplying to the block on both sides, sameWalk already rules this
  // out; the check keeps the reason explicit.)
  if (producer.usedCoords().tid) {
    for (unsigned d = 0, e = consumer.getDims().size(); d < e; ++d) {
      const DimSchedule &s = consumer.getDim(d);
      if (!s.isTiled() || llvm::is_contained(cDims, static_cast<int64_t>(d)))
        continue;
      for (const SubLevel &l : s.nest)
        if (l.level == Level::Thread && l.size > 1) {
          os << "the reader spreads its dim #" << d << " (which does not "
             << "index the value) over threads, so a thread reads elements "
                "another thread computed";
          return {Scope::SameBlock, why};
        }
    }
  }
  std::optional<Level> allReduced;
  for (int64_t d : producer.getReducedDims())
    if (producer.getDim(d).isParallel() && !allReduced)
      allReduced = producer.getDim(d).level;
  if (allReduced)
    os << "every reader owns the element (the all-reduce over '"
       << stringifyLevel(*allReduced) << "' leaves it in each thread)";
  else
    os << "each element is read by the thread that computes it";
  return {Scope::SameThread, why};
}

static std::string opName(Operation *op) {
  return op->getName().getStringRef().str();
}

TypedAttr mlir::motif::constantOf(ComputeOpInterface producer) {
  auto map = dyn_cast_or_null<MapOp>(producer.getOperation());
  if (!map)
    return {};
  auto yield = cast<YieldOp>(map.getBody().front().getTerminator());
  if (yield.getValues().size() != 1)
    return {};
  auto c = yield.getValues()[0].getDefiningOp<arith::ConstantOp>();
  return c ? c.getValue() : TypedAttr();
}

ComputeOpInterface mlir::motif::producerOf(MaterializeOp mat) {
  Value v = mat.getInput();
  auto kernel = mat->getParentOfType<KernelOp>();
  while (Operation *def = v.getDefiningOp()) {
    if (def->getParentOp() != kernel.getOperation())
      return nullptr;
    if (auto inner = dyn_cast<MaterializeOp>(def)) {
      v = inner.getInput();
      continue;
    }
    return dyn_cast<ComputeOpInterface>(def);
  }
  return nullptr;
}

bool mlir::motif::onlyRecomputed(Operation *map) {
  if (!isa_and_nonnull<MapOp>(map))
    return false;
  bool any = false;
  for (Operation *user : map->getResult(0).getUsers()) {
    auto mat = dyn_cast<MaterializeOp>(user);
    if (!mat || !isRecomputed(mat))
      return false;
    any = true;
  }
  return any;
}

void mlir::motif::effectiveReadersOf(Value v,
                                     SmallVectorImpl<Operation *> &readers) {
  for (Operation *user : v.getUsers()) {
    if (!onlyRecomputed(user)) {
      if (!llvm::is_contained(readers, user))
        readers.push_back(user);
      continue;
    }
    for (Operation *mat : user->getResult(0).getUsers())
      effectiveReadersOf(mat->getResult(0), readers);
  }
}

int64_t mlir::motif::registerSlotsOf(MaterializeOp mat, int64_t threads) {
  ComputeOpInterface p = producerOf(mat);
  if (!p)
    return 1;
  if (constantOf(p) || isRecomputed(mat))
    return 0;
  return registerLayoutOf(MotifSchedule(p, threads)).slots;
}

/// A tensor from outside the kernel staged in shared memory: every reader
/// is a motif that reads the same box in each block.
static std::optional<std::string> checkStaging(MaterializeOp mat) {
  std::optional<SharedLayout> first;
  Type elementType = mat.getType().getElementType();
  for (OpOperand &use : mat.getResult().getUses()) {
    auto reader = dyn_cast<ComputeOpInterface>(use.getOwner());
    if (!reader)
      return std::string("stages a tensor from outside the kernel in shared "
                         "memory, but '") +
             opName(use.getOwner()) +
             "' reads the staged tile; only motifs read an operand tile";
    std::string why;
    FailureOr<SharedLayout> layout = stagedLayoutOf(
        MotifSchedule(reader), use.getOperandNumber(), elementType, why);
    if (failed(layout))
      return "cannot stage this tensor in shared memory: " + why;
    if (!first) {
      first = *layout;
      continue;
    }
    if (!sameStagedBox(*first, *layout))
      return std::string("stages a tensor in shared memory that its readers "
                         "read in different boxes per block ('") +
             opName(reader) +
             "' reads another tile of it); stage it once per reader layout";
  }
  return std::nullopt;
}

SmallVector<bool> mlir::motif::unrolledDimsOf(const MotifSchedule &s,
                                              ArrayRef<bool> registerOperands,
                                              bool registerResult) {
  SmallVector<bool> unrolled;
  for (const DimSchedule &d : s.getDims())
    unrolled.push_back(d.count == 1 || (d.isTiled() && d.count <= 16));
  for (auto [i, reg] : llvm::enumerate(registerOperands))
    if (reg)
      for (int64_t d : s.getOperandDims(i))
        unrolled[d] = true;
  if (registerResult)
    for (int64_t d : s.getResultDims())
      unrolled[d] = true;
  return unrolled;
}

int64_t mlir::motif::unrolledWorkOf(const MotifSchedule &s,
                                    ArrayRef<bool> registerOperands,
                                    bool registerResult) {
  SmallVector<bool> unrolled =
      unrolledDimsOf(s, registerOperands, registerResult);
  int64_t all = 1, out = 1;
  for (auto [d, dim] : llvm::enumerate(s.getDims())) {
    if (!unrolled[d])
      continue;
    all = saturatingMul(all, dim.count);
    if (llvm::is_contained(s.getResultDims(), static_cast<int64_t>(d)))
      out = saturatingMul(out, dim.count);
  }
  int64_t work = all;
  if (!s.getReducedDims().empty()) {
    ReductionTree tree = s.getReductionTree();
    if (tree.acrossLanes || tree.acrossWarps)
      work = std::max(work, work + saturatingMul(out, kCombineWork));
  }
  return work;
}

/// The value `v` is read from registers: a register materialization of a
/// motif's (non-constant) result or of an input loaded in the kernel.
static bool readFromRegisters(Value v) {
  auto mat = v.getDefiningOp<MaterializeOp>();
  if (!mat || mat.getResidency() != Residency::Register)
    return false;
  ComputeOpInterface producer = producerOf(mat);
  return !producer || !constantOf(producer);
}

int64_t mlir::motif::unrolledWorkOf(ComputeOpInterface op, int64_t threads,
                                    function_ref<bool(Value)> alsoRegister,
                                    bool alsoResult) {
  SmallVector<bool> regs;
  for (Value v : op->getOperands())
    regs.push_back(readFromRegisters(v) || (alsoRegister && alsoRegister(v)));
  bool result = alsoResult || llvm::any_of(op->getUsers(), [](Operation *u) {
                  auto m = dyn_cast<MaterializeOp>(u);
                  return m && m.getResidency() == Residency::Register;
                });
  return unrolledWorkOf(MotifSchedule(op, threads), regs, result);
}

std::optional<std::string> mlir::motif::checkMaterialization(MaterializeOp mat) {
  Residency r = mat.getResidency();
  if (r == Residency::Global)
    return std::nullopt;
  ComputeOpInterface producer = producerOf(mat);
  if (!producer && r == Residency::Shared &&
      !mat.getInput().getDefiningOp<MaterializeOp>())
    return checkStaging(mat);
  if (!producer)
    return std::string("keeps a value no motif of this kernel computes in ") +
           stringifyResidency(r).str() +
           ": only a motif's result can live in registers or shared memory "
           "(values from outside the kernel are read from global memory)";
  MotifSchedule ps(producer);
  if (isRecomputed(mat)) {
    // Every reader evaluates the map's body at the element it reads, one
    // instance at a time (elementwise motifs and reductions do).
    for (Operation *user : mat.getResult().getUsers())
      if (isa<ComputeOpInterface>(user) &&
          !isa<MapOp, ReduceOp, BroadcastOp, TransposeOp>(user))
        return "recomputes the result of '" + opName(producer) + "', but '" +
               opName(cast<ComputeOpInterface>(user)) +
               "' reads its operands as tiles, not element by element: "
               "keep the value in registers or shared memory";
  }
  if (r == Residency::Register) {
    RegisterLayout layout = registerLayoutOf(ps);
    if (layout.slots > kMaxRegisterSlots && !constantOf(producer) &&
        !isRecomputed(mat))
      return "keeps " + std::to_string(layout.slots) +
             " elements per thread in registers; the lowering unrolls at "
             "most " +
             std::to_string(kMaxRegisterSlots) +
             " (map more dims to threads, or use 'shared')";
    // The motifs it makes the lowering unroll stay within the bound (a
    // constant has no slots: its readers fold it in).
    // A recomputed value is not run where it stands; its readers unroll as
    // they would to read its slots.
    SmallVector<ComputeOpInterface> unrolledBy;
    bool slotted = !constantOf(producer);
    if (slotted && !isRecomputed(mat))
      unrolledBy.push_back(producer);
    for (Operation *user : mat.getResult().getUsers())
      if (auto reader = dyn_cast<ComputeOpInterface>(user); reader && slotted)
        unrolledBy.push_back(reader);
    for (ComputeOpInterface op : unrolledBy) {
      int64_t work = unrolledWorkOf(op);
      if (work > kMaxUnrolledWork)
        return "keeps the result of '" + opName(producer) +
               "' in registers, so the lowering would unroll '" +
               opName(op) + "' to " + std::to_string(work) +
               " instances of its body (its combines across threads "
               "counted " + std::to_string(kCombineWork) +
               " each), over the " + std::to_string(kMaxUnrolledWork) +
               " it unrolls at most (keep it in 'shared', or map the dims "
               "it indexes to threads)";
    }
    if (std::optional<int64_t> tail = mat.getSharedTail()) {
      if (constantOf(producer))
        return std::string("keeps a constant map's value with a shared tail: "
                           "a constant has no slots to move");
      if (*tail > layout.slots)
        return "keeps " + std::to_string(*tail) +
               " slots per thread in its shared tail, but the value has " +
               std::to_string(layout.slots) + " per thread";
    }
  }
  // Readers in program order, so the first illegal one is named.
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : mat.getResult().getUses())
    if (isa<ComputeOpInterface>(use.getOwner()))
      uses.push_back(&use);
  llvm::sort(uses, [](OpOperand *a, OpOperand *b) {
    if (a->getOwner() != b->getOwner())
      return a->getOwner()->isBeforeInBlock(b->getOwner());
    return a->getOperandNumber() < b->getOperandNumber();
  });
  for (OpOperand *usePtr : uses) {
    OpOperand &use = *usePtr;
    auto consumer = cast<ComputeOpInterface>(use.getOwner());
    EdgeScope s = classifyEdge(ps, MotifSchedule(consumer),
                               use.getOperandNumber());
    bool legal = r == Residency::Register ? s.scope == Scope::SameThread
                                          : s.scope != Scope::CrossBlock;
    if (legal)
      continue;
    std::string need =
        s.scope == Scope::CrossBlock ? "global (a kernel boundary)" : "shared";
    return "keeps the result of '" + opName(producer) + "' in " +
           stringifyResidency(r).str() + ", but '" + opName(consumer) +
           "' reads it (operand #" + std::to_string(use.getOperandNumber()) +
           ") in " + stringifyScope(s.scope).str() + ": " + s.reason +
           "; it needs " + need;
  }
  return std::nullopt;
}
