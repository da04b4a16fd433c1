//===- ScheduleTest.cpp - unit tests of the schedule model ----------------===//
//
// The schedule model (motif/Analysis/Schedule.h) is the one meaning of a
// mapping that the residency analysis, the emitter and the evaluator share;
// these tests pin it down directly: instance indices, coverage, owners, the
// reduction tree, layouts and the legality of residencies.
//
//===----------------------------------------------------------------------===//
#include "motif/Analysis/Schedule.h"
#include "motif/Dialect/Motif/IR/MotifDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

#include <random>
#include <set>

using namespace mlir;
using namespace mlir::motif;

namespace {

class ScheduleTest : public ::testing::Test {
protected:
  ScheduleTest() {
    context.loadDialect<MotifDialect, func::FuncDialect, arith::ArithDialect,
                        math::MathDialect>();
  }

  /// Parses `ir` (a module body) and returns the motifs in program order.
  SmallVector<ComputeOpInterface> parse(StringRef ir) {
    module = parseSourceString<ModuleOp>(ir, &context);
    EXPECT_TRUE(module) << "does not parse:\n" << ir.str();
    SmallVector<ComputeOpInterface> ops;
    if (module)
      module->walk([&](ComputeOpInterface op) { ops.push_back(op); });
    return ops;
  }

  SmallVector<MaterializeOp> materializations() {
    SmallVector<MaterializeOp> mats;
    module->walk([&](MaterializeOp m) { mats.push_back(m); });
    return mats;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

/// A one-kernel function around `body` (which yields %g).
std::string kernel(StringRef args, StringRef result, int64_t threads,
                   StringRef body) {
  return ("func.func @f(" + args + ") -> " + result +
          " {\n  %y = motif.kernel \"k\" threads(" + std::to_string(threads) +
          ") -> " + result + " {\n" + body + "\n    motif.yield %g : " +
          result + "\n  }\n  return %y : " + result + "\n}\n")
      .str();
}

//===----------------------------------------------------------------------===//
// Instances
//===----------------------------------------------------------------------===//

TEST_F(ScheduleTest, ThreadDimTakesRunsOfFour) {
  auto ops = parse(kernel("%x: tensor<8x1024xf32>", "tensor<8x1024xf32>", 256,
                          R"(
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<8x1024xf32>) -> tensor<8x1024xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<8x1024xf32>)"));
  ASSERT_EQ(ops.size(), 1u);
  MotifSchedule s(ops[0]);
  const DimSchedule &j = s.getDim(1);
  EXPECT_EQ(j.level, Level::Thread);
  EXPECT_EQ(j.parallel, 256);
  EXPECT_EQ(j.count, 4);
  EXPECT_EQ(j.vector, 4);
  EXPECT_FALSE(j.partial);
  // Thread 1 takes elements 4..7 of the row (one 128-bit access).
  EXPECT_EQ(s.indexOf(1, /*tid=*/1, {5}, 0), 4);
  EXPECT_EQ(s.indexOf(1, 1, {5}, 3), 7);
  // The row is the block coordinate.
  EXPECT_EQ(s.indexOf(0, 1, {5}, 0), 5);
  EXPECT_EQ(s.getGridExtents(), SmallVector<int64_t>{8});
}

/// In a function with half tensors the runs are 8 long where the dim
/// divides evenly, else 4, else none; an f32 function keeps runs of 4. The
/// run length is the function's: an f32 motif of a bf16 function takes 8.
TEST_F(ScheduleTest, HalfFunctionsTakeRunsOfEight) {
  auto runOf = [&](StringRef elem, int64_t n, StringRef mapElem) {
    std::string t = ("tensor<8x" + std::to_string(n) + "x" + elem + ">").str();
    std::string u = ("tensor<8x" + std::to_string(n) + "x" + mapElem + ">").str();
    std::string body =
        "    %m = motif.map (%c[i, j]) -> [i, j] over [block, thread] : (" + u +
        ") -> " + u + " {\n    ^bb0(%a: " + mapElem.str() +
        "):\n      motif.yield %a : " + mapElem.str() +
        "\n    }\n    %g = motif.materialize %m in global : " + u;
    // %c: the map's own operand, a constant-free copy of the argument's
    // shape in the map's element type.
    std::string ir = "func.func @f(%x: " + t + ", %c: " + u + ") -> " + u +
                     " {\n  %y = motif.kernel \"k\" threads(256) -> " + u +
                     " {\n" + body + "\n    motif.yield %g : " + u +
                     "\n  }\n  return %y : " + u + "\n}\n";
    auto ops = parse(ir);
    EXPECT_EQ(ops.size(), 1u);
    return ops.empty() ? int64_t(-1) : MotifSchedule(ops[0]).getDim(1).vector;
  };
  EXPECT_EQ(runOf("bf16", 4096, "bf16"), 8);
  EXPECT_EQ(runOf("f16", 4096, "f16"), 8);
  EXPECT_EQ(runOf("bf16", 1024, "bf16"), 4); // 1024 = 4 x 256
  EXPECT_EQ(runOf("bf16", 512, "bf16"), 1);  // 2 per thread
  EXPECT_EQ(runOf("bf16", 4096, "f32"), 8);  // the function's run length
  EXPECT_EQ(runOf("f32", 4096, "f32"), 4);
}

/// For every parallel level, extent and block size: the instances of all
/// threads cover [0, extent) exactly once, and `partial` says whether some
/// instance falls past the end.
TEST_F(ScheduleTest, ParallelDimsCoverTheirExtentOnce) {
  std::mt19937_64 rng(1234);
  const Level levels[] = {Level::Thread, Level::Warp, Level::Lane};
  const char *names[] = {"thread", "warp", "lane"};
  for (int trial = 0; trial < 60; ++trial) {
    unsigned li = rng() % 3;
    int64_t threads = std::vector<int64_t>{1, 7, 32, 64, 96, 256, 1024}[rng() % 7];
    int64_t extent = std::vector<int64_t>{1, 3, 31, 32, 33, 100, 128, 1000,
                                          4096}[rng() % 9];
    std::string t = "tensor<" + std::to_string(extent) + "xf32>";
    auto ops = parse(kernel("%x: " + t, t, threads,
                            "    %m = motif.map (%x[i]) -> [i] over [" +
                                std::string(names[li]) + "] : (" + t +
                                ") -> " + t +
                                " {\n    ^bb0(%a: f32):\n      motif.yield "
                                "%a : f32\n    }\n    %g = "
                                "motif.materialize %m in global : " +
                                t));
    ASSERT_EQ(ops.size(), 1u);
    MotifSchedule s(ops[0]);
    const DimSchedule &d = s.getDim(0);
    ASSERT_EQ(d.level, levels[li]);
    // Distinct selves of the level: each owns count instances.
    std::set<int64_t> selves;
    for (int64_t tid = 0; tid < threads; ++tid)
      selves.insert(s.selfOf(0, tid, {}));
    EXPECT_EQ(static_cast<int64_t>(selves.size()), d.parallel);
    std::multiset<int64_t> seen;
    bool past = false;
    for (int64_t self : selves)
      for (int64_t k = 0; k < d.count; ++k) {
        int64_t i = d.index(self, k);
        if (i >= d.extent)
          past = true;
        else
          seen.insert(i);
      }
    EXPECT_EQ(static_cast<int64_t>(seen.size()), extent)
        << names[li] << " extent " << extent << " threads " << threads;
    for (int64_t i = 0; i < extent; ++i)
      EXPECT_EQ(seen.count(i), 1u) << "index " << i;
    EXPECT_EQ(past, d.partial);
  }
}

/// A random tile nest of `extent` over block, thread and seq levels whose
/// thread sizes multiply to `threads`, written as in `over [...]`.
static std::string randomNest(std::mt19937_64 &rng, int64_t extent,
                              int64_t threads, int64_t &blocks) {
  // extent = block * (thread and seq levels, in a random order).
  int64_t inner = extent / threads; // the seq part
  blocks = 1;
  SmallVector<std::pair<std::string, int64_t>> levels;
  SmallVector<int64_t> seqs, thr;
  for (int64_t f = inner; f > 1;) {
    int64_t p = (f % 2 == 0 && rng() % 2) ? 2 : f;
    if (rng() % 3 == 0 && blocks == 1) {
      blocks = p;
    } else {
      seqs.push_back(p);
    }
    f /= p;
  }
  for (int64_t f = threads; f > 1;) {
    int64_t p = (f % 4 == 0 && rng() % 2) ? 4 : f;
    thr.push_back(p);
    f /= p;
  }
  for (int64_t q : seqs)
    levels.push_back({"seq", q});
  for (int64_t q : thr)
    levels.push_back({"thread", q});
  std::shuffle(levels.begin(), levels.end(), rng);
  std::string out;
  if (blocks > 1)
    out = "block(" + std::to_string(blocks) + ")";
  for (auto &[n, q] : levels)
    out += (out.empty() ? "" : " x ") + n + "(" + std::to_string(q) + ")";
  if (out.empty())
    out = "seq(1)";
  return out;
}

TEST_F(ScheduleTest, TileNestsCoverTheirExtentOnce) {
  // Every element of a tiled dim is computed by exactly one (block, thread,
  // instance), for random nests (docs/dialect.md, "Tiles").
  std::mt19937_64 rng(4321);
  for (int trial = 0; trial < 80; ++trial) {
    int64_t threads = std::vector<int64_t>{1, 2, 32, 64, 128}[rng() % 5];
    int64_t extent = threads * std::vector<int64_t>{1, 2, 3, 4, 6, 8, 12}[rng() % 7];
    int64_t blocks = 1;
    std::string nest = randomNest(rng, extent, threads, blocks);
    std::string t = "tensor<" + std::to_string(extent) + "xf32>";
    auto ops = parse(kernel("%x: " + t, t, threads,
                            "    %m = motif.map (%x[i]) -> [i] over [" + nest +
                                "] : (" + t + ") -> " + t +
                                " {\n    ^bb0(%a: f32):\n      motif.yield "
                                "%a : f32\n    }\n    %g = "
                                "motif.materialize %m in global : " +
                                t));
    ASSERT_EQ(ops.size(), 1u) << nest;
    MotifSchedule s(ops[0]);
    const DimSchedule &d = s.getDim(0);
    ASSERT_TRUE(d.isTiled());
    EXPECT_EQ(s.describeDim(0), nest);
    SmallVector<int64_t> grid = s.getGridExtents();
    EXPECT_EQ(grid.size(), blocks > 1 ? 1u : (d.blockTile() ? 1u : 0u));
    std::multiset<int64_t> seen;
    for (int64_t blk = 0; blk < blocks; ++blk)
      for (int64_t tid = 0; tid < threads; ++tid)
        for (int64_t k = 0; k < d.count; ++k) {
          SmallVector<int64_t> coords;
          if (!grid.empty())
            coords.push_back(blk);
          seen.insert(s.indexOf(0, tid, coords, k));
        }
    EXPECT_EQ(static_cast<int64_t>(seen.size()), extent) << nest;
    for (int64_t i = 0; i < extent; ++i)
      EXPECT_EQ(seen.count(i), 1u) << nest << ": index " << i;
    // Registers: one slot per instance of the nest's seq run.
    EXPECT_EQ(registerLayoutOf(s).slots, d.count) << nest;
  }
}

TEST_F(ScheduleTest, PartialLastBlockCoversItsExtentOnce) {
  // An unsized outermost block over an extent its inner levels do not
  // divide (docs/dialect.md, "Partial last tiles"): ceil(extent / inner)
  // blocks, the dim partial, and every index below the extent computed by
  // exactly one (block, thread, instance); the others are past the extent
  // (masked), all in the last block.
  std::mt19937_64 rng(2412);
  for (int trial = 0; trial < 60; ++trial) {
    int64_t threads = std::vector<int64_t>{1, 2, 32, 64}[rng() % 4];
    int64_t seq = 2 + rng() % 3; // an inner extent of at least 2
    int64_t inner = threads * seq;
    int64_t extent = 1 + rng() % (4 * inner);
    if (extent % inner == 0)
      extent += 1;
    std::string nest = "block x thread(" + std::to_string(threads) +
                       ") x seq(" + std::to_string(seq) + ")";
    std::string t = "tensor<" + std::to_string(extent) + "xf32>";
    auto ops = parse(kernel("%x: " + t, t, threads,
                            "    %m = motif.map (%x[i]) -> [i] over [" + nest +
                                "] : (" + t + ") -> " + t +
                                " {\n    ^bb0(%a: f32):\n      motif.yield "
                                "%a : f32\n    }\n    %g = "
                                "motif.materialize %m in global : " +
                                t));
    ASSERT_EQ(ops.size(), 1u) << nest << " on " << extent;
    MotifSchedule s(ops[0]);
    const DimSchedule &d = s.getDim(0);
    int64_t blocks = (extent + inner - 1) / inner;
    EXPECT_TRUE(d.partial) << nest << " on " << extent;
    EXPECT_EQ(s.getGridExtents(), SmallVector<int64_t>{blocks});
    EXPECT_EQ(d.blockTile(), inner);
    std::multiset<int64_t> seen;
    for (int64_t blk = 0; blk < blocks; ++blk)
      for (int64_t tid = 0; tid < threads; ++tid)
        for (int64_t k = 0; k < d.count; ++k) {
          int64_t i = s.indexOf(0, tid, {blk}, k);
          if (i >= extent)
            EXPECT_EQ(blk, blocks - 1) << nest << ": index " << i;
          else
            seen.insert(i);
        }
    for (int64_t i = 0; i < extent; ++i)
      EXPECT_EQ(seen.count(i), 1u)
          << nest << " on " << extent << ": index " << i;
  }
}

TEST_F(ScheduleTest, OneLevelNestsMeanTheirLevel) {
  // block(n), thread(threads) and seq(n) x seq(m) walk their dim as block,
  // thread and seq do (a nest of one level is no new meaning).
  auto ops = parse(kernel("%x: tensor<8x256x32xf32>", "tensor<8x256xf32>", 256,
                          R"(
    %a = motif.reduce <add> (%x[i, j, k]) -> [i, j] over [block, thread, seq] : (tensor<8x256x32xf32>) -> tensor<8x256xf32>
    %b = motif.reduce <add> (%x[i, j, k]) -> [i, j] over [block(8), thread(256), seq(4) x seq(8)] : (tensor<8x256x32xf32>) -> tensor<8x256xf32>
    %r = motif.materialize %a in register : tensor<8x256xf32>
    %g = motif.materialize %b in global : tensor<8x256xf32>)"));
  ASSERT_EQ(ops.size(), 2u);
  MotifSchedule u(ops[0]), t(ops[1]);
  EXPECT_EQ(u.getGridExtents(), t.getGridExtents());
  for (unsigned d = 0; d < 3; ++d) {
    EXPECT_EQ(u.getDim(d).count, t.getDim(d).count) << "dim " << d;
    EXPECT_EQ(u.getDim(d).isGrid(), t.getDim(d).isGrid()) << "dim " << d;
    for (int64_t blk : {0, 3, 7})
      for (int64_t tid : {0, 1, 31, 32, 255})
        for (int64_t k = 0; k < u.getDim(d).count; ++k)
          EXPECT_EQ(u.indexOf(d, tid, {blk}, k), t.indexOf(d, tid, {blk}, k))
              << "dim " << d << " tid " << tid << " k " << k;
  }
  for (int64_t tid : {0, 5, 255})
    EXPECT_EQ(u.isStoreOwner(tid), t.isStoreOwner(tid));
  EXPECT_EQ(registerLayoutOf(u).slots, registerLayoutOf(t).slots);
  EXPECT_EQ(scratchBytesOf(u), scratchBytesOf(t));
}

TEST_F(ScheduleTest, BlockWarpIsOneRowPerWarp) {
  auto ops = parse(kernel("%x: tensor<20x64xf32>", "tensor<20xf32>", 128, R"(
    %r = motif.reduce <max> (%x[i, j]) -> [i] over [block.warp, lane] : (tensor<20x64xf32>) -> tensor<20xf32>
    %g = motif.materialize %r in global : tensor<20xf32>)"));
  MotifSchedule s(ops[0]);
  EXPECT_EQ(s.getGridExtents(), SmallVector<int64_t>{5}); // ceil(20 / 4)
  EXPECT_TRUE(s.getDim(0).partial == false);
  // Block 2, warp 3 (tid 96..127) holds row 2 * 4 + 3.
  EXPECT_EQ(s.indexOf(0, 100, {2}, 0), 11);
  // Each lane owns its own result: only... no result dim on lanes, so lane
  // 0 of every warp stores.
  EXPECT_TRUE(s.isStoreOwner(96));
  EXPECT_FALSE(s.isStoreOwner(97));
  ReductionTree t = s.getReductionTree();
  EXPECT_TRUE(t.acrossLanes);
  EXPECT_FALSE(t.acrossWarps);
}

//===----------------------------------------------------------------------===//
// Owners and trees
//===----------------------------------------------------------------------===//

TEST_F(ScheduleTest, BlockReductionIsStoredByThreadZero) {
  auto ops = parse(kernel("%x: tensor<4x1024xf32>", "tensor<4xf32>", 256, R"(
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<4x1024xf32>) -> tensor<4xf32>
    %g = motif.materialize %r in global : tensor<4xf32>)"));
  MotifSchedule s(ops[0]);
  EXPECT_TRUE(s.ownerNeedsLaneZero());
  EXPECT_TRUE(s.ownerNeedsWarpZero());
  EXPECT_TRUE(s.isStoreOwner(0));
  EXPECT_FALSE(s.isStoreOwner(32));
  EXPECT_FALSE(s.isStoreOwner(1));
  ReductionTree t = s.getReductionTree();
  EXPECT_TRUE(t.acrossLanes);
  EXPECT_TRUE(t.acrossWarps);
  EXPECT_FALSE(t.lanesDiffer);
  EXPECT_FALSE(t.flagged);
  EXPECT_FALSE(s.unsupportedAtBlockSize());
  ThreadCoords c = s.usedCoords();
  EXPECT_TRUE(c.tid);
}

TEST_F(ScheduleTest, ResultOnLanesCrossesWarpsPerLane) {
  auto ops = parse(kernel("%p: tensor<8x32xf32>, %v: tensor<32x64xf32>",
                          "tensor<8x64xf32>", 256, R"(
    %y = motif.contract (%p[i, j], %v[j, d]) -> [i, d] over [block, lane, warp] : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
    %g = motif.materialize %y in global : tensor<8x64xf32>)"));
  MotifSchedule s(ops[0]);
  ReductionTree t = s.getReductionTree();
  EXPECT_FALSE(t.acrossLanes);
  EXPECT_TRUE(t.acrossWarps);
  EXPECT_TRUE(t.lanesDiffer);
  // Result dims on lanes: every lane of warp 0 stores.
  EXPECT_TRUE(s.isStoreOwner(5));
  EXPECT_FALSE(s.isStoreOwner(37));
}

TEST_F(ScheduleTest, GeneralCombinerOnIdleLanesIsFlagged) {
  const char *body = R"(
    %m, %l = motif.reduce (%x[i, j], %x[i, j]) -> [i] init [0xFF800000 : f32, 0.0 : f32] over [block.warp, lane]
        : (tensor<64xNxf32>, tensor<64xNxf32>) -> (tensor<64xf32>, tensor<64xf32>) combiner {
    ^bb0(%ma: f32, %la: f32, %mb: f32, %lb: f32):
      %mx = arith.maximumf %ma, %mb : f32
      %s = arith.addf %la, %lb : f32
      motif.yield %mx, %s : f32, f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    %unused = motif.materialize %l in global : tensor<64xf32>)";
  for (int64_t n : {1, 2, 31, 32, 64}) {
    std::string b = body;
    for (size_t p; (p = b.find("N")) != std::string::npos;)
      b.replace(p, 1, std::to_string(n));
    std::string ir =
        "func.func @f(%x: tensor<64x" + std::to_string(n) +
        "xf32>) -> tensor<64xf32> {\n  %y, %z = motif.kernel \"k\" "
        "threads(128) -> tensor<64xf32>, tensor<64xf32> {\n" +
        b + "\n    motif.yield %g, %unused : tensor<64xf32>, tensor<64xf32>\n  }\n"
            "  return %y : tensor<64xf32>\n}\n";
    auto ops = parse(ir);
    ASSERT_EQ(ops.size(), 1u);
    ReductionTree t = MotifSchedule(ops[0]).getReductionTree();
    // Rows shorter than the 32 lanes leave lanes with no element.
    EXPECT_EQ(t.flagged, n < 32) << "row of " << n;
  }
}

TEST_F(ScheduleTest, ButterflyNeedsAPowerOfTwoBlock) {
  auto ops = parse(kernel("%x: tensor<4x48xf32>", "tensor<4xf32>", 48, R"(
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, seq] : (tensor<4x48xf32>) -> tensor<4xf32>
    %g = motif.materialize %r in global : tensor<4xf32>)"));
  // A sequential fold needs no tree...
  EXPECT_FALSE(MotifSchedule(ops[0]).unsupportedAtBlockSize());
  // ...but the same motif scheduled across 48 threads' lanes cannot be
  // combined by the butterfly, and the verifier says so.
  EXPECT_TRUE(crossThreadCombineError(48, true, true).has_value());
  EXPECT_TRUE(crossThreadCombineError(24, true, false).has_value());
  EXPECT_FALSE(crossThreadCombineError(16, true, false).has_value());
  EXPECT_FALSE(crossThreadCombineError(96, true, true).has_value());
}

TEST_F(ScheduleTest, RepresentativesShareCoordinates) {
  ThreadCoords none;
  EXPECT_EQ(none.representative(77), 0);
  ThreadCoords lane{false, false, true};
  EXPECT_EQ(lane.representative(77), 13);
  ThreadCoords warp{false, true, false};
  EXPECT_EQ(warp.representative(77), 64);
  ThreadCoords tid{true, false, false};
  EXPECT_EQ(tid.representative(77), 77);
}

//===----------------------------------------------------------------------===//
// Layouts and legality
//===----------------------------------------------------------------------===//

TEST_F(ScheduleTest, Layouts) {
  auto ops = parse(kernel("%x: tensor<16x8x64xf32>", "tensor<16x8x64xf32>",
                          128, R"(
    %m = motif.map (%x[i, j, k]) -> [i, j, k] over [block, block.warp, lane] : (tensor<16x8x64xf32>) -> tensor<16x8x64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<16x8x64xf32>)"));
  MotifSchedule s(ops[0]);
  RegisterLayout r = registerLayoutOf(s);
  EXPECT_EQ(r.counts, (SmallVector<int64_t>{1, 1, 2}));
  EXPECT_EQ(r.slots, 2);
  EXPECT_EQ(r.slotOf({0, 0, 1}), 1);
  SharedLayout sh = sharedLayoutOf(s, Float32Type::get(&context));
  EXPECT_EQ(sh.shape, (SmallVector<int64_t>{4, 64})); // a row per warp
  EXPECT_EQ(sh.bytes, 4 * 64 * 4);
  EXPECT_EQ(sh.bufferIndex({3, 5, 7}, /*warp=*/2),
            (SmallVector<int64_t>{2, 7}));
  EXPECT_EQ(SharedLayout::kAlignment, 16);
}

TEST_F(ScheduleTest, EdgeScopes) {
  auto ops = parse(R"(
func.func @f(%x: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) {
  %y:3 = motif.kernel "k" threads(64) -> tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x64xf32>) -> tensor<64x64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block, seq] : (tensor<64x64xf32>) -> tensor<64xf32>
    %mr = motif.materialize %m in register : tensor<64x64xf32>
    %sr = motif.materialize %s in register : tensor<64xf32>
    // same thread: the same levels
    %a = motif.map (%mr[i, j], %sr[i]) -> [i, j] over [block, thread] : (tensor<64x64xf32>, tensor<64xf32>) -> tensor<64x64xf32> {
    ^bb0(%u: f32, %v: f32):
      %w = arith.addf %u, %v : f32
      motif.yield %w : f32
    }
    // other blocks: the transpose puts the value's dim 1 on blocks
    %t = motif.transpose %mr[j, i] -> [i, j] over [block, thread] : (tensor<64x64xf32>) -> tensor<64x64xf32>
    // same block: read at seq what was computed at thread
    %b = motif.map (%mr[i, j]) -> [i, j] over [block, seq] : (tensor<64x64xf32>) -> tensor<64x64xf32> {
    ^bb0(%u: f32):
      motif.yield %u : f32
    }
    %ga = motif.materialize %a in global : tensor<64x64xf32>
    %gt = motif.materialize %t in global : tensor<64x64xf32>
    %gb = motif.materialize %b in global : tensor<64x64xf32>
    motif.yield %ga, %gt, %gb : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
  }
  return %y#0, %y#1, %y#2 : tensor<64x64xf32>, tensor<64x64xf32>, tensor<64x64xf32>
}
)");
  ASSERT_EQ(ops.size(), 5u);
  MotifSchedule m(ops[0]), s(ops[1]), a(ops[2]), t(ops[3]), b(ops[4]);
  EXPECT_EQ(classifyEdge(m, a, 0).scope, Scope::SameThread);
  // A [block, seq] sum runs in every thread: every reader computed it.
  EXPECT_EQ(classifyEdge(s, a, 1).scope, Scope::SameThread);
  EXPECT_EQ(classifyEdge(m, t, 0).scope, Scope::CrossBlock);
  EXPECT_EQ(classifyEdge(m, b, 0).scope, Scope::SameBlock);
  // The register materialization of %m is illegal for %t and %b; the check
  // names the reader.
  SmallVector<MaterializeOp> mats = materializations();
  std::optional<std::string> why = checkMaterialization(mats[0]);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("motif.transpose"), std::string::npos) << *why;
  EXPECT_NE(why->find("other blocks"), std::string::npos) << *why;
  EXPECT_FALSE(checkMaterialization(mats[1]).has_value());
  EXPECT_EQ(producerOf(mats[0]).getOperation(), ops[0].getOperation());
}

} // namespace

namespace {

// A chain of maps a -> b -> c, each read slot for slot by the next: a value
// dies as the next is born, so one is live at a time. Read by something else
// (a reduction, or as a broadcast), it stays live through its last reader.
TEST(RegisterPressureTest, ConsumedSlotForSlot) {
  SmallVector<LiveInterval> chain{
      {0, 1, 64, true}, {1, 2, 64, true}, {2, 3, 64, true}};
  RegisterPressure p = peakRegisterPressure(chain);
  EXPECT_EQ(p.slots, 64);
  EXPECT_EQ(p.position, 0); // the first worst position

  SmallVector<LiveInterval> reduced{
      {0, 1, 64, false}, {1, 2, 64, false}, {2, 3, 64, false}};
  p = peakRegisterPressure(reduced);
  EXPECT_EQ(p.slots, 128);
  EXPECT_EQ(p.position, 1);
  EXPECT_EQ(p.live, (SmallVector<unsigned>{0, 1}));

  // Softmax with x loaded once (-1): x read by the max (0) and consumed by
  // exp (1); the max (1 slot) broadcast to exp; e read by sum (2) and div (3).
  SmallVector<LiveInterval> softmax{
      {-1, 1, 64, true}, {0, 1, 1, false}, {1, 3, 64, false}, {2, 3, 1, false}};
  p = peakRegisterPressure(softmax);
  EXPECT_EQ(p.slots, 65); // x and the max (at the max), or x|e and the max (at exp)
  EXPECT_EQ(p.position, 0);
  EXPECT_EQ(peakRegisterPressure({}).slots, 0);
  EXPECT_EQ(peakRegisterPressure({}).position, -1);
  // Sums saturate instead of wrapping.
  int64_t big = std::numeric_limits<int64_t>::max() - 1;
  EXPECT_EQ(peakRegisterPressure({{0, 1, big}, {0, 1, big}}).slots,
            std::numeric_limits<int64_t>::max());
}

TEST(RegisterPressureTest, Budget) {
  EXPECT_EQ(liveRegisterBudget(256, 255, 65536), 255 - kRegisterReserve);
  EXPECT_EQ(liveRegisterBudget(1024, 255, 65536), 64 - kRegisterReserve);
  EXPECT_EQ(liveRegisterBudget(1, 255, 65536), 255 - kRegisterReserve);
}

// The endpoint sweep against every position, on random interval sets.
TEST(RegisterPressureTest, MatchesBruteForce) {
  std::mt19937_64 rng(20261201);
  for (int trial = 0; trial < 3000; ++trial) {
    int n = std::uniform_int_distribution<int>(1, 8)(rng);
    int positions = std::uniform_int_distribution<int>(1, 10)(rng);
    SmallVector<LiveInterval> ivs;
    for (int i = 0; i < n; ++i) {
      int64_t a = std::uniform_int_distribution<int>(-1, positions - 1)(rng);
      int64_t b = std::uniform_int_distribution<int>(a, positions)(rng);
      ivs.push_back({a, b, std::uniform_int_distribution<int64_t>(1, 100)(rng),
                     std::uniform_int_distribution<int>(0, 1)(rng) == 1});
    }
    int64_t best = -1, at = -2;
    for (int64_t pos = -1; pos <= positions; ++pos) {
      int64_t others = 0, consumed = 0, produced = 0;
      bool any = false;
      for (auto &iv : ivs) {
        if (pos < iv.first || pos > iv.last)
          continue;
        any = true;
        if (iv.last == pos && iv.first < pos && iv.consumedByLast)
          consumed += iv.slots;
        else if (iv.first == pos && iv.last > pos)
          produced += iv.slots;
        else
          others += iv.slots;
      }
      int64_t sum = others + std::max(consumed, produced);
      if (any && sum > best) {
        best = sum;
        at = pos;
      }
    }
    RegisterPressure p = peakRegisterPressure(ivs);
    ASSERT_EQ(p.slots, best) << "trial " << trial;
    std::string dump;
    for (auto &iv : ivs)
      dump += "[" + std::to_string(iv.first) + "," + std::to_string(iv.last) +
              "]x" + std::to_string(iv.slots) + (iv.consumedByLast ? "c " : " ");
    ASSERT_EQ(p.position, at) << "trial " << trial << ": " << dump;
  }
}

} // namespace
