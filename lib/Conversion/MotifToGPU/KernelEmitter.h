//===- KernelEmitter.h - emit one motif.kernel as a gpu.func ----*- C++ -*-===//
//
// Internal to the MotifToGPU conversion. The emitter walks a kernel's motifs
// in order and writes, for the executing thread, the instances of each
// motif's iteration space it owns (docs/lowering.md):
//
//   level   index of instance k            instances per thread
//   block   the block's grid coordinate    1
//   thread  k * threads + tid              ceil(extent / threads)
//   warp    k * warps + warp_id            ceil(extent / warps)
//   lane    k * lanes + lane_id            ceil(extent / lanes)
//   seq     k                              extent
//
// Every thread computes every instance its indices select (redundantly where
// a level is absent); only stores are guarded by ownership. Values kept in
// registers are SSA values, one per instance ("slot"), so every dim that
// indexes a register value is unrolled at compile time; other dims become
// scf.for loops.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_LIB_CONVERSION_MOTIFTOGPU_KERNELEMITTER_H
#define MOTIF_LIB_CONVERSION_MOTIFTOGPU_KERNELEMITTER_H

#include "motif/Analysis/Schedule.h"
#include "motif/Dialect/Motif/IR/MotifOps.h"
#include "motif/Dialect/Motif/IR/TensorCore.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <functional>

namespace mlir::motif::detail {

/// An option that applies where it pays (auto), wherever it applies (true)
/// or never (false): convert-motif-to-gpu's `online-wgmma-pv` and
/// `online-overlap`.
enum class AutoChoice { Auto, On, Off };

/// The option's value (auto, true or false); nullopt for anything else.
inline std::optional<AutoChoice> parseAutoChoice(llvm::StringRef text) {
  if (text == "auto")
    return AutoChoice::Auto;
  if (text == "true")
    return AutoChoice::On;
  if (text == "false")
    return AutoChoice::Off;
  return std::nullopt;
}

/// How one iteration dim of the current motif is walked by a thread: the
/// schedule model's DimSchedule, plus how the emitter walks it.
struct DimPlan : DimSchedule {
  /// Unrolled at compile time (instance number known), else an scf.for
  /// over runs of `vector` instances.
  bool unrolled = false;
  /// The scf.for walks its runs last to first (run n-1-k at iteration k):
  /// an elementwise motif re-reading a global tensor (reverse-rereads).
  bool reversed = false;
};

/// Where a tensor value lives while the kernel runs.
struct Storage {
  /// Constant: a register materialization of a constant map (constantOf):
  /// no slots, every read is the constant.
  /// Recompute: a `register recompute` value (docs/residency.md,
  /// "Recompute"): no slots, every read evaluates `recomputed`'s body.
  enum class Kind { Global, Shared, Registers, Constant, Recompute } kind =
      Kind::Global;
  /// Global and shared: the memref (shared: the producer's SharedLayout).
  Value memref;
  SharedLayout shared;
  /// Registers: one SSA value per per-thread instance, laid out by the
  /// producer's RegisterLayout.
  RegisterLayout registers;
  SmallVector<Value> slots;
  /// Registers with a shared tail (`register shared_tail(n)`): slots from
  /// `tailStart` on live in `tail`, each thread's own region, slot s at
  /// `tailLayout`'s element of s (a tail taken over from an operand keeps
  /// the operand's layout, whose `from` may be below `tailStart`).
  Value tail;
  TailLayout tailLayout;
  int64_t tailStart = 0;
  /// Constant: the value.
  TypedAttr constant;
  /// Recompute: the map whose body every read evaluates.
  ComputeOpInterface recomputed;
  /// A staged operand tile: the global tensor it copies.
  Value stageSource;
  RankedTensorType stageType;
};

/// The indices of one instance of a motif's iteration space.
struct Instance {
  SmallVector<Value> index;  // per iteration dim (index type)
  SmallVector<int64_t> k;    // per iteration dim: instance number, -1 if dynamic
  Value active;              // i1: every partial dim is in bounds (null: true)
};

/// The alignment of a tile in the 128-byte swizzle (wgmma descriptors
/// address 8-row groups of 1024 bytes from a 1024-byte boundary).
constexpr int64_t kSwizzle128Alignment = 1024;
/// The alignment of an XOR-swizzled staged tile (SharedLayout::xorChunks):
/// its 128-byte lines on the 32 banks. A performance alignment only: in
/// dynamic shared memory the view's offset is rounded, not its address.
constexpr int64_t kSharedLineAlignment = 128;

class MmaEmitter;

class KernelEmitter {
public:
  /// With `dynamicShared`, every shared buffer is a 16-byte aligned view of
  /// the block's dynamic shared memory (gpu.dynamic_shared_memory) instead
  /// of a static workgroup attribution; sharedBytes() is then the launch's
  /// dynamic size. With `reverseRereads`, an elementwise motif walks its
  /// loops over a global tensor that an earlier motif of the kernel read in
  /// reverse instance order (markRereads).
  ///
  /// With `cluster` > 1 the block of the kernel's `threads` runs as a
  /// cluster of `cluster` CTAs (docs/lowering.md, "Clusters"): `tid` is the
  /// thread's number in the whole block, its CTA's rank times the CTA's
  /// threads plus its thread id; block barriers are cluster barriers; the
  /// cross-warp step of a reduction reads the partials of the other CTAs
  /// through distributed shared memory.
  KernelEmitter(KernelOp kernel, gpu::GPUFuncOp func, int64_t gridSize,
                ArrayRef<Value> inputs, ArrayRef<int64_t> gridExtents,
                bool dynamicShared = false, bool reverseRereads = true,
                bool groupStores = false,
                int64_t cluster = 1);

  /// Emits the whole body; fails with a located error on what the lowering
  /// does not support.
  LogicalResult emit();

  /// Reorders the blocks in groups of `group` along the second-to-last grid
  /// dim (convert-motif-to-gpu's `grid-group`): block b's coordinates of the
  /// last two dims (extents M, N) become those of Triton's grouped order, a
  /// permutation of the grid (a last group of fewer than `group` rows where
  /// M does not divide). Call before emit(); no effect with fewer than two
  /// grid dims or a group of 0 or 1.
  void groupBlocks(int64_t group);

  /// Shared bytes the kernel uses (materializations + scratch; with dynamic
  /// shared memory, including the padding between 16-byte aligned views).
  int64_t sharedBytes() const {
    return dynamicShared ? dynamicSharedEnd : sharedBytesUsed;
  }

  //===--------------------------------------------------------------------===//
  // Shared by the per-family emitters (Elementwise.cpp, Reduction.cpp).
  //===--------------------------------------------------------------------===//

  OpBuilder b;
  Location loc;
  /// The target chip (convert-motif-to-gpu's `chip`): wgmma needs sm_90a.
  std::string chip = "sm_90";
  /// convert-motif-to-gpu's `wgmma-in-flight`: a staged step's wgmma group
  /// stays in flight across the next step's barrier.
  bool wgmmaInFlight = true;
  /// convert-motif-to-gpu's `mma-fragment-pipeline`: an mma.sync
  /// contraction loads each slice's fragments one slice ahead, its barrier
  /// before the last slice of a step.
  bool mmaFragmentPipeline = true;
  /// convert-motif-to-gpu's `online-wgmma`: on sm_90a a half-precision
  /// online contraction computes its scores on wgmma.
  bool onlineWgmma = true;
  /// convert-motif-to-gpu's `online-wgmma-pv`: with its scores on wgmma, an
  /// online contraction's P V runs on wgmma too (P through shared memory):
  /// where it pays (auto), wherever it applies (on), never (off).
  AutoChoice onlineWgmmaPV = AutoChoice::Auto;
  /// convert-motif-to-gpu's `online-overlap`: with its scores on wgmma and 3
  /// or more stages, an online contraction runs P V one key tile behind the
  /// scores, overlapping the softmax of tile t with P V of tile t - 1: where
  /// P V runs on wgmma too (auto), wherever it applies (on), never (off).
  AutoChoice onlineOverlap = AutoChoice::Auto;
  /// convert-motif-to-gpu's `online-pingpong`: with P V behind the scores,
  /// on wgmma, in two warpgroups, they take turns issuing their wgmmas: at a
  /// value extent of 128 or more (auto), wherever it applies (on), never.
  AutoChoice onlinePingpong = AutoChoice::Auto;
  /// convert-motif-to-gpu's `online-mbarrier`: with P V behind the scores
  /// on wgmma, the staged key tiles are tracked by mbarriers instead of the
  /// block's barrier per tile: at a value extent of 128 or more (auto),
  /// wherever it applies (on), never.
  AutoChoice onlineMbarrier = AutoChoice::Auto;
  /// cluster-push (convert-motif-to-gpu): in a cluster kernel the cross-warp
  /// step of a reduction pushes each warp's partial into every CTA's scratch
  /// before the exchange barrier and reads its own CTA's after it
  /// (Reduction.cpp; docs/lowering.md, "Clusters"). The pass sets it (on by
  /// default).
  bool clusterPush = true;
  /// cluster-mbarrier (convert-motif-to-gpu): a pushed exchange outside any
  /// loop, of one result instance and 32-bit partials, stores with st.async
  /// and counts the bytes on an mbarrier of the receiving CTA, which waits on
  /// its own mbarrier instead of a cluster barrier (Reduction.cpp). Off by
  /// default until timed on the GPU.
  bool clusterMbarrier = false;
  /// convert-motif-to-gpu's `online-p-registers`: with P V on wgmma, P is
  /// the wgmma's A operand in registers (motif_nvvm.wgmma_rs), not a shared
  /// tile read through a descriptor.
  bool onlinePRegisters = true;

  /// Element `inst` of operand `i` of `op`.
  FailureOr<Value> loadOperand(ComputeOpInterface op, unsigned i,
                               const Instance &inst);
  /// `loadOperand`, extended to f32 when the operand holds f16 or bf16: the
  /// element as a reduction or a contraction folds it (they accumulate in
  /// f32, docs/dialect.md "Element types").
  FailureOr<Value> loadAccumulated(ComputeOpInterface op, unsigned i,
                                   const Instance &inst);

  /// Walks the instances of `dims` (iteration dims of `op`), unrolled or as
  /// loops; `body` runs once per instance at the innermost point.
  LogicalResult forEachInstance(ComputeOpInterface op,
                                ArrayRef<DimPlan> plans, ArrayRef<int64_t> dims,
                                Instance &inst,
                                const std::function<LogicalResult(Instance &)> &body);

  /// Folds the instances of `dims` into `accs` with `step` (thread-local),
  /// returning the accumulators. Inactive instances leave them unchanged.
  FailureOr<SmallVector<Value>> accumulate(
      ComputeOpInterface op, ArrayRef<DimPlan> plans, ArrayRef<int64_t> dims,
      Instance &inst, SmallVector<Value> accs,
      const std::function<FailureOr<SmallVector<Value>>(
          Instance &, ValueRange)> &step);

  /// Combines per-thread partials as `tree` says (schedule model): across
  /// lanes (shuffle butterfly) and/or warps (shared scratch + barrier);
  /// every thread gets the result.
  FailureOr<SmallVector<Value>> allReduce(
      Operation *op, SmallVector<Value> partial, const ReductionTree &tree,
      const std::function<SmallVector<Value>(ValueRange, ValueRange)> &combine);
  /// allReduce of several result instances' partials of one motif at once:
  /// each instance's tree as allReduce builds it, the butterfly steps of
  /// all instances interleaved and their cross-warp exchange behind one
  /// barrier, a scratch set an instance (batchedExchangesOf). Only without
  /// a cluster and with one partial a warp (lanes agree).
  SmallVector<SmallVector<Value>> allReduceBatched(
      Operation *op, SmallVector<SmallVector<Value>> partials,
      const ReductionTree &tree,
      const std::function<SmallVector<Value>(ValueRange, ValueRange)> &combine);
  /// One step of the lane butterfly (shuffle xor `offset`) of allReduce.
  SmallVector<Value> butterflyStep(
      SmallVector<Value> partial, int64_t offset, const ReductionTree &tree,
      const std::function<SmallVector<Value>(ValueRange, ValueRange)> &combine);

  /// A workgroup buffer aligned for the widest access the emitter makes.
  Value addWorkgroupBuffer(MemRefType type, Location at,
                           int64_t alignment = SharedLayout::kAlignment);
  /// The shared buffers of an online contraction's staged tiles
  /// (OnlineContractOp::getStagedTiles, so the residency report and the
  /// kernel agree), of `element`s, a leading stage dim where a tile has
  /// several stages; counts their bytes in sharedBytesUsed.
  SmallVector<Value, 4> addStagedTileBuffers(ArrayRef<OnlineStagedTile> tiles,
                                             Type element, Location at);

  /// cp.async of `count` rows of `width` elements from rows base + row of
  /// `mem` (indexed `batchIdx..., row, col`) into `buf` (at stage `stage`, or
  /// unstaged when null), 16 B a copy, chunk tid + n * threads for every
  /// thread of the block; rows at or past `extent` are zero-filled (a source
  /// size of 0, their address clamped) when `guard`. Returns the tokens of
  /// the copies every thread makes (the flash lowerings' K/V/Q tiles).
  /// With `swizzle128`, `buf` is [stage x] (width / 64) x count x 64 of
  /// 16-bit elements: 64-column atoms of 128-byte rows, chunk c of row r at
  /// c ^ (r % 8) (the layout wgmma descriptors read).
  SmallVector<Value> emitRowCopies(Value mem, ArrayRef<Value> batchIdx,
                                   Value buf, Value stage, Value base,
                                   int64_t count, int64_t width,
                                   int64_t extent, bool guard, Location at,
                                   bool swizzle128 = false);

  /// The schedule of the motif being emitted.
  const MotifSchedule &schedule() const { return *currentSchedule; }

  Value constIndex(int64_t v);
  Value constF32(double v);

private:
  LogicalResult emitOp(ComputeOpInterface op);
  SmallVector<DimPlan> planDims(const MotifSchedule &schedule);
  /// Reverses the loop dims of an elementwise `op` that index an operand in
  /// global memory an earlier motif of the kernel read (`globalReads`): the
  /// lines loaded last are still in L2 and are re-read first. Every instance
  /// is computed and stored on its own, so the order changes no value.
  void markRereads(ComputeOpInterface op, MutableArrayRef<DimPlan> plans);
  /// Checks every materialization against the schedule model before
  /// anything is emitted.
  LogicalResult checkResidencies();
  /// A kernel result copied from a value defined outside the kernel: a
  /// grid-stride loop over its elements.
  LogicalResult emitCopy(MaterializeOp mat);
  /// A tensor from outside the kernel staged in shared memory: the block
  /// loads its box (coalesced, 128-bit where aligned), then a barrier.
  LogicalResult emitStage(MaterializeOp mat);
  /// The copy of a staged tile into its buffer (`stepOffset`: where the
  /// current step of a stepped tile starts along its stepped dim).
  void emitStageCopy(const Storage &st, Value stepOffset);
  /// A register-blocked contraction: every result instance of the thread
  /// accumulates in registers across one reduction loop, which restages
  /// stepped operand tiles at each step of its outer level.
  LogicalResult emitBlockedContraction(ComputeOpInterface op,
                                       ArrayRef<DimPlan> plans, Value owner);

  /// A contraction on tensor cores (TensorCore.cpp): operand tiles staged
  /// by cp.async through a multi-stage pipeline, ldmatrix fragments,
  /// mma.sync m16n8k16 into accumulators kept in registers across k.
  /// The wgmma form of a tensor-core contraction (TensorCore.cpp).
  LogicalResult emitWgmmaContraction(ComputeOpInterface op,
                                     ArrayRef<DimPlan> plans, Value owner,
                                     const MmaTiling &t, MmaEmitter &m,
                                     const Storage *const tiles[2],
                                     ArrayRef<Instance> insts);
  LogicalResult emitTensorCoreContraction(ComputeOpInterface op,
                                          ArrayRef<DimPlan> plans,
                                          Value owner);
  /// The flash form (OnlineContraction.cpp): Q, K and V tiles staged in
  /// shared memory, S and P in registers, the state (m, l, acc) carried over
  /// tiles of the keys.
  LogicalResult emitOnlineContraction(OnlineContractOp op);
  /// Its tensor-core form (OnlineContractionMma.cpp, f16/bf16 operands): Q,
  /// K and V tiles staged by cp.async (K and V double-buffered), S = Q K^T
  /// and acc += P V on mma.sync m16n8k16, S and P in accumulator fragments.
  /// The operands and the result are in global memory at `q`, `k`, `v`, `y`.
  LogicalResult emitOnlineContractionMma(OnlineContractOp op, Value q,
                                         Value k, Value v, Value y);
  /// The result instances of the thread, one per register-blocked
  /// accumulator (result dims enumerated row-major).
  FailureOr<SmallVector<Instance>> blockedInstances(ComputeOpInterface op,
                                                    ArrayRef<DimPlan> plans);

  Value indexOf(const DimPlan &plan, unsigned dim, Value k);
  /// A tiled dim's block and thread digits, placed (DimSchedule::nest).
  Value tileSelf(const DimPlan &plan, unsigned dim);
  /// The index inside a block's tile of a shared buffer dim (0: the index).
  Value inTile(Value index, int64_t tile);
  /// Index of element `v` of run `run` of a vectorized thread dim.
  Value runIndex(const DimPlan &plan, Value run, int64_t v);
  Value ownerPredicate(ComputeOpInterface op);
  LogicalResult prepareDestinations(ComputeOpInterface op,
                                    ArrayRef<DimPlan> plans);
  /// A buffer for a shared tail of `type`: one that an earlier value's last
  /// reader freed, the tail of an operand `op` reads slot for slot for the
  /// last time (the map writes slot s after reading it, in the thread's own
  /// region), or a new one.
  void assignTail(MaterializeOp mat, Storage &s, Type element, Location at);
  /// Frees the tails of the operands whose last reader is `op`.
  void releaseTails(ComputeOpInterface op);
  /// The element (tail layout) of slot `slot` of a register value's tail.
  SmallVector<Value> tailIndex(const Storage &s, int64_t slot);
  LogicalResult storeResults(ComputeOpInterface op, ArrayRef<DimPlan> plans,
                             const Instance &inst, ValueRange values,
                             Value owner);
  Value guardedIndex(Value index, int64_t extent, bool partial);
  /// Every thread of the block has arrived: gpu.barrier, or in a cluster a
  /// cluster barrier (barrier.cluster.arrive.aligned, release; then
  /// barrier.cluster.wait.aligned, acquire).
  void barrier(Location at);
  /// `buf[idx]` (a workgroup buffer, identity layout) in the shared memory
  /// of the cluster's CTA `rank` (mapa.shared::cluster, then
  /// ld.shared::cluster).
  Value loadFromCta(Value buf, ValueRange idx, Value rank, Location at);
  /// Stores `value` to `buf[idx]` in the shared memory of the cluster's CTA
  /// `rank` (mapa.shared::cluster, then st.shared::cluster).
  void storeToCta(Value buf, ValueRange idx, Value rank, Value value,
                  Location at);
  /// `buf[idx]` of CTA `rank` as a !llvm.ptr<7> (shared::cluster).
  Value ctaAddress(Value buf, ValueRange idx, Value rank, Location at);
  /// cluster-push: before the first store into another CTA's shared memory
  /// (or the first cluster barrier), every thread waits on the start
  /// barrier, whose arrive opens the kernel: a CTA's shared memory
  /// is known to exist only once it has arrived. The wait goes before the
  /// top-level op that holds the current insertion point.
  void ensureClusterStarted(Location at);
  /// Sets dim `d` of `inst` to `index`, and its activity to `outerActive`
  /// and (for a partial dim) the bounds check.
  void setIndex(Instance &inst, const DimPlan &plan, int64_t d, Value index,
                Value outerActive);

  KernelOp kernel;
  gpu::GPUFuncOp func;
  int64_t threads;
  int64_t warps;
  int64_t lanes;
  SmallVector<int64_t> gridExtents;
  Value tid, warpId, laneId;
  /// CTAs of the block's cluster (1: one CTA), threads of one CTA, the
  /// thread's id in its CTA, and the block's number in the grid (a
  /// cluster's: blockIdx.x / cluster).
  int64_t cluster = 1;
  int64_t ctaThreads = 1;
  Value ctaTid, blockId;
  /// The last load from another CTA's shared memory emitted (loadFromCta).
  Operation *lastClusterRead = nullptr;
  /// cluster-push's start barrier: its arrive (erased at the end when no
  /// wait was needed) and whether its wait is emitted.
  Operation *startArrive = nullptr;
  /// The address (!llvm.ptr<3>) of workgroup buffer `buf` of this CTA.
  Value sharedPointer(Value buf, Location at);
  /// An `if` taken by thread 0 of each CTA, at the insertion point; the
  /// terminator of its body (to insert before).
  Operation *ctaThreadZeroBody(Location at);
  /// cluster-mbarrier: an mbarrier of this CTA, initialized by thread 0
  /// before the start barrier (one fence after every init); its buffer.
  Value initExchangeBarrier(Location at);
  Operation *mbarrierInits = nullptr;
  /// cluster-mbarrier: thread 0's arrival on `bar` (after the start
  /// barrier's wait), expecting `bytes` of partials from the cluster.
  void expectExchangeBytes(Value bar, int64_t bytes, Location at);
  /// cluster-mbarrier: `value` (32-bit) into `buf`[idx] of CTA `rank`, its
  /// 4 bytes counted on `bar` of that CTA (st.async ... complete_tx).
  void storeToCtaAsync(Value buf, ValueRange idx, Value rank, Value value,
                       Value bar, Location at);
  bool clusterStarted = false;
  /// Whether a cluster barrier besides the start's was emitted (barrier()).
  bool clusterBarriers = false;

  /// The kernel's memref parameters, behind memref.assume_alignment.
  SmallVector<Value> params;
  SmallVector<Value> blockCoords; // per grid dim
  llvm::DenseMap<Value, Storage> storage;
  int64_t sharedBytesUsed = 0;
  /// Shared tails whose values nothing reads any more.
  SmallVector<Value> freeTails;
  /// Tails the motif being emitted took over from its operands.
  SmallVector<Value> takenTails;
  /// Dynamic shared memory: the base (i8 memref), the op after which the
  /// next view goes, and the end of the last view.
  bool dynamicShared = false;
  Value dynamicSharedBase;
  Operation *lastSharedView = nullptr;
  int64_t dynamicSharedEnd = 0;
  /// The plans of the motif being emitted.
  SmallVector<DimPlan> currentPlans;
  std::optional<MotifSchedule> currentSchedule;
  /// The cross-warp scratch of the motif being emitted (at most two sets,
  /// used in turn) and how many reductions used it.
  SmallVector<SmallVector<Value>, 2> scratchSets;
  unsigned scratchUses = 0;
  int64_t gridSize = 1;
  /// Set while a reader evaluates a recomputed value's map (loadOperand):
  /// its register operands are read through opaqueCopy.
  bool recomputing = false;
  /// `v` (16 or 32 bits) through an inline-asm move with an immediate of its
  /// own (opaqueCopies counts them): a value LLVM cannot merge with another
  /// read of the same slot (ptxas drops the move).
  Value opaqueCopy(Value v);
  int64_t opaqueCopies = 0;
  /// Depth of dynamic loops around the current point (scratch reuse needs a
  /// trailing barrier inside loops).
  int loopDepth = 0;
  /// reverse-rereads, and the global tensors the motifs (and operand
  /// tiles) emitted so far read.
  bool reverseRereads = true;
  /// group-stores: a map's unmasked global stores emitted 16 bytes at a
  /// time, after everything that computes them (emitOp).
  bool groupStores = false;
  struct PendingStore {
    Value value, memref;
    SmallVector<Value> index;
  };
  SmallVector<PendingStore> *pendingStores = nullptr;
  llvm::DenseSet<Value> globalReads;
};

/// One mma.sync m16n8k16 with f32 accumulators (TensorCore.cpp): `a` the 4
/// rows and `bRows` the 2 rows of the A and B fragments, each a
/// vector<2xT> of f16 or bf16 (nvvm.mma.sync: MLIR 22's convert-nvgpu-to-nvvm
/// has no bf16 case); returns the 4 new accumulators.
SmallVector<Value> emitMmaM16N8K16(OpBuilder &b, Location loc, Type element,
                                   ArrayRef<Value> a, ArrayRef<Value> bRows,
                                   ArrayRef<Value> acc);

/// The wgmma matrix descriptor (PTX ISA, "Matrix Descriptor Format") of a
/// tile of 16-bit elements at shared address `address` (i64, bytes; the
/// swizzle atom aligned to its size): start address >> 4 in bits 0-13, the
/// leading byte offset in 16-29, the stride byte offset in 32-45 (both >> 4),
/// base offset 0, the swizzle mode in 62-63 (1: 128 B, 2: 64 B). The
/// defaults describe a K-major tile in the 128-byte swizzle: 8-row groups
/// 1024 B apart, the leading offset unused (16 B). An MN-major (transposed)
/// tile in 64-wide atoms: leading offset = the bytes between atoms along
/// MN, stride offset 1024 B (the next 8 rows of k).
Value emitWgmmaDescriptor(OpBuilder &b, Location loc, Value address,
                          int64_t leadingBytes = 16, int64_t strideBytes = 1024,
                          int64_t swizzleMode = 1);

/// The descriptor of an MN-major (transposed B) tile stored as 64-wide atoms
/// of `atomRows` rows of k, 128 bytes a row, in the 128-byte swizzle: the
/// atoms atomRows x 128 B apart, 8-row groups 1024 B (the flash form's V,
/// a GEMM's B [k, j]).
inline Value emitWgmmaMNMajorDescriptor(OpBuilder &b, Location loc,
                                        Value address, int64_t atomRows) {
  return emitWgmmaDescriptor(b, loc, address, atomRows * 128, 1024, 1);
}

/// One wgmma.mma_async m64nNk16 (f16/bf16 -> f32) of a K-major A tile and a
/// K-major (or, with `transposeB`, MN-major) B tile at descriptors `descA`,
/// `descB`, accumulating into `acc` (the instruction's struct of N/2 f32;
/// TensorCore.cpp). Without `accumulate` the result is A.B alone (scale-d
/// 0): `acc` may be undefined.
Value emitWgmmaM64K16(OpBuilder &b, Location loc, Type element, int64_t n,
                      Value acc, Value descA, Value descB,
                      bool accumulate = true, bool transposeB = false);

/// The same with A (64 x 16, K-major) in registers: `a` is the thread's
/// mma.sync m16n8k16 A fragment of its warp's 16 rows (four pairs of
/// halves, vector<2xf16/bf16> each), B at descriptor `descB`
/// (motif_nvvm.wgmma_rs; TensorCore.cpp).
Value emitWgmmaRegisterAM64K16(OpBuilder &b, Location loc, Type element,
                               int64_t n, Value acc, ArrayRef<Value> a,
                               Value descB, bool accumulate = true,
                               bool transposeB = false);

/// 2^x by one MUFU.EX2 with denormals flushed (PTX ex2.approx.ftz.f32, the
/// LLVM intrinsic llvm.nvvm.ex2.approx.ftz.f): math.exp2 becomes libdevice's
/// ex2.approx.f32, which wraps the MUFU in a range check (FSETP, two
/// predicated FMUL) to keep subnormal results. The online-softmax lowerings
/// (class `mathematical`) use it: their exponents are <= 0 and the row sum
/// they feed is >= 1, so a term below 2^-126 flushed to 0 moves no result by
/// more than 2^-126 relative.
Value emitFastExp2(OpBuilder &b, Location loc, Value x);

/// One op of a motif body (a map's or a combiner's) at `b`, its operands
/// through `mapping`: a clone, except an f32 `math.exp2 {motif.ftz}`
/// (ScalarOps.h), which is ex2.approx.ftz.f32 (emitFastExp2).
void emitScalarOp(OpBuilder &b, Operation &scalar, IRMapping &mapping);

/// Per-family emitters: the scalar work of one instance.
FailureOr<SmallVector<Value>>
emitElementwise(KernelEmitter &e, ComputeOpInterface op, const Instance &inst);
FailureOr<SmallVector<Value>> emitReduction(KernelEmitter &e,
                                            ComputeOpInterface op,
                                            ArrayRef<DimPlan> plans,
                                            Instance &inst);

/// A thread's partial of one result instance of a reduction (or a
/// contraction), before the cross-thread combine, and how partials combine
/// there; the first `results` values are the motif's results.
struct ReductionPartial {
  SmallVector<Value> values;
  std::function<SmallVector<Value>(ValueRange, ValueRange)> combine;
  unsigned results = 0;
};
FailureOr<ReductionPartial> reductionPartial(KernelEmitter &e,
                                             ComputeOpInterface op,
                                             ArrayRef<DimPlan> plans,
                                             Instance &inst);

} // namespace mlir::motif::detail

#endif
