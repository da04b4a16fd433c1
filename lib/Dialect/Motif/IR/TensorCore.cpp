//===- TensorCore.cpp - contractions on tensor cores ----------------------===//
//
// What a contraction must look like to run as mma.sync m16n8k16 or m16n8k8
// (motif/Dialect/Motif/IR/TensorCore.h): the verifier asks it of every
// `mma` contraction, the default schedules before choosing one.
//
//===----------------------------------------------------------------------===//
#include "motif/Dialect/Motif/IR/TensorCore.h"

#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::motif;

std::string mlir::motif::describeMapping(ComputeOpInterface op, unsigned d) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (TileAttr tile = op.getTile(d)) {
    llvm::interleave(
        llvm::zip(tile.getLevels(), tile.getSizes()), os,
        [&](auto ls) {
          auto [l, size] = ls;
          os << stringifyLevel(l);
          if (size)
            os << "(" << size << ")";
        },
        " x ");
    return s;
  }
  os << stringifyLevel(op.getLevel(d));
  return s;
}

namespace {
/// A dim's nest as (level, size) pairs with every size resolved.
struct Nest {
  SmallVector<Level> levels;
  SmallVector<int64_t> sizes;
};
} // namespace

static Nest nestOf(ComputeOpInterface op, unsigned d, int64_t extent) {
  Nest n;
  if (TileAttr tile = op.getTile(d)) {
    n.levels.assign(tile.getLevels().begin(), tile.getLevels().end());
    n.sizes = tile.resolvedSizes(extent);
    return n;
  }
  n.levels.push_back(op.getLevel(d));
  n.sizes.push_back(extent);
  return n;
}

std::string mlir::motif::describeMma(ContractOp op) {
  MmaShape shape = op.getMma().value_or(MmaShape::M16N8K16);
  Type element = op.getLhs().getType().getElementType();
  std::string s;
  llvm::raw_string_ostream os(s);
  os << (isWgmma(shape) ? "wgmma.mma_async " : "mma.sync ")
     << stringifyMmaShape(shape) << ", ";
  if (shape == MmaShape::M16N8K8)
    os << "tf32 x tf32 -> f32";
  else
    os << element << " x " << element << " -> f32";
  return s;
}

FailureOr<MmaTiling> mlir::motif::mmaTilingOf(ContractOp op, std::string &why,
                                              std::optional<MmaShape> shape) {
  MmaTiling t;
  t.shape = shape ? *shape : op.getMma().value_or(MmaShape::M16N8K16);
  Type element = op.getLhs().getType().getElementType();
  if (t.tf32() && !element.isF32()) {
    llvm::raw_string_ostream(why)
        << "its operands hold " << element
        << ": mma.sync m16n8k8 multiplies f32 operands rounded to tf32 (into "
           "f32); f16 and bf16 take `mma m16n8k16`";
    return failure();
  }
  if (!t.tf32() && !element.isF16() && !element.isBF16()) {
    llvm::raw_string_ostream(why)
        << "its operands hold " << element
        << ": mma.sync m16n8k16 multiplies f16 or bf16 (into f32)";
    return failure();
  }
  ArrayRef<int64_t> lhs = op.getLhsDims(), rhs = op.getRhsDims();
  bool kMajor = rhs == ArrayRef<int64_t>{2, 1};
  bool lhsKMajor = lhs == ArrayRef<int64_t>{2, 0};
  if (op.getResult().getType().getRank() != 2 ||
      (lhs != ArrayRef<int64_t>{0, 2} && !lhsKMajor) ||
      (!kMajor && rhs != ArrayRef<int64_t>{1, 2})) {
    why = "it is not a matrix product C[i, j] = sum_k A[i, k] B[k, j] (A "
          "may be indexed [k, i], B [j, k]): mma.sync takes rank-2 operands, "
          "the rows of C from the first and one contracted dim";
    return failure();
  }
  if (lhsKMajor && (t.tf32() || t.wgmma())) {
    why = std::string("its first operand is indexed [k, i] (A^T as "
                      "stored), which ") +
          (t.tf32() ? "mma m16n8k8 (tf32) does not read: ldmatrix .trans "
                      "moves 16-bit elements"
                    : "wgmma does not read here: its A is K-major ([i, k]); "
                      "`mma m16n8k16` reads A [k, i] with ldmatrix .trans");
    return failure();
  }
  SmallVector<int64_t> extents = op.getIterationExtents();
  t.rhsKMajor = kMajor;
  t.lhsKMajor = lhsKMajor;

  // i: [block x] [thread(w) x | warp(w) x] seq(2m) x thread(8).
  Nest i = nestOf(op, 0, extents[0]);
  {
    size_t p = 0, n = i.levels.size();
    t.blockRows = extents[0];
    if (p < n && i.levels[p] == Level::Block && n > 1) {
      // The inner levels' product (the last block may be partial).
      ++p;
      t.blockRows = 1;
      for (int64_t size : ArrayRef<int64_t>(i.sizes).drop_front(p))
        t.blockRows *= size;
    }
    if (p < n &&
        (i.levels[p] == Level::Thread || i.levels[p] == Level::Warp) &&
        n - p == 3)
      t.warpsM = i.sizes[p++];
    bool ok = n - p == 2 && i.levels[p] == Level::Seq && i.sizes[p] % 2 == 0 &&
              i.levels[p + 1] == Level::Thread && i.sizes[p + 1] == 8;
    if (!ok) {
      why = "dim 'i' is mapped `" + describeMapping(op, 0) +
            "`; the rows of m16n8 accumulators are `[block x] [thread(w) x | "
            "warp(w) x] seq(2m) x thread(8)`: the warps, the 16-row tiles of "
            "a warp (two 8-row halves each), the 8 row groups of a warp's "
            "lanes";
      return failure();
    }
    t.mTiles = i.sizes[p] / 2;
  }
  // j: [block x] [warp(w) x] [seq(n) x] thread(4) x seq(2).
  Nest j = nestOf(op, 1, extents[1]);
  {
    size_t p = 0, n = j.levels.size();
    t.blockCols = extents[1];
    if (p < n && j.levels[p] == Level::Block && n > 1) {
      // The inner levels' product (the last block may be partial).
      ++p;
      t.blockCols = 1;
      for (int64_t size : ArrayRef<int64_t>(j.sizes).drop_front(p))
        t.blockCols *= size;
    }
    if (p < n && j.levels[p] == Level::Warp && n - p >= 3)
      t.warpsN = j.sizes[p++];
    if (p < n && j.levels[p] == Level::Seq && n - p == 3)
      t.nTiles = j.sizes[p++];
    bool ok = n - p == 2 && j.levels[p] == Level::Thread &&
              j.sizes[p] == 4 && j.levels[p + 1] == Level::Seq &&
              j.sizes[p + 1] == 2;
    if (!ok) {
      why = "dim 'j' is mapped `" + describeMapping(op, 1) +
            "`; the columns of m16n8 accumulators are `[block x] [warp(w) x] "
            "[seq(n) x] thread(4) x seq(2)`: the warps along j, the 8-column "
            "tiles of a warp, the 4 column pairs of a warp's lanes";
      return failure();
    }
  }
  t.warps = t.warpsM * t.warpsN;
  // k: seq x seq(bk), bk a multiple of the instruction's k.
  Nest k = nestOf(op, 2, extents[2]);
  if (k.levels.size() != 2 || k.sizes[1] % t.instrK() != 0) {
    why = "dim 'k' is mapped `" + describeMapping(op, 2) +
          "`; tensor cores walk k in staged steps `seq x seq(bk)`, bk a "
          "multiple of the instruction's " + std::to_string(t.instrK());
    return failure();
  }
  t.kStep = k.sizes[1];
  t.kSteps = k.sizes[0];
  if (std::optional<int64_t> stages = op.getMmaStages()) {
    if (*stages < 1 || *stages > kMaxMmaStages) {
      why = "it asks for stages(" + std::to_string(*stages) +
            "): a cp.async pipeline has 1 to " +
            std::to_string(kMaxMmaStages) + " buffers per operand tile";
      return failure();
    }
    t.stagesWanted = *stages;
  }
  if (t.wgmma()) {
    // One m64 x N tile per warpgroup, A K-major and B K-major ([j, k]) or
    // MN-major ([k, j], transposed) in 128-byte swizzled shared tiles
    // (docs/lowering.md, "wgmma on sm_90a").
    int64_t n = mmaShapeN(t.shape);
    if (t.warpsN != 1) {
      why = "dim 'j' is mapped `" + describeMapping(op, 1) +
            "`: each wgmma warpgroup computes all N columns of its m64 tile; "
            "put the warps on 'i' only";
      return failure();
    }
    if (t.mTiles != 1 || t.warps % 4 != 0) {
      why = "dim 'i' is mapped `" + describeMapping(op, 0) +
            "`; the rows of wgmma accumulators are `[block x] thread(w) x "
            "seq(2) x thread(8)`, w a multiple of 4: each warpgroup holds one "
            "m64 tile, each warp 16 rows of it";
      return failure();
    }
    if (t.nTiles * 8 != n) {
      why = "dim 'j' holds " + std::to_string(t.nTiles * 8) +
            " columns per warp (`" + describeMapping(op, 1) +
            "`); wgmma " + stringifyMmaShape(t.shape).str() + " computes " +
            std::to_string(n) + ": `[block x] seq(" + std::to_string(n / 8) +
            ") x thread(4) x seq(2)`";
      return failure();
    }
    if (t.kStep != kWgmmaStepK) {
      why = "dim 'k' is walked in steps of " + std::to_string(t.kStep) +
            "; wgmma reads k in staged steps of " +
            std::to_string(kWgmmaStepK) +
            " (one 128-byte swizzled row of 16-bit elements): `seq x seq(" +
            std::to_string(kWgmmaStepK) + ")`";
      return failure();
    }
  }
  if (t.accumulators() > kMaxMmaAccumulators) {
    why = "each thread would hold " + std::to_string(t.accumulators()) +
          " accumulators (" + std::to_string(t.mTiles) + " x " +
          std::to_string(t.nTiles) + " m16n8 tiles per warp); at most " +
          std::to_string(kMaxMmaAccumulators) + " stay in registers";
    return failure();
  }
  return t;
}
