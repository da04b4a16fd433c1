//===- Schedule.h - the meaning of a motif's mapping ------------*- C++ -*-===//
//
// The schedule model: what `over [...]` means for one motif in a block of
// `threads` threads (docs/schedule.md). It answers, for every instance of the
// motif's iteration space, which threads compute it, which thread stores it,
// in which order a thread folds a reduction and which tree combines the
// threads' partials; and, for a value kept in shared memory or registers,
// where each element lives. Three clients ask it and nobody re-derives it:
//
//   the residency analysis  (ExecutionScope.h, --fuse-materialization):
//                           which residency is legal for an edge;
//   the emitter             (convert-motif-to-gpu): what each thread does,
//                           and the check before emitting;
//   the evaluator           (motif-equiv --model=schedule): what the kernel
//                           computes, thread by thread.
//
// Every thread of a block executes every motif: it walks the instances its
// own coordinates select, redundantly where the mapping names no level for
// that coordinate (a `[block, seq]` reduction runs in every thread). Only
// stores to shared and global memory are guarded (one owner per element);
// register slots are written by every thread that computes them.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_ANALYSIS_SCHEDULE_H
#define MOTIF_ANALYSIS_SCHEDULE_H

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <string>

namespace mlir::motif {

/// The threads of one block as the lowering numbers them: thread `tid` is
/// lane `tid % 32` of warp `tid / 32`.
struct BlockShape {
  int64_t threads = 1;
  int64_t warps = 1;
  /// Lanes per warp: 32, or `threads` when the block is smaller.
  int64_t lanes = 1;

  static BlockShape of(int64_t threads);
  int64_t warpOf(int64_t tid) const { return tid / kWarpSize; }
  int64_t laneOf(int64_t tid) const { return tid % kWarpSize; }
};

/// Which thread coordinates a computation depends on.
struct ThreadCoords {
  bool tid = false;
  bool warp = false;
  bool lane = false;

  ThreadCoords operator|(ThreadCoords o) const {
    return {tid || o.tid, warp || o.warp, lane || o.lane};
  }
  /// The representative of `t`'s class: threads whose used coordinates agree
  /// compute the same values.
  int64_t representative(int64_t t) const;
};

/// One level of a tile nest (a dim mapped `block(64) x thread(16) x seq(8)`).
struct SubLevel {
  Level level = Level::Seq;
  int64_t size = 1;
  /// What one step of this level adds to the dim's index: the product of
  /// the sizes inside it.
  int64_t stride = 1;
  /// Thread levels: the place of this digit in the thread id, the product
  /// of the sizes of the motif's later thread levels (the last varies
  /// fastest); seq levels: the place of this digit in the instance number.
  int64_t digitStride = 1;
};

/// How the threads of a block walk one iteration dim.
struct DimSchedule {
  Level level = Level::Seq;
  int64_t extent = 1;
  /// Threads along this level: the block's threads, warps or lanes; 1 for
  /// `seq` and `block`; the block's warps for `block.warp`.
  int64_t parallel = 1;
  /// Instances each thread walks (1 for grid levels).
  int64_t count = 1;
  /// Some thread's instance falls beyond the extent (it is masked).
  bool partial = false;
  /// `thread` and `lane` dims whose extent is a multiple of 4 x parallel:
  /// each thread takes runs of `vector` consecutive elements.
  int64_t vector = 1;
  /// A tile nest, outermost first; empty for a dim with a single level.
  /// `level` is then the nest's widest kind (thread, else block, else seq),
  /// `count` the product of its seq sizes, and the index of instance k is
  /// `self + seqOffset(k)` (self: block and thread digits, from selfOf).
  SmallVector<SubLevel, 4> nest;

  bool isTiled() const { return !nest.empty(); }
  /// A tiled dim with a block level: what one block step adds to the index
  /// (the tile each block holds); 0 otherwise.
  int64_t blockTile() const;
  /// The seq part of instance `k`'s index in a tiled dim.
  int64_t seqOffset(int64_t k) const;
  bool isGrid() const {
    return level == Level::Block || level == Level::BlockWarp ||
           blockTile() > 0;
  }
  /// Spread over the threads of a block (thread, warp or lane).
  bool isParallel() const {
    return level == Level::Thread || level == Level::Warp ||
           level == Level::Lane;
  }
  /// The index of instance `k` for a thread whose coordinate on this level
  /// is `self` (tid, warp or lane; ignored for seq). Grid levels: `self` is
  /// the block coordinate (block.warp: block * warps + warp). May be past the
  /// extent when `partial`.
  int64_t index(int64_t self, int64_t k) const;
};

/// The cross-thread part of a reduction (docs/schedule.md, "Reductions").
struct ReductionTree {
  /// A butterfly over the lanes of each warp: offsets lanes/2, ..., 1, each
  /// lane computing combine(own, other), or with `ordered`
  /// combine(lower lane's, higher lane's).
  bool acrossLanes = false;
  /// The butterfly combines in lane order, so both lanes of a pair compute
  /// the same bits (general combiners, which may be commutative only up to
  /// rounding; built-in ones are commutative bit for bit).
  bool ordered = false;
  /// Then lane 0 of every warp (every lane when `lanesDiffer`) stores its
  /// partial, a barrier, and every thread folds the partials in warp order:
  /// acc = p[0]; acc = combine(acc, p[w]) for w = 1, 2, ...
  bool acrossWarps = false;
  /// A result dim is on lanes: lanes hold partials of different results.
  bool lanesDiffer = false;
  /// Identity-aware combine: partials carry a flag "folded at least one
  /// element", and a partial without one is never combined (general
  /// combiners whose idle threads would combine two identities).
  bool flagged = false;
};

/// The schedule of one motif in a block of a given size.
class MotifSchedule {
public:
  /// The schedule of `op` in a block of `threads` threads (the threads of
  /// the kernel around it when 0).
  explicit MotifSchedule(ComputeOpInterface op, int64_t threads = 0);

  ComputeOpInterface getOp() const { return op; }
  Operation *getOperation() const { return operation; }
  const BlockShape &getBlock() const { return block; }
  ArrayRef<DimSchedule> getDims() const { return dims; }
  const DimSchedule &getDim(unsigned d) const { return dims[d]; }
  ArrayRef<int64_t> getResultDims() const { return resultDims; }
  ArrayRef<int64_t> getReducedDims() const { return reducedDims; }
  ArrayRef<int64_t> getOperandDims(unsigned i) const {
    return operandDims[i];
  }
  /// The grid: one extent per grid dim, in iteration order (block.warp: its
  /// extent over the block's warps, rounded up).
  SmallVector<int64_t> getGridExtents() const;
  /// Iteration dims at grid levels, in iteration order (grid position).
  SmallVector<int64_t> getGridDims() const;

  /// The coordinate thread `tid` has on dim `d`'s level; grid levels use
  /// `blockCoords` (one per grid dim, row-major over the grid).
  int64_t selfOf(unsigned d, int64_t tid, ArrayRef<int64_t> blockCoords) const;
  /// The index of instance `k` of dim `d` for thread `tid`.
  int64_t indexOf(unsigned d, int64_t tid, ArrayRef<int64_t> blockCoords,
                  int64_t k) const {
    return dims[d].index(selfOf(d, tid, blockCoords), k);
  }

  /// The thread coordinates the motif's own dims use.
  ThreadCoords usedCoords() const;

  /// `level`, or a tile nest as written: `block(64) x thread(16) x seq(8)`.
  std::string describeDim(unsigned d) const;

  /// Whether thread `tid` stores the elements it computes to shared or
  /// global memory: with no result dim on threads, only lane 0 (no result
  /// dim on lanes) of warp 0 (no result dim on warps) stores.
  bool isStoreOwner(int64_t tid) const;
  /// The same as predicates: only lane 0 stores; only warp 0 stores.
  bool ownerNeedsLaneZero() const;
  bool ownerNeedsWarpZero() const;

  /// The tree a reduction or contraction combines its partials with.
  ReductionTree getReductionTree() const;

  /// Why the mapping cannot run at this block size (blockSizeError: warp
  /// and lane levels need whole warps; a cross-thread combine needs a
  /// power of two up to 32 or a multiple of 32), or nullopt.
  std::optional<std::string> unsupportedAtBlockSize() const;

private:
  ComputeOpInterface op;
  Operation *operation;
  BlockShape block;
  SmallVector<DimSchedule> dims;
  SmallVector<int64_t> resultDims, reducedDims;
  SmallVector<SmallVector<int64_t>> operandDims;
};

/// Where each element of a value computed by a motif lives when the value
/// is kept in registers: one slot per instance of its non-block result dims,
/// row-major (`counts[a]` per value dim; 1 for a `block` dim).
struct RegisterLayout {
  SmallVector<int64_t> counts;
  /// Slots per thread (saturated at INT64_MAX).
  int64_t slots = 1;

  /// The slot of the instance numbers `k` (one per value dim).
  int64_t slotOf(ArrayRef<int64_t> k) const;
};
RegisterLayout registerLayoutOf(const MotifSchedule &producer);

/// The shared tail of a register value (`register shared_tail(n)`,
/// docs/residency.md "Shared tails"): slots [from, from + n) of every thread
/// live in shared memory instead of registers, in a region no other thread
/// touches (so no barrier). Slot s of thread t is element
/// [(s - from) / width][t][(s - from) % width]: a thread's `width`
/// consecutive slots are one 16-byte access, and a warp's accesses to the
/// same slot are contiguous (no bank conflict past the access width).
struct TailLayout {
  int64_t from = 0, slots = 0, width = 1, threads = 1, elementBytes = 4;
  int64_t bytes() const { return slots * threads * elementBytes; }
  /// The buffer: [slots / width, threads, width].
  SmallVector<int64_t> shape() const {
    return {slots / width, threads, width};
  }
};
/// The tail of `tail` slots of a value of `slots` slots per thread in a block
/// of `threads`, for elements of `elementBytes`.
TailLayout tailLayoutOf(int64_t slots, int64_t tail, int64_t threads,
                        int64_t elementBytes);
/// The operand whose shared-tail region `mat` (a `register shared_tail(n)`
/// materialization of a map's result) takes over in the lowering, or null: a
/// `register shared_tail` value of the same element type and register
/// layout, a tail at least as long, read by the map at the result's own
/// indices (slot s before slot s is written) and by nothing after it.
Value tailDonorOf(MaterializeOp mat);

/// The slots a shared tail moves out of registers when a thread may keep
/// `registers` of a value's `slots`: the rest, with the register part rounded
/// down to 16 bytes of elements so that the tail starts on an access
/// boundary (0: the value fits).
int64_t sharedTailFor(int64_t slots, int64_t registers, int64_t elementBytes);

/// A value kept in registers, live over the motifs [first, last] of a kernel
/// (positions in program order: from the motif that computes it, or the
/// kernel's start (-1) for an input loaded there, to its last reader),
/// holding `slots` registers per thread.
///
/// `consumedByLast`: the last reader is a map that reads the value slot for
/// slot in its own register layout, so the value's slots die as the map's
/// result slots are born (register k of the operand is free once result k is
/// computed): at that position the two count as the larger, not the sum.
struct LiveInterval {
  int64_t first = 0, last = 0;
  int64_t slots = 0;
  bool consumedByLast = false;
};

/// The register live set at its largest: the slots live together at the
/// worst position, that position (-1 is the kernel's start; unset without
/// intervals: slots 0, position -1, nothing live), and the intervals live
/// there (indices, largest first).
struct RegisterPressure {
  int64_t slots = 0;
  int64_t position = -1;
  SmallVector<unsigned> live;
};

/// The largest register live set of `intervals`. At a position p: every
/// value live across p (first < p < last, or born at p and read later), and
/// every value whose last reader is p, except that the values p consumes
/// slot for slot and the values p produces count as the larger of their two
/// sums (sums saturate at INT64_MAX). The first worst position wins.
RegisterPressure peakRegisterPressure(ArrayRef<LiveInterval> intervals);

/// Registers per thread a kernel's live values may take at `threads` per
/// block: what a thread can have (the chip's per-thread maximum, or the
/// register file split over the block's threads) less `kRegisterReserve`
/// for addresses, indices and loop state.
constexpr int64_t kRegisterReserve = 24;
int64_t liveRegisterBudget(int64_t threads, int64_t registersPerThread,
                           int64_t registersPerSM);

/// Where each element lives when the value is kept in shared memory: one
/// buffer per block over the value's non-`block` dims; a `block.warp` dim
/// keeps one row per warp of the block.
struct SharedLayout {
  /// Indexed: by the element's index (`index % tile` for a tiled dim with
  /// a block level: each block holds its own tile).
  enum class DimKind { Block, PerWarp, Indexed };
  SmallVector<int64_t> tiles; // per value dim: the modulus, 0 for none
  /// Elements added to the innermost buffer dim so that a column of the
  /// buffer falls in different banks (an operand tile read across its rows).
  int64_t pad = 0;
  /// Staged operand tiles: per value dim, the grid position of the block
  /// level that selects its tile (-1: none, the whole dim).
  SmallVector<int64_t> gridPos;
  /// A staged operand tile that moves with the reader's outer reduction
  /// loop: the value dim (-1: none) whose box is one step of it (`tiles` of
  /// that dim: the step's extent), restaged at every step.
  int64_t steppedDim = -1;
  /// Buffers of a staged tile in a multi-stage pipeline (a tensor-core
  /// reader: the buffer is `[stages] x paddedShape()`); 1 otherwise.
  int64_t stages = 1;
  /// A staged tile a wgmma reader reads through matrix descriptors: rows of
  /// a multiple of 128 bytes, unpadded, stored as 128-byte atoms (the
  /// buffer is `[stages] x (row bytes / 128) x rows x 128 bytes`: chunks 8a
  /// .. 8a+7 of every row in atom a) in the 128-byte swizzle (16-byte chunk
  /// c of row r at chunk (c & ~7) | ((c % 8) ^ (r % 8)), that is chunk
  /// (c % 8) ^ (r % 8) of atom c / 8), every stage 1024-byte aligned. A
  /// K-major tile ([rows, k], one step of 64 k) is one atom; a B [k, j]
  /// tile (MN-major) is N / 64 atoms of 64 rows of k.
  bool swizzle128 = false;
  /// The buffer's shape (less the stage dim): paddedShape(), or with
  /// swizzle128 `(shape[1] / atom) x shape[0] x atom`, atom = 128 bytes of
  /// elements.
  SmallVector<int64_t> bufferShape() const;
  /// A staged tile an mma.sync reader reads with ldmatrix, in rows of a
  /// power of two (2 or more) of 16-byte chunks, unpadded: chunk c of row r
  /// at chunk c ^ ((r / l) % min(w, 8)) of the same row, w chunks a row and
  /// l = max(1, 8 / w) rows a 128-byte line. The 8 rows of one ldmatrix
  /// matrix (and the 32 chunks a warp's cp.async write) fall in 8 different
  /// 16-byte bank groups; the 128-byte swizzle is the case w = 8. The buffer
  /// is indexed by the swizzled column, so correctness needs no alignment;
  /// the stages start on 128-byte boundaries for the banks.
  bool xorChunks = false;
  /// 16-byte chunks a row of the buffer holds (0 when a row does not end on
  /// a chunk).
  int64_t chunksPerRow() const {
    int64_t bytes = shape.empty() ? 0 : shape.back() * elementBytes;
    return bytes % 16 ? 0 : bytes / 16;
  }
  /// The XOR swizzle's parameters: rows a 128-byte line holds (l) and the
  /// modulus of the phase (m = min(w, 8)); chunk c of row r is stored at
  /// physicalChunk(r, c) = c ^ ((r / l) % m).
  int64_t swizzleRowsPerLine() const {
    return std::max<int64_t>(1, 8 / std::max<int64_t>(1, chunksPerRow()));
  }
  int64_t swizzleModulus() const {
    return std::min<int64_t>(chunksPerRow(), 8);
  }
  int64_t physicalChunk(int64_t r, int64_t c) const {
    if (!xorChunks)
      return c;
    return c ^ ((r / swizzleRowsPerLine()) % swizzleModulus());
  }
  SmallVector<DimKind> kinds; // per value dim
  SmallVector<int64_t> shape; // per buffer dim
  int64_t elementBytes = 4;
  /// Bytes of the buffer, every stage (saturated at INT64_MAX).
  int64_t bytes = 0;
  /// Every workgroup buffer is aligned for the widest access the emitter
  /// makes (128-bit).
  static constexpr int64_t kAlignment = 16;

  /// The buffer index of an element for a thread of warp `warp`, given the
  /// index of every value dim.
  SmallVector<int64_t> bufferIndex(ArrayRef<int64_t> valueIndex,
                                   int64_t warp) const;
  /// The buffer's shape with the padding.
  SmallVector<int64_t> paddedShape() const;
};
SharedLayout sharedLayoutOf(const MotifSchedule &producer, Type elementType);

/// A tensor from outside the kernel materialized `in shared` is an operand
/// tile: each block loads the box of it its readers read (a tiled dim with a
/// block level: that block's tile; a `block` dim: the block's index; any
/// other dim: all of it), coalesced along the innermost dim, then a barrier;
/// readers read the buffer. The layout of that box for the reader `reader`
/// reading it as operand `operand`, or the reason it cannot be staged.
///
/// With `steps`, a dim the reader reduces over a tile nest `seq(a) x ...`
/// is staged one step at a time: the box holds the nest's inner extent,
/// and the reader restages it at each of the `a` steps of its outer loop
/// (steppedDim). Without, the box spans the whole reduced dim.
FailureOr<SharedLayout> stagedLayoutOf(const MotifSchedule &reader,
                                       unsigned operand, Type elementType,
                                       std::string &why, bool steps = false);

/// The layout of the tile a staging materialization (`materialize %x in
/// shared` of a tensor from outside its kernel) holds, as its first reader
/// reads it (one step at a time for a lone register-blocked reader).
FailureOr<SharedLayout> stagedLayoutOf(MaterializeOp mat, std::string &why);

/// Staged layouts of two readers describe the same box of every block.
bool sameStagedBox(const SharedLayout &a, const SharedLayout &b);

/// The most result instances a thread's reduction exchanges across warps
/// behind one barrier (batchedExchangesOf).
constexpr int64_t kMaxBatchedExchanges = 8;

/// The result instances a thread of this reduction holds (2 to
/// kMaxBatchedExchanges) when the lowering may exchange all their partials
/// across warps behind one barrier -- lane 0 of each warp stores every
/// instance's partial, one barrier, every thread folds each instance in warp
/// order: the tree of each instance is unchanged, so are its bits -- else 0.
/// Only where the lanes agree (one element a warp): a set a result instance
/// stays small. The lowering batches where the instances are straight-line
/// code (unrolled, or the block's) in a kernel without a cluster.
int64_t batchedExchangesOf(const MotifSchedule &schedule);

/// Shared bytes a reduction's cross-warp scratch takes in the lowering: per
/// partial value (and the flag of a flagged tree) one element per warp (per
/// warp and lane when lanes differ), a set a result instance where they may
/// be batched (batchedExchangesOf), else two sets used in turn when the motif
/// has several result instances; 0 without a cross-warp combine.
int64_t scratchBytesOf(const MotifSchedule &schedule);

/// The execution scope of a producer -> consumer edge, from the two
/// schedules (docs/schedule.md, "Legal residencies"):
///   SameThread  every thread reads its own register slots -> register
///   SameBlock   readers are other threads of the block    -> shared
///   CrossBlock  another block, or another grid, reads it  -> global only
enum class Scope { SameThread, SameBlock, CrossBlock };
llvm::StringRef stringifyScope(Scope s);

struct EdgeScope {
  Scope scope;
  /// Why, in words a user reads in a remark.
  std::string reason;
};

/// The scope of the edge from `producer` (which computes the value) to
/// `consumer`, which reads it as operand `operandIndex`, both scheduled in
/// the same block size.
EdgeScope classifyEdge(const MotifSchedule &producer,
                       const MotifSchedule &consumer, unsigned operandIndex);

/// The most result instances a register-blocked contraction keeps.
constexpr int64_t kMaxBlockedInstances = 128;

/// Whether a contraction is walked register-blocked (a tiled contraction
/// whose operands come from memory): each thread keeps all
/// its result instances (more than one, at most kMaxBlockedInstances, none
/// masked) in registers across one sequential reduction loop, and loads
/// each operand element once per step for all of them. The fold order of
/// every result element is unchanged (k increasing); only the loop nest is
/// interchanged. Operand tiles it reads from shared memory are staged one
/// step of the loop's outer level at a time (stagedLayoutOf with steps).
bool isRegisterBlocked(const MotifSchedule &s);

/// The most register slots one value may unroll to in the lowering.
constexpr int64_t kMaxRegisterSlots = 256;

/// The dims the lowering unrolls (their slots are SSA values or their runs
/// become one wide access): a single instance, a tile run of at most 16, and
/// every dim that indexes a register operand (`registerOperands`, one per
/// operand) or a register result.
SmallVector<bool> unrolledDimsOf(const MotifSchedule &s,
                                 ArrayRef<bool> registerOperands,
                                 bool registerResult);

/// What the lowering emits for one motif, in units of one instance of its
/// body: the dims it unrolls (unrolledDimsOf) multiply the body, and each
/// unrolled result instance of a motif that combines across threads adds its
/// tree (kCombineWork). Dims it loops over add nothing. Saturates at
/// INT64_MAX.
constexpr int64_t kCombineWork = 16;
int64_t unrolledWorkOf(const MotifSchedule &s, ArrayRef<bool> registerOperands,
                       bool registerResult);
/// The same for a motif as the kernel has it at `threads` per block (0: its
/// kernel's): operands read from register materializations (not constants),
/// a result with a register materialization; the fusion adds the values it
/// is about to keep in registers (`alsoRegister`) and whether it keeps the
/// result there (`alsoResult`).
int64_t unrolledWorkOf(ComputeOpInterface op, int64_t threads = 0,
                       function_ref<bool(Value)> alsoRegister = nullptr,
                       bool alsoResult = false);
/// The most unrolled work one motif may take (docs/residency.md, "Unrolled
/// work"): about 10^5 lines of MLIR after the lowering, seconds of compile
/// time. A register residency that would unroll a motif past it is not
/// chosen by the fusion and refused by the lowering.
constexpr int64_t kMaxUnrolledWork = 4096;

/// Nullopt when `residency` is legal for every consumer of the value
/// `mat` names (its producer's result materialized in this kernel), else a
/// reason naming the producer, the reader and why. Global is always legal.
std::optional<std::string> checkMaterialization(MaterializeOp mat);

/// The motif whose result `mat` materializes, through chains of
/// materializations; null when the value comes from outside the kernel.
ComputeOpInterface producerOf(MaterializeOp mat);

/// The value of a constant map (a `motif.map` whose body yields an
/// `arith.constant`, whatever its operands): a register materialization of
/// it has no slots -- every reader gets the constant (the lowering, the
/// schedule-faithful evaluator and the register budget agree). Null for any
/// other motif.
TypedAttr constantOf(ComputeOpInterface producer);

/// A `register recompute` materialization (docs/residency.md, "Recompute"):
/// no slots; every reader computes the producer map's body at the element it
/// reads.
inline bool isRecomputed(MaterializeOp mat) {
  return mat.getResidency() == Residency::Register && mat.getRecompute();
}

/// Whether every materialization of `map`'s result is `register recompute`
/// (there is at least one): the lowering does not run the map where it
/// stands.
bool onlyRecomputed(Operation *map);

/// The motifs that read `v` in the lowering: its readers, where a reader is
/// a map that is only recomputed (onlyRecomputed) the readers of that map's
/// recomputed value instead, transitively (they evaluate the map's body and
/// so read its operands). Program order is not sorted.
void effectiveReadersOf(Value v, SmallVectorImpl<Operation *> &readers);

/// The register slots per thread a register materialization keeps: 0 for a
/// constant map's value and a recomputed one, 1 for an input loaded in the
/// kernel (rule 3), else its producer's register layout over `threads`.
int64_t registerSlotsOf(MaterializeOp mat, int64_t threads);

} // namespace mlir::motif

#endif
