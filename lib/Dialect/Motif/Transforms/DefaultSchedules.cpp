//===- DefaultSchedules.cpp - tiles for programs that state none ----------===//
//
// A contraction written (or imported) without a tile nest runs one output
// element per thread and reads both operands from global memory for every
// product: 0.04x of torch on the GEMM epilogue (docs/results). The heuristic
// here gives it the schedule of examples/gemm.mlir, sized to its shape:
//
//   i: block x thread(16) x seq(rm)            rm = largest of 8, 4, 2, 1 with
//   16*rm | M j: block x seq(rn/4) x thread(16) x seq(4) rn likewise (block x
//   thread(16) x seq(rn) below 4) k: seq x seq(bk)                           bk
//   = largest of 32, 16, ..., 1 with bk | K threads(256); leading (batch)
//   result dims: block
//
// so each block owns a (16 rm) x (16 rn) tile, each thread rm x rn outputs in
// registers across K (register blocking, docs/lowering.md), and
// fuse-materialization then stages the operand tiles in shared memory (rule
// 3). The result dims' nests are carried to the maps that read the product
// element for element and otherwise only function arguments (bias,
// activation: an epilogue), each alone in its kernel, so the product can
// stay in registers when the kernels merge. The tiled schedule folds
// k = 0, 1, ... with fma: bitwise when the written mapping folded the
// contracted dim sequentially too; a contraction written to reduce across
// threads (warps summing keys through shared memory) gets another order,
// class `tolerance`, only under a cap that admits it. A mapping with a tile
// nest is the user's and is never touched.
//
// An f16/bf16 matrix product whose shape divides 16x8x16 runs on tensor
// cores instead (tensorCoreScheduleFor: the mma.sync accumulator layout of
// examples/gemm_bf16.mlir in a block tile from 128x128 down to 16x8, the
// largest that leaves mma-min-grid blocks, `mma m16n8k16 stages(3)` where
// three stages fit the shared budget, else 2, 32 to 128 threads) when the cap
// admits `tolerance`; under a bitwise cap, or when the shape does not fit, a
// remark says why and it gets the fma schedule. An
// f32 product never goes to tensor cores here: tf32 (`mma m16n8k8`) rounds its
// operands and is only ever the program's choice; the remark says so.
//
//===----------------------------------------------------------------------===//

#include "DefaultSchedules.h"

#include "motif/Dialect/Motif/IR/MotifOps.h"
#include "motif/Dialect/Motif/IR/TensorCore.h"
#include "motif/Support/ThreadDiagnostics.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::motif;

namespace {

constexpr int64_t kThreads = 256;
constexpr int64_t kGrid = 16; // threads per tiled dim: 16 x 16 = kThreads

KernelOp kernelOf(Operation *op) { return op->getParentOfType<KernelOp>(); }

bool hasNest(ArrayAttr mapping) {
  return llvm::any_of(mapping, [](Attribute a) { return isa<TileAttr>(a); });
}

/// The only motif of `kernel`, or null.
ComputeOpInterface soleMotif(KernelOp kernel) {
  ComputeOpInterface only;
  for (Operation &op : kernel.getBodyBlock()) {
    auto motif = dyn_cast<ComputeOpInterface>(op);
    if (!motif)
      continue;
    if (only)
      return {};
    only = motif;
  }
  return only;
}

bool fromOutside(Value v, KernelOp kernel) {
  Operation *def = v.getDefiningOp();
  return !def || kernelOf(def) != kernel;
}

int64_t largestDividing(ArrayRef<int64_t> choices, int64_t extent,
                        int64_t unit = 1) {
  for (int64_t c : choices)
    if (extent % (unit * c) == 0)
      return c;
  return 0;
}

std::string nestText(Attribute a) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto t = dyn_cast<TileAttr>(a)) {
    for (auto [n, l] : llvm::enumerate(t.getLevels())) {
      os << (n ? " x " : "") << stringifyLevel(l);
      if (t.getSizes()[n])
        os << "(" << t.getSizes()[n] << ")";
    }
  } else {
    os << stringifyLevel(cast<LevelAttr>(a).getValue());
  }
  return s;
}

std::string mappingText(ArrayRef<Attribute> mapping) {
  std::string s = "[";
  for (auto [n, a] : llvm::enumerate(mapping))
    s += (n ? ", " : "") + nestText(a);
  return s + "]";
}

/// Sets `op`'s mapping and its kernel's block size; undone (false) when the
/// verifier refuses the result, so the pass never leaves invalid IR.
bool trySchedule(ComputeOpInterface op, ArrayAttr mapping,
                 int64_t threads = kThreads) {
  KernelOp kernel = kernelOf(op);
  Attribute oldMapping = op->getAttr("mapping");
  IntegerAttr oldThreads = kernel.getThreadsAttr();
  op->setAttr("mapping", mapping);
  kernel.setThreadsAttr(
      IntegerAttr::get(IntegerType::get(op->getContext(), 64), threads));
  bool ok;
  {
    ThreadDiagnosticHandler quiet(op->getContext());
    ok = succeeded(verify(kernel));
  }
  if (!ok) {
    op->setAttr("mapping", oldMapping);
    kernel.setThreadsAttr(oldThreads);
  }
  return ok;
}

int64_t propagate(Value value, ArrayRef<Attribute> resultMapping,
                  int64_t threads);

/// propagate() from every kernel result of `kernel` that materializes
/// `result` (a motif's value) in global memory.
int64_t propagateFrom(Value result, KernelOp kernel,
                      ArrayRef<Attribute> resultMapping,
                      int64_t threads = kThreads) {
  int64_t n = 0;
  for (OpOperand &y : result.getUses())
    if (auto mat = dyn_cast<MaterializeOp>(y.getOwner()))
      for (OpOperand &out : mat.getResult().getUses())
        if (isa<YieldOp>(out.getOwner()))
          n += propagate(kernel.getResult(out.getOperandNumber()),
                         resultMapping, threads);
  return n;
}

/// Carries the result dims' nests from the motif computing kernel result
/// `value` to the maps that read it element for element, each alone in its
/// kernel; then from those on.
int64_t propagate(Value value, ArrayRef<Attribute> resultMapping,
                  int64_t threads) {
  int64_t n = 0;
  auto type = cast<RankedTensorType>(value.getType());
  for (OpOperand &use : llvm::make_early_inc_range(value.getUses())) {
    auto map = dyn_cast<MapOp>(use.getOwner());
    if (!map)
      continue;
    KernelOp kernel = kernelOf(map);
    auto iface = cast<ComputeOpInterface>(map.getOperation());
    if (!kernel || soleMotif(kernel) != iface || hasNest(map.getMapping()) ||
        map.getResult().getType().getShape() != type.getShape() ||
        iface.getOperandIterationDims(use.getOperandNumber()) !=
            llvm::to_vector(llvm::seq<int64_t>(0, type.getRank())) ||
        !llvm::all_of(map.getInputs(),
                      [&](Value v) { return fromOutside(v, kernel); }))
      continue;
    // An epilogue reads the product and parameters only: a map that also
    // reads another computed value (a row statistic) belongs to that
    // value's schedule, and tiling it would split a fusion there.
    if (!llvm::all_of(map.getInputs(), [&](Value v) {
          return v == value || isa<BlockArgument>(v);
        }))
      continue;
    auto mapping = ArrayAttr::get(map.getContext(), resultMapping);
    if (!trySchedule(iface, mapping, threads))
      continue;
    map.emitRemark() << "default schedule: the map of kernel '"
                     << kernel.getSymName()
                     << "' reads the tiled product element for element; it "
                        "takes the product's tiles "
                     << mappingText(resultMapping)
                     << " and threads(" << threads
                     << ") (so the fusion can keep the product in registers)";
    ++n;
    n += propagateFrom(map.getResult(), kernel, resultMapping, threads);
  }
  return n;
}

/// The schedule of one contraction, or the reason there is none.
FailureOr<SmallVector<Attribute>> scheduleFor(ContractOp c, std::string &why) {
  KernelOp kernel = kernelOf(c);
  auto iface = cast<ComputeOpInterface>(c.getOperation());
  MLIRContext *ctx = c.getContext();
  auto fail = [&](const Twine &t) {
    why = t.str();
    return failure();
  };
  // Not a matrix product at all (a dot product, a matrix-vector product,
  // several contracted dims): no candidate, so no remark.
  auto silent = [&](const Twine &) {
    why.clear();
    return failure();
  };
  SmallVector<int64_t> extents = iface.getIterationExtents();
  SmallVector<int64_t> resultDims = iface.getResultIterationDims();
  SmallVector<int64_t> reduced;
  for (int64_t d = 0, e = extents.size(); d < e; ++d)
    if (!llvm::is_contained(resultDims, d))
      reduced.push_back(d);
  if (reduced.size() != 1)
    return silent(Twine(reduced.size()) +
                " contracted dims (the tiled schedule has one)");
  if (resultDims.size() < 2)
    return silent("fewer than two result dims (a dot product or a "
                "matrix-vector product: no output tile to reuse operands "
                "across)");
  int64_t i = resultDims[resultDims.size() - 2], j = resultDims.back(),
          k = reduced.front();
  ArrayRef<int64_t> lhs = c.getLhsDims(), rhs = c.getRhsDims();
  auto has = [](ArrayRef<int64_t> dims, int64_t d) {
    return llvm::is_contained(dims, d);
  };
  bool plain = has(lhs, i) && !has(lhs, j) && has(rhs, j) && !has(rhs, i);
  bool swapped = has(lhs, j) && !has(lhs, i) && has(rhs, i) && !has(rhs, j);
  if (!(plain || swapped) || !has(lhs, k) || !has(rhs, k))
    return silent("its operands are not an [.., i, k] x [.., k, j] product");
  if (soleMotif(kernel) != iface)
    return fail("kernel '" + kernel.getSymName() +
                "' holds other motifs (its block size is theirs too)");
  if (!fromOutside(c.getLhs(), kernel) || !fromOutside(c.getRhs(), kernel))
    return fail("an operand is computed in the kernel (register blocking "
                "reads its operands from memory)");
  int64_t m = extents[i], n = extents[j], kk = extents[k];
  // Each output dim: kGrid threads of r consecutive elements, a block tile
  // of kGrid x r. On a multiple of kGrid the largest r that divides; else
  // the largest whose padded extent is within 1/8 of the least padded (r =
  // 1), the last block partial (docs/dialect.md, "Partial last tiles").
  auto runOf = [](int64_t extent) -> int64_t {
    if (extent % kGrid == 0)
      return largestDividing({8, 4, 2, 1}, extent, kGrid);
    for (int64_t r : {8, 4, 2})
      if (withinPaddingRule(paddedExtent(extent, kGrid * r),
                            paddedExtent(extent, kGrid)))
        return r;
    return 1;
  };
  int64_t rm = runOf(m), rn = runOf(n);
  if (rm * rn < 2)
    return fail("one output per thread (" + Twine(m) + " x " + Twine(n) +
                "): nothing to keep in registers across K");
  int64_t bk = largestDividing({32, 16, 8, 4, 2, 1}, kk);
  auto level = [&](Level l) { return LevelAttr::get(ctx, l); };
  auto tile = [&](ArrayRef<Level> levels, ArrayRef<int64_t> sizes) {
    return TileAttr::get(ctx, levels, sizes);
  };
  SmallVector<Attribute> mapping;
  for (int64_t d = 0, e = extents.size(); d < e; ++d) {
    if (d == i)
      mapping.push_back(
          rm == 1 ? Attribute(tile({Level::Block, Level::Thread}, {0, kGrid}))
                  : Attribute(tile({Level::Block, Level::Thread, Level::Seq},
                                   {0, kGrid, rm})));
    else if (d == j)
      mapping.push_back(
          rn == 8 ? Attribute(tile({Level::Block, Level::Seq, Level::Thread,
                                    Level::Seq},
                                   {0, 2, kGrid, 4}))
          : rn == 1
              ? Attribute(tile({Level::Block, Level::Thread}, {0, kGrid}))
              : Attribute(tile({Level::Block, Level::Thread, Level::Seq},
                               {0, kGrid, rn})));
    else if (d == k)
      mapping.push_back(bk == kk ? Attribute(level(Level::Seq))
                                 : Attribute(tile({Level::Seq, Level::Seq},
                                                  {0, bk})));
    else
      mapping.push_back(level(Level::Block));
  }
  return mapping;
}

/// An f32 matrix product C[i, j] = sum_k A[i, k] B[k, j] (or B[j, k]): what
/// `mma m16n8k8` (tf32) could take, which the default schedules never pick.
bool isF32MatrixProduct(ContractOp c) {
  ArrayRef<int64_t> lhs = c.getLhsDims(), rhs = c.getRhsDims();
  return c.getLhs().getType().getElementType().isF32() &&
         c.getResult().getType().getRank() == 2 &&
         lhs == ArrayRef<int64_t>{0, 2} &&
         (rhs == ArrayRef<int64_t>{2, 1} || rhs == ArrayRef<int64_t>{1, 2});
}

/// A block tile of the tensor-core default schedule: `rows` x `cols` of C
/// over min(4, rows / 16) warps along i, each warp rows / warps rows (m16
/// tiles) by all `cols` (n8 tiles).
struct MmaTile {
  int64_t rows, cols;
  int64_t warps() const { return std::min<int64_t>(4, rows / 16); }
  int64_t threads() const { return 32 * warps(); }
  int64_t mTiles() const { return rows / 16 / warps(); }
  int64_t nTiles() const { return cols / 8; }
};
/// Every R x C with R in 128, 64, 32, 16 and C in 128, 64, 32, 16, 8, largest
/// first: by area, then the squarer (more reuse: R C / (R + C) products per
/// operand element staged), then more rows. 128x128 is the tile of
/// examples/gemm_bf16.mlir (4 warps of 32x128, 128 accumulators a thread);
/// 16x8 is one m16n8 tile on one warp.
constexpr MmaTile kMmaTiles[] = {
    {128, 128}, {128, 64}, {64, 128}, {64, 64}, {128, 32}, {32, 128}, {64, 32},
    {32, 64},   {128, 16}, {16, 128}, {32, 32}, {64, 16},  {16, 64},  {128, 8},
    {32, 16},   {16, 32},  {64, 8},   {16, 16}, {32, 8},   {16, 8}};

/// A wgmma block tile (sm_90a): `rows` / 64 warpgroups, each one m64 x
/// `cols` tile (`mma m64n{cols}k16`), k in staged steps of 64 (one 128-byte
/// swizzled row). Largest first by area, then more rows. 128x256 is the tile
/// of examples/linear_bf16.mlir (0.87 - 0.94x cuBLAS at 8192^3 on the H200,
/// docs/lowering.md, "wgmma on sm_90a").
struct WgmmaTile {
  int64_t rows, cols;
  int64_t warps() const { return rows / 16; }
  MmaShape shape() const {
    return cols == 256   ? MmaShape::M64N256K16
           : cols == 128 ? MmaShape::M64N128K16
                         : MmaShape::M64N64K16;
  }
};
constexpr WgmmaTile kWgmmaTiles[] = {{128, 256}, {128, 128}, {64, 256},
                                     {128, 64},  {64, 128},  {64, 64}};
/// Bytes a dynamic shared-memory pipeline of wgmma stages reserves to align
/// each operand's stages to 1024 bytes: 1008 an operand (docs/lowering.md,
/// "wgmma on sm_90a"; examples/linear_bf16.mlir at 4 stages of 128x64 and
/// 256x64 bf16 tiles: 196,608 + 2,016 bytes).
constexpr int64_t kWgmmaAlignReserve = 2 * 1008;

/// A tensor-core schedule: the mapping, its block tile, k step and grid.
struct MmaSchedule {
  SmallVector<Attribute> mapping;
  MmaTile tile;
  /// The instruction: m16n8k16 (mma.sync), or m64nNk16 (wgmma, sm_90a).
  MmaShape shape = MmaShape::M16N8K16;
  int64_t threads = 0;
  /// Why not wgmma, where the chip has it and the schedule is mma.sync.
  std::string notWgmma;
  int64_t kStep = 0, grid = 0;
  /// Buffers of each operand tile (`stages(n)`).
  int64_t stages = 2;
  /// No tile leaves `minGrid` blocks: the one with the most.
  bool underfilled = false;
  /// M x N is not a multiple of the smallest tile: the last block of a dim
  /// may be partial (masked).
  bool partial = false;
};
constexpr int64_t kMmaMinK = 16;

/// The tensor-core schedule of an f16/bf16 matrix product C[i, j] =
/// sum_k A[i, k] B[k, j] (or B[j, k]; A may be [k, i], read by ldmatrix
/// .trans on mma.sync only) alone in its kernel, in a block tile
/// R x C of kMmaTiles over w warps along i:
///
///   i: block x thread(w) x seq(R / 8w) x thread(8)   (no thread(1))
///   j: block x seq(C / 8) x thread(4) x seq(2)       (no seq(1))
///   k: seq x seq(bk)                bk = 32, or 16 where 32 does not divide
///
/// threads(32 w), `mma m16n8k16 stages(s)`: s = 3 where three stages of both
/// operand tiles fit `sharedBudget` (unpadded, their 16-byte chunks
/// XOR-swizzled: 128x128 with k steps of 32 takes 3 x (128 x 32 + 32 x 128)
/// x 2 = 49,152 bytes, the 48 KiB the fusion budgets by default), else 2,
/// else 1; only tiles one stage of which fits are candidates (on
/// an H100 at 4095x4096x4096, 128x128: 0.481 ms at 2 stages, 0.366 at 3,
/// 0.323 at 4; at 8191x8192x8192 3.700, 2.588, 2.745: docs/results,
/// stage-variants-h100-session24.txt). The tile: the largest that
/// divides M x N and leaves at least `minGrid` blocks (one per SM: a grid of
/// fewer leaves SMs idle), else the dividing one with the most blocks;
/// `minGrid` 0 takes the largest that divides. Failure with an empty `why`:
/// not a candidate (f32, or not that product).
FailureOr<MmaSchedule> tensorCoreScheduleFor(ContractOp c, int64_t minGrid,
                                             int64_t sharedBudget,
                                             int64_t wgmmaBudget,
                                             std::string &why) {
  why.clear();
  Type element = c.getLhs().getType().getElementType();
  ArrayRef<int64_t> lhs = c.getLhsDims(), rhs = c.getRhsDims();
  bool lhsKMajor = lhs == ArrayRef<int64_t>{2, 0};
  if ((!element.isF16() && !element.isBF16()) ||
      c.getResult().getType().getRank() != 2 ||
      (lhs != ArrayRef<int64_t>{0, 2} && !lhsKMajor) ||
      (rhs != ArrayRef<int64_t>{2, 1} && rhs != ArrayRef<int64_t>{1, 2}))
    return failure();
  KernelOp kernel = kernelOf(c);
  auto iface = cast<ComputeOpInterface>(c.getOperation());
  if (soleMotif(kernel) != iface) {
    why = "kernel '" + kernel.getSymName().str() +
          "' holds other motifs (its block size is theirs too)";
    return failure();
  }
  if (!fromOutside(c.getLhs(), kernel) || !fromOutside(c.getRhs(), kernel)) {
    why = "an operand is computed in the kernel (tensor cores read staged "
          "operand tiles)";
    return failure();
  }
  SmallVector<int64_t> e = iface.getIterationExtents();
  const MmaTile &smallest = std::end(kMmaTiles)[-1];
  MmaSchedule s;
  if (e[2] % kMmaMinK) {
    why = "its contracted extent " + std::to_string(e[2]) +
          " is not a multiple of the tensor-core step of k, " +
          std::to_string(kMmaMinK) + " (partial k steps are not supported)";
    return failure();
  }
  // cp.async copies 16 aligned bytes: the rows of B [k, j] are N elements,
  // those of A [k, i] M.
  int64_t perChunk = 128 / element.getIntOrFloatBitWidth();
  bool rhsKMajor = rhs == ArrayRef<int64_t>{2, 1};
  for (auto [kMajor, operand, dims, extent] :
       {std::make_tuple(rhsKMajor, "second", "[k, j]", e[1]),
        std::make_tuple(lhsKMajor, "first", "[k, i]", e[0])})
    if (kMajor && extent % perChunk) {
      why = std::string("its ") + operand + " operand is indexed " + dims +
            " with rows of " + std::to_string(extent) +
            " elements, not a multiple of 16 bytes (" +
            std::to_string(perChunk) +
            " elements), which cp.async copies at a time";
      return failure();
    }
  MLIRContext *ctx = c.getContext();
  auto tile = [&](ArrayRef<Level> levels, ArrayRef<int64_t> sizes) {
    return Attribute(TileAttr::get(ctx, levels, sizes));
  };
  auto blocks = [](int64_t extent, int64_t tile) -> int64_t {
    return (extent + tile - 1) / tile;
  };
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  // On sm_90a (wgmmaBudget > 0): wgmma (B [j, k] K-major, or B [k, j]
  // read transposed) where K is a multiple of 64 and a wgmma tile leaves
  // minGrid blocks; the tile as
  // below among kWgmmaTiles, 4 stages (3, 2) where they fit wgmmaBudget.
  if (wgmmaBudget > 0) {
    auto wgmmaStageBytes = [&](const WgmmaTile &t) {
      return (t.rows + t.cols) * kWgmmaStepK * elementBytes;
    };
    auto wgmmaPadded = [&](const WgmmaTile &t) {
      return paddedExtent(e[0], t.rows) * paddedExtent(e[1], t.cols);
    };
    int64_t least = std::numeric_limits<int64_t>::max();
    for (const WgmmaTile &t : kWgmmaTiles)
      least = std::min(least, wgmmaPadded(t));
    const WgmmaTile *pick = nullptr;
    for (const WgmmaTile &t : kWgmmaTiles)
      if (withinPaddingRule(wgmmaPadded(t), least) &&
          2 * wgmmaStageBytes(t) + kWgmmaAlignReserve <= wgmmaBudget &&
          blocks(e[0], t.rows) * blocks(e[1], t.cols) >= minGrid) {
        pick = &t;
        break;
      }
    if (lhsKMajor)
      s.notWgmma = "its first operand is indexed [k, i] (A^T as stored): "
                   "wgmma reads A K-major ([i, k]) here; mma.sync reads it "
                   "with ldmatrix .trans";
    else if (e[2] % kWgmmaStepK)
      s.notWgmma = "its contracted extent " + std::to_string(e[2]) +
                   " is not a multiple of wgmma's staged step of k, " +
                   std::to_string(kWgmmaStepK);
    else if (!pick)
      s.notWgmma = "no wgmma tile (64 or 128 rows by 64, 128 or 256 columns) "
                   "within 1/8 of the least padding leaves mma-min-grid=" +
                   std::to_string(minGrid) + " blocks with two stages in " +
                   std::to_string(wgmmaBudget) + " shared bytes";
    if (s.notWgmma.empty()) {
      s.shape = pick->shape();
      s.tile = {pick->rows, pick->cols};
      s.threads = 32 * pick->warps();
      s.kStep = kWgmmaStepK;
      s.grid = blocks(e[0], pick->rows) * blocks(e[1], pick->cols);
      s.partial = e[0] % pick->rows || e[1] % pick->cols;
      s.stages = 2;
      for (int64_t n : {4, 3})
        if (n * wgmmaStageBytes(*pick) + kWgmmaAlignReserve <= wgmmaBudget) {
          s.stages = n;
          break;
        }
      s.mapping = {
          tile({Level::Block, Level::Thread, Level::Seq, Level::Thread},
               {0, pick->warps(), 2, 8}),
          tile({Level::Block, Level::Seq, Level::Thread, Level::Seq},
               {0, pick->cols / 8, 4, 2}),
          tile({Level::Seq, Level::Seq}, {0, kWgmmaStepK})};
      return s;
    }
  }
  // The tiles that cover M x N: those that divide it where M x N is a
  // multiple of the smallest tile; else every tile, the last block of a dim
  // partial (its rows or columns past the extent masked), among those whose
  // padded area is within 1/8 of the least padded tile's.
  s.partial = e[0] % smallest.rows || e[1] % smallest.cols;
  auto padded = [&](const MmaTile &t) {
    return paddedExtent(e[0], t.rows) * paddedExtent(e[1], t.cols);
  };
  int64_t leastPadded = std::numeric_limits<int64_t>::max();
  for (const MmaTile &t : kMmaTiles)
    leastPadded = std::min(leastPadded, padded(t));
  // One stage of both operand tiles (unpadded: XOR-swizzled or one chunk
  // wide) must fit the shared budget.
  s.kStep = e[2] % 32 == 0 ? 32 : kMmaMinK;
  auto stageBytes = [&](const MmaTile &t) {
    return (t.rows + t.cols) * s.kStep * elementBytes;
  };
  auto covers = [&](const MmaTile &t) {
    if (stageBytes(t) > sharedBudget)
      return false;
    if (!s.partial)
      return e[0] % t.rows == 0 && e[1] % t.cols == 0;
    return withinPaddingRule(padded(t), leastPadded);
  };
  auto gridOf = [&](const MmaTile &t) {
    return blocks(e[0], t.rows) * blocks(e[1], t.cols);
  };
  const MmaTile *pick = nullptr, *most = nullptr;
  for (const MmaTile &t : kMmaTiles) {
    if (!covers(t))
      continue;
    if (gridOf(t) >= minGrid) {
      pick = &t;
      break;
    }
    if (!most || gridOf(t) > gridOf(*most))
      most = &t;
  }
  if (!pick && !most) {
    why = "one stage of its smallest operand tiles (" +
          std::to_string(smallest.rows) + "x" + std::to_string(s.kStep) +
          " and " + std::to_string(s.kStep) + "x" +
          std::to_string(smallest.cols) + ") takes " +
          std::to_string(stageBytes(smallest)) +
          " shared bytes, over the budget (" + std::to_string(sharedBudget) +
          ")";
    return failure();
  }
  s.underfilled = !pick;
  s.tile = pick ? *pick : *most;
  s.grid = gridOf(s.tile);
  s.stages = 3 * stageBytes(s.tile) <= sharedBudget   ? 3
             : 2 * stageBytes(s.tile) <= sharedBudget ? 2
                                                      : 1;
  // The k step: the largest of 256, 128, 64 that divides K and whose three
  // stages still fit the budget, so a small tile keeps as many bytes in
  // flight as the 128x128 tile's 32-wide steps (3 x 16 KiB at bf16). On an
  // H100 (docs/results/kstep-variants-h100-session25.txt), 16x16 tiles:
  // 1x4096x4096 0.064 ms at 32 -> 0.030 at 256, 16x4096x4096 0.054 ->
  // 0.025, 4096x16x4096 0.054 -> 0.022, 256x256x4096 0.041 -> 0.014,
  // 77x768x768 0.011 -> 0.006; 32x32 at 512^3 0.009 -> 0.007 (128); 64x64
  // at 1024^3 0.018 -> 0.014 (64). Every larger step was faster or equal.
  if (s.stages == 3)
    for (int64_t k : {256, 128, 64}) {
      if (k <= s.kStep || e[2] % k)
        continue;
      if (3 * (s.tile.rows + s.tile.cols) * k * elementBytes <= sharedBudget) {
        s.kStep = k;
        break;
      }
    }
  s.threads = s.tile.threads();
  int64_t w = s.tile.warps(), m2 = 2 * s.tile.mTiles();
  s.mapping = {
      w == 1 ? tile({Level::Block, Level::Seq, Level::Thread}, {0, m2, 8})
             : tile({Level::Block, Level::Thread, Level::Seq, Level::Thread},
                    {0, w, m2, 8}),
      s.tile.nTiles() == 1
          ? tile({Level::Block, Level::Thread, Level::Seq}, {0, 4, 2})
          : tile({Level::Block, Level::Seq, Level::Thread, Level::Seq},
                 {0, s.tile.nTiles(), 4, 2}),
      tile({Level::Seq, Level::Seq}, {0, s.kStep})};
  return s;
}

/// Sets the tensor-core schedule (mapping, `mma m16n8k16 stages(n)`, the
/// tile's threads); undone (false) when the verifier refuses it.
bool tryTensorCoreSchedule(ContractOp c, const MmaSchedule &s) {
  MLIRContext *ctx = c.getContext();
  c.setMmaAttr(MmaShapeAttr::get(ctx, s.shape));
  c.setMmaStagesAttr(IntegerAttr::get(IntegerType::get(ctx, 64), s.stages));
  if (trySchedule(cast<ComputeOpInterface>(c.getOperation()),
                  ArrayAttr::get(ctx, s.mapping), s.threads))
    return true;
  c.removeMmaAttr();
  c.removeMmaStagesAttr();
  return false;
}

} // namespace

int64_t mlir::motif::applyDefaultSchedules(func::FuncOp func, Equivalence cap,
                                           Equivalence &applied,
                                           int64_t mmaMinGrid,
                                           int64_t sharedBudget,
                                           int64_t wgmmaBudget) {
  SmallVector<ContractOp> contracts;
  func.walk([&](ContractOp c) {
    if (kernelOf(c) && !hasNest(c.getMapping()))
      contracts.push_back(c);
  });
  int64_t n = 0;
  for (ContractOp c : contracts) {
    KernelOp kernel = kernelOf(c);
    // f16/bf16 matrix products: tensor cores where the cap admits their
    // class, else (or where the shape does not fit) the fma schedule below.
    std::string why;
    FailureOr<MmaSchedule> mma =
        tensorCoreScheduleFor(c, mmaMinGrid, sharedBudget, wgmmaBudget, why);
    if (succeeded(mma) && cap < Equivalence::Tolerance) {
      c.emitRemark() << "not on tensor cores: the contraction of kernel '"
                     << kernel.getSymName() << "' could run as "
                     << (isWgmma(mma->shape) ? "wgmma.mma_async " : "mma.sync ")
                     << stringifyMmaShape(mma->shape)
                     << ", which sums each "
                        "16-wide step of k its own way (class tolerance), "
                        "and the equivalence cap is '"
                     << stringifyEquivalence(cap) << "'";
    } else if (succeeded(mma)) {
      std::string was = mappingText(llvm::to_vector(c.getMapping()));
      if (tryTensorCoreSchedule(c, *mma)) {
        SmallVector<int64_t> e =
            cast<ComputeOpInterface>(c.getOperation()).getIterationExtents();
        InFlightDiagnostic d = c.emitRemark();
        d << "default schedule: the contraction of kernel '"
          << kernel.getSymName() << "' (" << e[0] << "x" << e[1] << "x" << e[2]
          << ") runs on tensor cores: " << was << " -> "
          << mappingText(mma->mapping) << " mma "
          << stringifyMmaShape(mma->shape) << " stages(" << mma->stages
          << "), threads(" << mma->threads << "); a " << mma->tile.rows << "x"
          << mma->tile.cols << " tile a block, " << mma->grid << " blocks (";
        StringRef among =
            mma->partial ? " within 1/8 of the least padding" : "";
        if (mma->underfilled)
          d << "no tile" << among << " leaves mma-min-grid=" << mmaMinGrid
            << " blocks: the one with the most";
        else if (mmaMinGrid > 0)
          d << "the largest tile" << among
            << " that leaves mma-min-grid=" << mmaMinGrid;
        else
          d << "the largest tile" << (mma->partial ? among : " that divides");
        if (mma->partial)
          d << "; the last block of a dim partial, its rows and columns "
               "past "
            << e[0] << "x" << e[1] << " masked";
        d << ")";
        if (isWgmma(mma->shape))
          d << "; on wgmma (sm_90a): " << mma->threads / 128
            << (mma->threads > 128 ? " warpgroups" : " warpgroup")
            << " of one m64 tile, k in steps of " << kWgmmaStepK << " through "
            << mma->stages
            << " stages of 128-byte swizzled tiles in dynamic shared memory";
        else if (!mma->notWgmma.empty())
          d << "; not on wgmma: " << mma->notWgmma;
        d << "; class tolerance (the instruction sums each 16-wide step of "
             "k its own way)";
        d.report();
        if (applied < Equivalence::Tolerance)
          applied = Equivalence::Tolerance;
        ++n;
        SmallVector<Attribute> resultMapping{mma->mapping[0], mma->mapping[1]};
        n += propagateFrom(c.getResult(), kernel, resultMapping, mma->threads);
        continue;
      }
      c.emitRemark() << "not on tensor cores: the verifier refuses "
                     << mappingText(mma->mapping) << " mma "
                     << stringifyMmaShape(mma->shape) << " for the "
                     << "contraction of kernel '" << kernel.getSymName() << "'";
    } else if (!why.empty()) {
      c.emitRemark() << "not on tensor cores: the contraction of kernel '"
                     << kernel.getSymName() << "': " << why;
    }
    FailureOr<SmallVector<Attribute>> mapping = scheduleFor(c, why);
    if (failed(mapping)) {
      if (why.empty())
        continue;
      c.emitRemark() << "default schedule not applied to the contraction of "
                        "kernel '"
                     << kernel.getSymName() << "': " << why;
      continue;
    }
    auto iface = cast<ComputeOpInterface>(c.getOperation());
    SmallVector<int64_t> extents = iface.getIterationExtents();
    std::string was = mappingText(llvm::to_vector(c.getMapping()));
    // The written fold order: sequential keeps the bits, a tree does not.
    bool sequential = llvm::all_of(iface.getReductionIterationDims(),
                                   [&](int64_t d) {
                                     return iface.getLevel(d) == Level::Seq;
                                   });
    if (!sequential && cap < Equivalence::Tolerance) {
      c.emitRemark() << "default schedule not applied to the contraction of "
                        "kernel '"
                     << kernel.getSymName() << "': " << was
                     << " reduces across threads; the tiled schedule folds "
                        "sequentially, another order (class tolerance), and "
                        "the equivalence cap is '"
                     << stringifyEquivalence(cap) << "'";
      continue;
    }
    if (!trySchedule(iface, ArrayAttr::get(c.getContext(), *mapping))) {
      c.emitRemark() << "default schedule not applied to the contraction of "
                        "kernel '"
                     << kernel.getSymName() << "': the verifier refuses "
                     << mappingText(*mapping);
      continue;
    }
    std::string shape;
    for (auto [d, e] : llvm::enumerate(extents))
      shape += (d ? "x" : "") + std::to_string(e);
    // The output tile's dims (the last two result dims): partial when
    // kGrid does not divide one.
    SmallVector<int64_t> resultDims = iface.getResultIterationDims();
    int64_t ti = extents[resultDims[resultDims.size() - 2]],
            tj = extents[resultDims.back()];
    bool partialTiles = ti % kGrid != 0 || tj % kGrid != 0;
    std::string outputShape = std::to_string(ti) + "x" + std::to_string(tj);
    c.emitRemark() << "default schedule: the contraction of kernel '"
                   << kernel.getSymName() << "' (" << shape
                   << ") states no tiles: " << was << " -> "
                   << mappingText(*mapping) << ", threads(" << kThreads
                   << "); "
                   << (partialTiles ? "the last block of a dim partial, its "
                                      "rows and columns past " +
                                          outputShape + " masked; "
                                    : std::string())
                   << (sequential ? "bitwise (the contracted dim still folds "
                                    "k = 0, 1, ...)"
                                  : "class tolerance (the contracted dim "
                                    "folds sequentially, not in the written "
                                    "tree)")
                   << "; a mapping with a tile nest is never changed"
                   << (isF32MatrixProduct(c)
                           ? "; f32 operands stay on fma: tf32 tensor cores "
                             "(`mma m16n8k8`) round them and are opt-in only"
                           : "");
    if (!sequential && applied < Equivalence::Tolerance)
      applied = Equivalence::Tolerance;
    ++n;
    SmallVector<Attribute> resultMapping;
    for (int64_t d : iface.getResultIterationDims())
      resultMapping.push_back((*mapping)[d]);
    n += propagateFrom(c.getResult(), kernel, resultMapping);
  }
  return n;
}

int64_t mlir::motif::remarkTensorCores(func::FuncOp func) {
  int64_t n = 0;
  func.walk([&](ContractOp c) {
    KernelOp kernel = kernelOf(c);
    if (!kernel)
      return;
    Type element = c.getLhs().getType().getElementType();
    std::string why;
    FailureOr<MmaTiling> t = mmaTilingOf(c, why);
    if (!c.getMma()) {
      // Only products the instruction could take are worth a word.
      if ((element.isF16() || element.isBF16()) && succeeded(t))
        c.emitRemark() << "the contraction of kernel '" << kernel.getSymName()
                       << "' maps its result in the mma.sync m16n8k16 "
                          "accumulator layout but does not state `mma "
                          "m16n8k16`: it runs on fma (tensor cores are "
                          "opt-in: they change the sum over each 16-wide step "
                          "of k, class tolerance)";
      else if (element.isF32() &&
               succeeded(mmaTilingOf(c, why, MmaShape::M16N8K8)))
        c.emitRemark() << "the contraction of kernel '" << kernel.getSymName()
                       << "' maps its result in the mma.sync m16n8k8 "
                          "accumulator layout but does not state `mma "
                          "m16n8k8`: its f32 operands stay on fma (tf32 is "
                          "opt-in: it rounds the operands to 10-bit "
                          "significands and changes the sum over each 8-wide "
                          "step of k, class tolerance)";
      return;
    }
    if (failed(t))
      return; // the verifier refuses it
    ++n;
    if (t->wgmma()) {
      c.emitRemark() << "the contraction of kernel '" << kernel.getSymName()
                     << "' runs on tensor cores: " << describeMma(c)
                     << " (nvvm.wgmma.mma_async, sm_90a); " << t->warps / 4
                     << " warpgroup" << (t->warps > 4 ? "s" : "")
                     << " of one m64 x " << t->nTiles * 8 << " tile ("
                     << t->accumulators() << " f32 registers per thread), a "
                     << t->blockRows << "x" << t->blockCols
                     << " tile per block; k in " << t->kSteps << " steps of "
                     << t->kStep
                     << " staged by cp.async in the 128-byte swizzle through "
                     << t->stages() << " stage" << (t->stages() > 1 ? "s" : "")
                     << ", read by matrix descriptors (A [i, k], B "
                     << (t->rhsKMajor ? "[k, j] transposed, in 64-column "
                                        "atoms"
                                      : "[j, k]")
                     << "); class tolerance against the fma form (the "
                        "instruction sums each 16-wide step of k its own way)";
      return;
    }
    StringRef via = t->tf32()          ? "nvgpu.mma.sync tf32Enabled, the "
                                         "operands rounded by "
                                         "cvt.rna.tf32.f32"
                    : element.isBF16() ? "nvvm.mma.sync"
                                       : "nvgpu.mma.sync";
    StringRef fragments = !t->tf32()     ? "fragments by ldmatrix"
                          : t->rhsKMajor ? "A fragments by ldmatrix, B by "
                                           "32-bit loads"
                                         : "fragments by ldmatrix of b16 "
                                           "pairs";
    c.emitRemark()
        << "the contraction of kernel '" << kernel.getSymName()
        << "' runs on tensor cores: " << describeMma(c) << " (" << via << "); "
        << t->warps << " warp" << (t->warps > 1 ? "s" : "")
        << (t->warpsN > 1 ? " (" + std::to_string(t->warpsM) + " x " +
                                std::to_string(t->warpsN) + ")"
                          : std::string())
        << " of " << t->mTiles << " x " << t->nTiles
        << " m16n8 accumulator tiles (" << t->accumulators()
        << " f32 registers per thread), a " << t->blockRows << "x"
        << t->blockCols << " tile per block; k in " << t->kSteps << " steps of "
        << t->kStep << " staged by cp.async through " << t->stages() << " stage"
        << (t->stages() > 1 ? "s" : "") << ", " << fragments << " ("
        << (t->lhsKMajor ? "A [k, i], .trans; " : "") << "B "
        << (t->rhsKMajor ? (t->tf32() ? "[k, j]" : "[k, j], .trans") : "[j, k]")
        << "); class tolerance against the fma form (the "
           "instruction sums each "
        << t->instrK() << "-wide step of k its own way"
        << (t->tf32() ? " and multiplies the operands rounded to "
                        "tf32, 2^-10 relative per product"
                      : "")
        << ")";
  });
  return n;
}
