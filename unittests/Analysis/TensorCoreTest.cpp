//===- TensorCoreTest.cpp - the mma.sync layout in the schedule model -----===//
//
// A tensor-core contraction's mapping states the accumulator layout of
// mma.sync m16n8k16 (motif/Dialect/Motif/IR/TensorCore.h). These tests check
// that the schedule model gives every thread exactly the elements the PTX ISA
// puts in its lane: c0, c1 at (g, 2t), (g, 2t + 1) and c2, c3 at (g + 8, 2t),
// (g + 8, 2t + 1) of each 16x8 tile, g = lane / 4, t = lane % 4, warp tiles
// stacked along i; and that the staged layout a tensor-core reader gets is
// padded by 16 bytes and multi-stage.
//
//===----------------------------------------------------------------------===//
#include "motif/Analysis/Schedule.h"
#include "motif/Dialect/Motif/IR/MotifDialect.h"
#include "motif/Dialect/Motif/IR/MotifOps.h"
#include "motif/Dialect/Motif/IR/TensorCore.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <set>
#include <tuple>

using namespace mlir;
using namespace mlir::motif;

namespace {

constexpr const char *kGemm = R"(
func.func @f(%a: tensor<256x64xbf16>, %b: tensor<64x256xbf16>) -> tensor<256x256xf32> {
  %y = motif.kernel "k" threads(128) -> tensor<256x256xf32> {
    %as = motif.materialize %a in shared : tensor<256x64xbf16>
    %bs = motif.materialize %b in shared : tensor<64x256xbf16>
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x thread(4) x seq(4) x thread(8), block x seq(16) x thread(4) x seq(2), seq x seq(32)]
           mma m16n8k16
           : (tensor<256x64xbf16>, tensor<64x256xbf16>) -> tensor<256x256xf32>
    %g = motif.materialize %p in global : tensor<256x256xf32>
    motif.yield %g : tensor<256x256xf32>
  }
  return %y : tensor<256x256xf32>
}
)";

class TensorCoreTest : public ::testing::Test {
protected:
  TensorCoreTest() {
    context.loadDialect<MotifDialect, func::FuncDialect, arith::ArithDialect>();
    module = parseSourceString<ModuleOp>(kGemm, &context);
    EXPECT_TRUE(module);
    module->walk([&](ContractOp c) { contract = c; });
  }
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  ContractOp contract;
};

TEST_F(TensorCoreTest, Tiling) {
  std::string why;
  FailureOr<MmaTiling> t = mmaTilingOf(contract, why);
  ASSERT_TRUE(succeeded(t)) << why;
  EXPECT_EQ(t->warps, 4);
  EXPECT_EQ(t->mTiles, 2);
  EXPECT_EQ(t->nTiles, 16);
  EXPECT_EQ(t->kStep, 32);
  EXPECT_EQ(t->kSteps, 2);
  EXPECT_EQ(t->blockRows, 128);
  EXPECT_EQ(t->blockCols, 128);
  EXPECT_EQ(t->accumulators(), 128);
  EXPECT_EQ(t->stages(), 2);
  EXPECT_TRUE(t->rhsKMajor);
}

TEST_F(TensorCoreTest, ThreadsOwnTheirLanesAccumulators) {
  MotifSchedule s(cast<ComputeOpInterface>(contract.getOperation()));
  const DimSchedule &i = s.getDim(0), &j = s.getDim(1);
  ASSERT_EQ(i.count, 4);  // 2 m tiles x 2 row halves
  ASSERT_EQ(j.count, 32); // 16 n tiles x 2 columns
  for (int64_t bi = 0; bi < 2; ++bi)
    for (int64_t bj = 0; bj < 2; ++bj) {
      std::set<std::pair<int64_t, int64_t>> seen;
      for (int64_t tid = 0; tid < 128; ++tid) {
        int64_t warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
        for (int64_t ki = 0; ki < i.count; ++ki)
          for (int64_t kj = 0; kj < j.count; ++kj) {
            int64_t row = s.indexOf(0, tid, {bi, bj}, ki);
            int64_t col = s.indexOf(1, tid, {bi, bj}, kj);
            // The fragment: tile (mt, nt), register h * 2 + c.
            int64_t mt = ki / 2, h = ki % 2, nt = kj / 2, c = kj % 2;
            EXPECT_EQ(row, bi * 128 + warp * 32 + mt * 16 + h * 8 + g);
            EXPECT_EQ(col, bj * 128 + nt * 8 + 2 * t + c);
            EXPECT_TRUE(seen.insert({row, col}).second);
          }
      }
      EXPECT_EQ(seen.size(), 128u * 128u); // every element once
    }
}

TEST_F(TensorCoreTest, StagedTilesAreSwizzledAndMultiStage) {
  module->walk([&](MaterializeOp mat) {
    if (mat.getResidency() != Residency::Shared)
      return;
    std::string why;
    FailureOr<SharedLayout> l = stagedLayoutOf(mat, why);
    ASSERT_TRUE(succeeded(l)) << why;
    EXPECT_EQ(l->stages, 2);
    EXPECT_GE(l->steppedDim, 0);
    // Rows of a power of two of 16-byte chunks: unpadded, XOR-swizzled.
    EXPECT_TRUE(l->xorChunks);
    EXPECT_EQ(l->pad, 0);
    int64_t w = l->chunksPerRow();
    ASSERT_GE(w, 2);
    // A bijection on every row, and the 8 rows of an ldmatrix matrix (rows
    // 8q .. 8q + 7, one logical chunk) on 8 different 16-byte bank groups
    // of a 128-byte line.
    for (int64_t r = 0; r < l->shape[0]; ++r) {
      std::set<int64_t> row;
      for (int64_t c = 0; c < w; ++c)
        row.insert(l->physicalChunk(r, c));
      EXPECT_EQ(row.size(), static_cast<size_t>(w));
      EXPECT_EQ(*row.rbegin(), w - 1);
    }
    for (int64_t r0 = 0; r0 + 8 <= l->shape[0]; r0 += 8)
      for (int64_t c = 0; c < w; ++c) {
        std::set<int64_t> groups;
        for (int64_t r = r0; r < r0 + 8; ++r)
          groups.insert((r * w + l->physicalChunk(r, c)) % 8);
        EXPECT_EQ(groups.size(), 8u) << "rows " << r0 << ".., chunk " << c;
      }
    int64_t elements = 1;
    for (int64_t e : l->paddedShape())
      elements *= e;
    EXPECT_EQ(l->bytes, 2 * elements * 2);
  });
}

TEST(SharedLayoutSwizzle, EveryPowerOfTwoRowWidth) {
  // The phase formula for rows of 2 .. 64 chunks (32 bytes .. 1 KiB).
  for (int64_t w = 2; w <= 64; w *= 2) {
    SharedLayout l;
    l.elementBytes = 2;
    l.shape = {64, w * 8};
    l.xorChunks = true;
    ASSERT_EQ(l.chunksPerRow(), w);
    for (int64_t r0 = 0; r0 < 64; r0 += 8)
      for (int64_t c = 0; c < w; ++c) {
        std::set<int64_t> groups;
        for (int64_t r = r0; r < r0 + 8; ++r)
          groups.insert((r * w + l.physicalChunk(r, c)) % 8);
        EXPECT_EQ(groups.size(), 8u) << "w " << w;
      }
  }
}

TEST(OnlineContractMma, WarpsAndTilesOfEveryPair) {
  // Valid exactly where rows = 16 x warps x m-tiles, warps 1, 2, 4 or 8 and
  // threads 32 a warp, m-tiles 1 or 2; every such pair is taken.
  int64_t taken = 0;
  for (int64_t threads = 1; threads <= 1024; ++threads)
    for (int64_t rows = 1; rows <= 512; ++rows) {
      auto [w, mt] = OnlineContractOp::mmaWarpsAndTiles(rows, threads);
      if (!w) {
        EXPECT_EQ(mt, 0);
        continue;
      }
      ++taken;
      EXPECT_EQ(threads, 32 * w) << rows << " " << threads;
      EXPECT_TRUE(w == 1 || w == 2 || w == 4 || w == 8);
      EXPECT_TRUE(mt == 1 || mt == 2);
      EXPECT_EQ(rows, 16 * w * mt);
    }
  EXPECT_EQ(taken, 8); // 4 warp counts x 2 m-tile counts
  for (int64_t rows : {16, 32, 64, 128}) {
    int64_t threads = OnlineContractOp::defaultMmaThreads(rows);
    EXPECT_NE(OnlineContractOp::mmaWarpsAndTiles(rows, threads).first, 0)
        << rows;
  }
  EXPECT_EQ(OnlineContractOp::defaultMmaThreads(48), 0);
}

/// A flash form at D = 128 with THREADS threads and value extent E.
constexpr const char *kFlash = R"(
func.func @f(%q: tensor<4x256x128xbf16>, %k: tensor<4x256x128xbf16>, %v: tensor<4x256xExbf16>) -> tensor<4x256xExbf16> {
  %y = motif.kernel "k" threads(THREADS) -> tensor<4x256xExbf16> {
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125) over [block, block x seq(128), seq, seq, seq]
           : (tensor<4x256x128xbf16>, tensor<4x256x128xbf16>, tensor<4x256xExbf16>) -> tensor<4x256xExbf16>
    %g = motif.materialize %o in global : tensor<4x256xExbf16>
    motif.yield %g : tensor<4x256xExbf16>
  }
  return %y : tensor<4x256xExbf16>
}
)";

/// kFlash at `threads` and value extent `e`, parsed into `module`; its op.
OnlineContractOp parseFlash(MLIRContext &context,
                            OwningOpRef<ModuleOp> &module, int64_t threads,
                            int64_t e) {
  context.loadDialect<MotifDialect, arith::ArithDialect, func::FuncDialect>();
  std::string text = kFlash;
  text.replace(text.find("THREADS"), 7, std::to_string(threads));
  for (size_t at = text.find("xEx"); at != std::string::npos;
       at = text.find("xEx"))
    text.replace(at, 3, "x" + std::to_string(e) + "x");
  module = parseSourceString<ModuleOp>(text, &context);
  OnlineContractOp op;
  if (module)
    module->walk([&](OnlineContractOp o) { op = o; });
  return op;
}

TEST(OnlineContractMma, TheKernelsThreadsDecideTheTiles) {
  // 128 rows at D = E = 128: one warpgroup of 2 m-tiles a warp holds 2 x 128
  // value columns, so its key tiles are 32; two warpgroups of 1 m-tile take
  // key tiles of 64. Both are whole warpgroups: the scores go to wgmma.
  MLIRContext context;
  for (auto [threads, warps, mTiles, keys] :
       {std::make_tuple(128, 4, 2, 32), std::make_tuple(256, 8, 1, 64)}) {
    OwningOpRef<ModuleOp> module;
    OnlineContractOp op = parseFlash(context, module, threads, 128);
    ASSERT_TRUE(op);
    auto [w, mt] = op.getMmaWarpsAndTiles();
    EXPECT_EQ(w, warps);
    EXPECT_EQ(mt, mTiles);
    EXPECT_EQ(op.getKeyTile(), keys);
    EXPECT_EQ(op.getWgmmaScoresN(), std::optional<int64_t>(keys));
    EXPECT_TRUE(op.prefersWgmmaPV());
    EXPECT_FALSE(op.getLoweringLimit(threads).has_value());
    EXPECT_TRUE(op.getLoweringLimit(threads + 32).has_value());
  }
}

TEST(OnlineContractMma, PInRegistersPrefersWgmmaPVAtEveryValueExtent) {
  // online-wgmma-pv=auto: with P in registers (the default lowering) P V
  // goes to wgmma wherever it applies; with P through a shared tile only at
  // a value extent of 128 or more.
  MLIRContext context;
  for (int64_t e : {64, 128}) {
    OwningOpRef<ModuleOp> module;
    OnlineContractOp op = parseFlash(context, module, 256, e);
    ASSERT_TRUE(op) << e;
    ASSERT_EQ(op.getIterationExtents()[op.getValueDim()], e);
    EXPECT_TRUE(op.hasWgmmaPV()) << e;
    EXPECT_TRUE(op.prefersWgmmaPV(/*pInRegisters=*/true)) << e;
    EXPECT_EQ(op.prefersWgmmaPV(/*pInRegisters=*/false), e >= 128) << e;
  }
}
} // namespace
