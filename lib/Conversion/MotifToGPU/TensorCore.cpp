//===- TensorCore.cpp - contractions on tensor cores ----------------------===//
//
// A `motif.contract ... mma m16n8k16` or `... mma m16n8k8`
// (motif/Dialect/Motif/IR/TensorCore.h):
//
//   prologue   cp.async steps 0 .. S-2 of both operand tiles into stages
//              0 .. S-2 (nvgpu.device_async_copy, 16 B per copy), one
//              commit group per step
//   step t     wait until step t's group landed (at most S-2 pending),
//              barrier; cp.async step t+S-1 into the stage step t-1 used
//              (every warp passed the barrier, so nobody reads it any more),
//              commit (an empty group past the last step keeps the count);
//              then per 16-wide slice of the step: ldmatrix.x4 the warp's A
//              fragments, ldmatrix.x4(.trans) two B fragments at a time, and
//              one mma.sync m16n8k16 per accumulator tile (tf32: per 8-wide
//              slice, A by ldmatrix.x4 of b16 pairs, B[k, j] by two 32-bit
//              loads per lane, every fragment element rounded by
//              cvt.rna.tf32.f32, one mma.sync m16n8k8 per tile)
//   epilogue   every accumulator is a result instance of the thread
//              (the mapping is the accumulator layout): storeResults
//
// f16 and tf32 go through nvgpu.mma.sync (tf32Enabled for m16n8k8); bf16
// through nvvm.mma.sync with operands packed in i32 (convert-nvgpu-to-nvvm
// has no bf16 case in MLIR 22).
//
//===----------------------------------------------------------------------===//
#include "KernelEmitter.h"

#include "motif/Dialect/Motif/IR/TensorCore.h"
#include "motif/Dialect/MotifNVVM/IR/MotifNVVMDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::detail;

namespace mlir::motif::detail {
/// Emits the pieces of one tensor-core contraction.
class MmaEmitter {
public:
  MmaEmitter(KernelEmitter &e, const MmaTiling &t, Type element, Value tid,
             Value warp, Value lane, ArrayRef<Value> blockCoords,
             int64_t threads)
      : e(e), b(e.b), loc(e.loc), t(t), element(element), tid(tid),
        warp(warp), lane(lane), blockCoords(blockCoords), threads(threads) {}

  Value c(int64_t v) { return e.constIndex(v); }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value mul(Value x, int64_t y) {
    return y == 1 ? x : Value(arith::MulIOp::create(b, loc, x, c(y)));
  }
  Value div(Value x, int64_t y) {
    return y == 1 ? x : Value(arith::DivUIOp::create(b, loc, x, c(y)));
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, c(y));
  }

  /// The buffer index of element (r, col) of stage `stage`: with
  /// swizzle128, (atom col / 64, r, col % 64) of 16-bit elements.
  SmallVector<Value> at(const Storage &st, Value stage, Value r, Value col) {
    SmallVector<Value> idx;
    if (st.shared.stages > 1)
      idx.push_back(stage);
    if (st.shared.swizzle128) {
      int64_t atom = st.shared.bufferShape().back();
      bool one = st.shared.shape[1] == atom;
      idx.push_back(one ? c(0) : div(col, atom));
      idx.push_back(r);
      idx.push_back(one ? col : rem(col, atom));
      return idx;
    }
    idx.push_back(r);
    idx.push_back(col);
    return idx;
  }

  /// Elements in 16 bytes: one cp.async, one row of an ldmatrix matrix.
  int64_t perChunk() const {
    return 128 / static_cast<int64_t>(element.getIntOrFloatBitWidth());
  }

  /// The buffer column of 16-byte chunk `chunk` of row `r` of a staged tile:
  /// chunk c of row r at c ^ ((r / l) % min(w, 8)) in a swizzled tile (w
  /// chunks a row, l = max(1, 8 / w) rows a 128-byte line:
  /// SharedLayout::xorChunks), at c otherwise.
  Value column(const Storage &st, Value r, Value chunk) {
    return column(st, r, 0, chunk);
  }
  /// The same for chunk `k + x`, `k` a constant whose bits below min(w, 8)
  /// are disjoint from the thread's `x` (so k + x = k ^ x): the swizzled
  /// chunk is then (k & -m) + ((k % m) ^ x ^ phase), m = min(w, 8), and one
  /// per-thread value x ^ phase serves every k of a loop, its constants
  /// folding into the ldmatrix address.
  Value column(const Storage &st, Value r, int64_t k, Value x) {
    if (!st.shared.xorChunks)
      return mul(add(c(k), x), perChunk());
    int64_t m = st.shared.swizzleModulus();
    Value phase = rem(div(r, st.shared.swizzleRowsPerLine()), m);
    Value low = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, x, phase), c(k % m));
    return mul(add(c(k - k % m), low), perChunk());
  }

  /// cp.async of step `step` of a staged tile into stage `stage`: the box
  /// row-major in chunks of 16 bytes (8 half or 4 f32 elements), chunk
  /// `tid + n * threads` for thread `tid`. Returns the tokens of the copies
  /// made unconditionally.
  SmallVector<Value> copyStep(const Storage &st, Value stage, Value step) {
    ArrayRef<int64_t> shape = st.shared.shape;
    int64_t chunk16 = perChunk();
    int64_t perRow = shape[1] / chunk16;
    int64_t chunks = shape[0] * perRow;
    Value stepOffset = mul(step, st.shared.tiles[st.shared.steppedDim]);
    auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
    SmallVector<Value> tokens;
    // When the block's threads cover whole rows, a thread copies the same
    // chunk of every row it copies, rows `threads / perRow` apart: its column
    // (and, every 8 lines, its swizzle phase) is one value for all copies.
    bool wholeRows = threads % perRow == 0;
    int64_t rowsApart = wholeRows ? threads / perRow : 0;
    int64_t period = 1;
    if (st.shared.xorChunks)
      period = st.shared.swizzleRowsPerLine() * st.shared.swizzleModulus();
    Value firstRow = wholeRows ? div(tid, perRow) : Value();
    Value ownChunk = wholeRows ? rem(tid, perRow) : Value();
    Value ownCol = wholeRows && rowsApart % period == 0
                       ? column(st, firstRow, ownChunk)
                       : Value();
    for (int64_t n = 0; n * threads < chunks; ++n) {
      OpBuilder::InsertionGuard guard(b);
      Value chunk = add(tid, c(n * threads));
      bool guarded = (n + 1) * threads > chunks;
      if (guarded) {
        Value in = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                         chunk, c(chunks));
        auto ifOp = scf::IfOp::create(b, loc, in, /*withElseRegion=*/false);
        b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      }
      Value row = wholeRows ? add(firstRow, c(n * rowsApart))
                            : div(chunk, perRow);
      Value inRow = wholeRows ? ownChunk : rem(chunk, perRow);
      Value col = mul(inRow, chunk16);
      SmallVector<Value> src;
      for (int64_t a = 0; a < 2; ++a) {
        Value inBox = a == 0 ? row : col;
        int64_t pos = st.shared.gridPos[a];
        if (a == st.shared.steppedDim)
          inBox = add(stepOffset, inBox);
        else if (pos >= 0 && st.shared.tiles[a]) {
          inBox = add(mul(blockCoords[pos], st.shared.tiles[a]), inBox);
          // The last block of a partial tile nest: rows (or 16-byte chunks)
          // past the extent repeat the last one; only masked accumulators
          // (rows of A past M, columns of B past N) read them.
          int64_t size = st.stageType.getDimSize(a);
          if (size % st.shared.tiles[a] != 0)
            inBox = arith::MinUIOp::create(
                b, loc, inBox, c(a == 0 ? size - 1 : size - chunk16));
        }
        src.push_back(inBox);
      }
      // The XOR swizzle (SharedLayout::xorChunks; wgmma's 128-byte one).
      Value dstCol = ownCol ? ownCol : column(st, row, inRow);
      Value token = nvgpu::DeviceAsyncCopyOp::create(
          b, loc, tokenType, st.memref, at(st, stage, row, dstCol),
          st.stageSource, src, b.getIndexAttr(chunk16), /*srcElements=*/Value(),
          b.getUnitAttr());
      if (!guarded)
        tokens.push_back(token);
    }
    return tokens;
  }

  /// Commits every cp.async the thread issued since the last commit.
  void commit(ArrayRef<Value> tokens) {
    lastGroup = nvgpu::DeviceAsyncCreateGroupOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), tokens);
  }
  /// Waits until at most `pending` committed groups are in flight.
  void wait(int64_t pending) {
    nvgpu::DeviceAsyncWaitOp::create(b, loc, lastGroup,
                                     b.getI32IntegerAttr(pending));
  }

  /// ldmatrix of `tiles` 8x8 matrices of b16 at (r, col) of the stage: per
  /// matrix, 2 half elements or 1 f32 element per lane.
  Value ldmatrix(const Storage &st, Value stage, Value r, Value col,
                 int64_t tiles, bool transpose) {
    auto type = VectorType::get({tiles, 32 / element.getIntOrFloatBitWidth()},
                                element);
    return nvgpu::LdMatrixOp::create(b, loc, type, st.memref,
                                     at(st, stage, r, col), transpose,
                                     static_cast<uint32_t>(tiles));
  }

  /// Every element of fragment `frag` (vector<n x 1 x f32>) rounded to tf32
  /// as cvt.rna.tf32.f32 does (to nearest, ties away from zero; the
  /// evaluator's roundToTf32): mma.sync .tf32 would otherwise drop the low 13
  /// bits of the significand, a truncation.
  Value roundToTf32(Value frag) {
    auto type = cast<VectorType>(frag.getType());
    SmallVector<Value> elems;
    for (int64_t r = 0; r < type.getDimSize(0); ++r) {
      Value x = vector::ExtractOp::create(b, loc, frag,
                                          ArrayRef<int64_t>{r, 0});
      Value bits = NVVM::ConvertFloatToTF32Op::create(
          b, loc, b.getI32Type(), x, NVVM::FPRoundingMode::RNA);
      elems.push_back(arith::BitcastOp::create(b, loc, b.getF32Type(), bits));
    }
    return vector::FromElementsOp::create(b, loc, type, elems);
  }

  /// The A fragment of m-tile `mt` at slice `kk`: x4, lane l at row
  /// l % 16 of the tile, column 16 bytes x (l / 16) of the slice. For f32
  /// the 8x8 b16 matrices are 8x4 f32 ones and register q of lane (g, c) =
  /// (l / 4, l % 4) is A[g + 8 (q % 2)][c + 4 (q / 2)]: a0..a3 of
  /// mma.sync m16n8k8 .tf32.
  ///
  /// A [k, i] as stored (t.lhsKMajor): the same four matrices, a0..a3 =
  /// (i half q % 2, k half q / 2) for matrix q = l / 8, read transposed from
  /// rows of k: lane l addresses row 16 kk + 8 (l / 16) + l % 8 of the
  /// stage at the 16 bytes of column 16 mt + 8 ((l / 8) % 2) of the warp's
  /// rows of i (the same addressing as a B [k, j] pair).
  Value loadA(const Storage &st, Value stage, Value warpRow, int64_t mt,
              int64_t kk) {
    if (t.lhsKMajor) {
      Value k = add(c(kk * t.instrK()),
                    add(mul(div(lane, 16), perChunk()), rem(lane, 8)));
      Value x = rem(div(lane, 8), 2);
      int64_t chunk = mt * 16 / perChunk();
      Value col;
      if (t.warpsM == 1) {
        col = column(st, k, chunk, x);
      } else if (!st.shared.xorChunks ||
                 (t.mTiles * 16 / perChunk()) % st.shared.swizzleModulus() ==
                     0) {
        // The warp's rows start on a whole swizzle period of chunks.
        col = add(warpRow, column(st, k, chunk, x));
      } else {
        col = column(st, k, 0, add(add(div(warpRow, perChunk()), c(chunk)), x));
      }
      return ldmatrix(st, stage, k, col, 4, /*transpose=*/true);
    }
    Value r = add(add(warpRow, c(mt * 16)), rem(lane, 16));
    // Chunk 2 kk + l / 16 of the row (the slice's two 16-byte halves).
    Value col = column(st, r, kk * t.instrK() / perChunk(), div(lane, 16));
    Value frag = ldmatrix(st, stage, r, col, 4, /*transpose=*/false);
    return t.tf32() ? roundToTf32(frag) : frag;
  }

  /// B fragments of n-tiles nt (and nt + 1 when `pair`) at slice `kk`:
  /// matrix q of the x4 is (k half q % 2, n tile q / 2). A [k, j] tile is
  /// read transposed.
  Value loadB(const Storage &st, Value stage, int64_t nt, int64_t kk,
              bool pair) {
    int64_t half = perChunk(); // the k half of the slice: 16 bytes
    Value kHalf = mul(rem(div(lane, 8), 2), half); // half * ((l / 8) % 2)
    Value nHalf = pair ? mul(div(lane, 16), 8) : c(0);
    Value inMatrix = rem(lane, 8);
    Value k = add(c(kk * t.instrK()), add(kHalf, inMatrix));
    Value n = add(c(nt * 8), nHalf);
    int64_t tiles = pair ? 4 : 2;
    // Every matrix row starts on a 16-byte chunk: chunk nt + (l / 16 of a
    // pair) of a [k, j] row (nt even when paired), chunk 2 kk + (l / 8) % 2
    // of a [j, k] row.
    if (t.rhsKMajor) {
      Value x = pair ? div(lane, 16) : c(0);
      Value col;
      if (!warpCol) {
        col = column(st, k, nt * 8 / perChunk(), x);
      } else if (!st.shared.xorChunks ||
                 (t.nTiles * 8 / perChunk()) % st.shared.swizzleModulus() ==
                     0) {
        // The warp's columns start on a whole swizzle period of chunks.
        col = add(warpCol, column(st, k, nt * 8 / perChunk(), x));
      } else {
        col = column(st, k, 0,
                     add(add(div(warpCol, perChunk()), c(nt * 8 / perChunk())),
                         x));
      }
      return ldmatrix(st, stage, k, col, tiles, /*transpose=*/true);
    }
    Value row = add(n, inMatrix);
    if (warpCol)
      row = add(warpCol, row);
    Value col = column(st, row, kk * t.instrK() / perChunk(),
                       rem(div(lane, 8), 2));
    Value frag = ldmatrix(st, stage, row, col, tiles, /*transpose=*/false);
    return t.tf32() ? roundToTf32(frag) : frag;
  }

  /// The tf32 B fragment of n-tile `nt` at slice `kk` of a [k, j] tile:
  /// ldmatrix .trans moves 16-bit elements, so lane (g, c) = (l / 4, l % 4)
  /// loads its b0 = B[c][g] and b1 = B[c + 4][g] itself (vector<2x1xf32>).
  Value loadBTf32Rows(const Storage &st, Value stage, int64_t nt,
                      int64_t kk) {
    Value g = div(lane, 4), cIdx = rem(lane, 4);
    Value n = add(c(nt * 8), g);
    if (warpCol)
      n = add(warpCol, n);
    SmallVector<Value> elems;
    for (int64_t r = 0; r < 2; ++r) {
      Value k = add(c(kk * 8 + 4 * r), cIdx);
      elems.push_back(
          memref::LoadOp::create(b, loc, st.memref, at(st, stage, k, n)));
    }
    Value frag = vector::FromElementsOp::create(
        b, loc, VectorType::get({2, 1}, element), elems);
    return roundToTf32(frag);
  }

  /// acc (4 f32) += A (x4 fragment) * B (rows bRow, bRow + 1 of a B fragment).
  SmallVector<Value> mma(Value a, Value bFrag, int64_t bRow,
                         ArrayRef<Value> acc) {
    auto accType = VectorType::get({2, 2}, b.getF32Type());
    auto unpack = [&](Value d) {
      SmallVector<Value> out;
      for (int64_t r = 0; r < 4; ++r)
        out.push_back(vector::ExtractOp::create(
            b, loc, d, ArrayRef<int64_t>{r / 2, r % 2}));
      return out;
    };
    if (t.tf32()) {
      // m16n8k8 .tf32: vector<4x1xf32> x vector<2x1xf32> + vector<2x2xf32>,
      // the fragments already rounded to tf32.
      SmallVector<Value> bs;
      for (int64_t r = 0; r < 2; ++r)
        bs.push_back(vector::ExtractOp::create(
            b, loc, bFrag, ArrayRef<int64_t>{bRow + r, 0}));
      Value bPair = vector::FromElementsOp::create(
          b, loc, VectorType::get({2, 1}, element), bs);
      Value accVec = vector::FromElementsOp::create(b, loc, accType, acc);
      return unpack(nvgpu::MmaSyncOp::create(b, loc, a, bPair, accVec,
                                             ArrayRef<int64_t>{16, 8, 8},
                                             /*tf32Enabled=*/true));
    }
    if (element.isBF16()) {
      SmallVector<Value> as, bs;
      for (int64_t r = 0; r < 4; ++r)
        as.push_back(vector::ExtractOp::create(b, loc, a, r));
      for (int64_t r = 0; r < 2; ++r)
        bs.push_back(vector::ExtractOp::create(b, loc, bFrag, bRow + r));
      return emitMmaM16N8K16(b, loc, element, as, bs, acc);
    }
    // f16: nvgpu.mma.sync on vector<4x2xf16> x vector<2x2xf16> + vector<2x2xf32>.
    // Rows bRow, bRow + 1 of the fragment (inserted row by row: an n-D
    // strided slice does not lower to LLVM inside convert-gpu-to-nvvm).
    auto bType = VectorType::get({2, 2}, element);
    Value bPair = arith::ConstantOp::create(
        b, loc, bType,
        DenseElementsAttr::get(bType, b.getFloatAttr(element, 0.0)));
    for (int64_t r = 0; r < 2; ++r)
      bPair = vector::InsertOp::create(
          b, loc, vector::ExtractOp::create(b, loc, bFrag, bRow + r), bPair,
          r);
    Value accVec = vector::FromElementsOp::create(b, loc, accType, acc);
    return unpack(nvgpu::MmaSyncOp::create(b, loc, a, bPair, accVec,
                                           ArrayRef<int64_t>{16, 8, 16}));
  }

  /// The fragments of one slice of k: the warp's A fragment per m-tile,
  /// and the B loads (ldmatrix of two n-tiles at a time; a tf32 [k, j] tile
  /// tile by tile); bFragment(nt) says which load and rows hold n-tile nt.
  struct Fragments {
    SmallVector<Value> a, b;
  };
  std::pair<int64_t, int64_t> bFragment(int64_t nt) const {
    if (t.tf32() && t.rhsKMajor)
      return {nt, 0};
    return {nt / 2, (nt % 2) * 2};
  }
  Fragments loadFragments(const Storage &a, const Storage &bt, Value stage,
                          Value warpRow, int64_t kk) {
    Fragments f;
    for (int64_t mt = 0; mt < t.mTiles; ++mt)
      f.a.push_back(loadA(a, stage, warpRow, mt, kk));
    if (t.tf32() && t.rhsKMajor) {
      for (int64_t nt = 0; nt < t.nTiles; ++nt)
        f.b.push_back(loadBTf32Rows(bt, stage, nt, kk));
    } else {
      for (int64_t nt = 0; nt < t.nTiles; nt += 2)
        f.b.push_back(loadB(bt, stage, nt, kk, nt + 1 < t.nTiles));
    }
    return f;
  }
  /// One mma.sync per accumulator tile on one slice's fragments.
  /// `accs[(mt * nTiles + nt) * 4 + r]`.
  void mmaSlice(const Fragments &f, SmallVector<Value> &accs) {
    for (int64_t mt = 0; mt < t.mTiles; ++mt)
      for (int64_t nt = 0; nt < t.nTiles; ++nt) {
        int64_t base = (mt * t.nTiles + nt) * 4;
        auto [load, row] = bFragment(nt);
        SmallVector<Value> out = mma(f.a[mt], f.b[load], row,
                                     ArrayRef<Value>(accs).slice(base, 4));
        for (int64_t r = 0; r < 4; ++r)
          accs[base + r] = out[r];
      }
  }

  /// One staged step: every slice of the instruction's k, every
  /// accumulator tile.
  SmallVector<Value> step(const Storage &a, const Storage &bt, Value stage,
                          Value warpRow, SmallVector<Value> accs) {
    for (int64_t kk = 0; kk < t.kStep / t.instrK(); ++kk)
      mmaSlice(loadFragments(a, bt, stage, warpRow, kk), accs);
    return accs;
  }

  /// The prologue: steps 0 .. lead-1 of both tiles in flight (lead: how many
  /// steps ahead the pipeline copies, stages - 1 unless a wgmma group stays
  /// in flight), one commit group each.
  void prologue(const Storage &a, const Storage &bt, int64_t lead) {
    for (int64_t s = 0; s < lead; ++s) {
      SmallVector<Value> tokens = copyStep(a, c(s), c(s));
      llvm::append_range(tokens, copyStep(bt, c(s), c(s)));
      commit(tokens);
    }
  }

  /// The copies of loop step `step` (its buffer `stage`): with one stage,
  /// copy the step and wait for it; else wait until step `step` landed
  /// (later ones may still be in flight), and, past the barrier, copy step
  /// step + lead into its stage. With lead = stages - 1 that is the stage of
  /// step - 1, which every warp is done with once past the barrier; with
  /// lead = stages - 2 (a wgmma group of step - 1 still in flight) the stage
  /// of step - 2. Always one group per step, empty past the last, so that the
  /// wait counts steps. `landed` runs between the wait and the barrier.
  void pipelineStep(const Storage &a, const Storage &bt, Value step,
                    Value stage, int64_t stages, int64_t lead, int64_t kSteps,
                    function_ref<void()> landed) {
    if (stages == 1) {
      commit(llvm::to_vector(
          llvm::concat<Value>(copyStep(a, stage, step), copyStep(bt, stage, step))));
      wait(0);
      landed();
      gpu::BarrierOp::create(b, loc);
      return;
    }
    assert(lead >= 1 && lead < stages && "a pipeline copies 1 to S-1 ahead");
    wait(lead - 1);
    landed();
    gpu::BarrierOp::create(b, loc);
    copyAhead(a, bt, step, stages, lead, kSteps);
  }

  /// Copies step step + lead of both tiles into its stage where that step
  /// exists, and commits a group (empty past the last step).
  void copyAhead(const Storage &a, const Storage &bt, Value step,
                 int64_t stages, int64_t lead, int64_t kSteps) {
    Value next = add(step, c(lead));
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          next, c(kSteps));
    auto ifOp = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      Value nextStage = rem(next, stages);
      copyStep(a, nextStage, next);
      copyStep(bt, nextStage, next);
    }
    commit({});
  }

  /// The shared address (bytes) of stage `stage` of a tile, as i64.
  Value stageAddress(const Storage &st, Value stage) {
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc,
                                                                st.memref);
    int64_t stageBytes = st.shared.shape[0] * st.shared.shape[1] *
                         element.getIntOrFloatBitWidth() / 8;
    Value at = add(base, mul(stage, stageBytes));
    return arith::IndexCastUIOp::create(b, loc, b.getI64Type(), at);
  }

  /// One staged step on wgmma: per 16-wide slice of k, one
  /// wgmma.mma_async m64nNk16 of the warpgroup's 64 rows of A (at byte
  /// `aRowBytes` of the stage) by all N columns of B. A K-major operand's
  /// slice is 32 bytes further along its 128-byte rows (the swizzle XORs
  /// the address bits above); B [k, j] (MN-major, transposed) is read 16
  /// rows of k (2048 bytes) further, its 64-column atoms kStep x 128 bytes
  /// apart (the descriptor's leading byte offset), its 8-row groups 1024
  /// bytes apart (the stride byte offset).
  Value wgmmaStep(const Storage &a, const Storage &bt, Value stage,
                  Value aRowBytes, Value acc) {
    Value aAddr = arith::AddIOp::create(b, loc, stageAddress(a, stage),
                                        aRowBytes);
    Value bAddr = stageAddress(bt, stage);
    auto i64 = [&](int64_t v) {
      return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
    };
    for (int64_t kk = 0; kk < t.kStep / 16; ++kk) {
      Value descA = emitWgmmaDescriptor(
          b, loc, arith::AddIOp::create(b, loc, aAddr, i64(kk * 32)));
      Value descB =
          t.rhsKMajor
              ? emitWgmmaMNMajorDescriptor(
                    b, loc,
                    arith::AddIOp::create(b, loc, bAddr, i64(kk * 16 * 128)),
                    t.kStep)
              : emitWgmmaDescriptor(
                    b, loc, arith::AddIOp::create(b, loc, bAddr, i64(kk * 32)));
      acc = emitWgmmaM64K16(b, loc, element, mmaShapeN(t.shape), acc, descA,
                            descB, /*accumulate=*/true,
                            /*transposeB=*/t.rhsKMajor);
    }
    return acc;
  }

  Value lastGroup;
  /// The warp's first column of the block's tile with warps along j
  /// (`warp(w)` on j: warp % w columns of nTiles n8 tiles); null without.
  Value warpCol;

private:
  KernelEmitter &e;
  OpBuilder &b;
  Location loc;
  const MmaTiling &t;
  Type element;
  Value tid, warp, lane;
  ArrayRef<Value> blockCoords;
  int64_t threads;
};
} // namespace mlir::motif::detail

SmallVector<Value> mlir::motif::detail::emitMmaM16N8K16(
    OpBuilder &b, Location loc, Type element, ArrayRef<Value> a,
    ArrayRef<Value> bRows, ArrayRef<Value> acc) {
  // bf16 operands travel packed in i32; f16 ones as vector<2xf16>.
  auto operand = [&](Value row) -> Value {
    if (!element.isBF16())
      return row;
    auto i32x1 = VectorType::get({1}, b.getI32Type());
    Value cast = vector::BitCastOp::create(b, loc, i32x1, row);
    return vector::ExtractOp::create(b, loc, cast, 0);
  };
  SmallVector<Value> as, bs;
  for (Value r : a)
    as.push_back(operand(r));
  for (Value r : bRows)
    bs.push_back(operand(r));
  Type f32 = b.getF32Type();
  auto resultType =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {f32, f32, f32, f32});
  NVVM::MMATypes type =
      element.isBF16() ? NVVM::MMATypes::bf16 : NVVM::MMATypes::f16;
  auto op = NVVM::MmaOp::create(
      b, loc, resultType, as, bs, acc, {16, 8, 16}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{type, type},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  SmallVector<Value> out;
  for (int64_t r = 0; r < 4; ++r)
    out.push_back(LLVM::ExtractValueOp::create(b, loc, op, r));
  return out;
}

Value mlir::motif::detail::emitWgmmaDescriptor(OpBuilder &b, Location loc,
                                               Value address,
                                               int64_t leadingBytes,
                                               int64_t strideBytes,
                                               int64_t swizzleMode) {
  auto i64 = [&](uint64_t v) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(v));
  };
  Value start = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, address, i64(4)), i64(0x3FFF));
  uint64_t fixed = (uint64_t((leadingBytes >> 4) & 0x3FFF) << 16) |
                   (uint64_t((strideBytes >> 4) & 0x3FFF) << 32) |
                   (uint64_t(swizzleMode) << 62);
  return arith::OrIOp::create(b, loc, start, i64(fixed));
}

Value mlir::motif::detail::emitWgmmaM64K16(OpBuilder &b, Location loc,
                                           Type element, int64_t n, Value acc,
                                           Value descA, Value descB,
                                           bool accumulate, bool transposeB) {
  NVVM::WGMMATypes type =
      element.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  auto shape = NVVM::MMAShapeAttr::get(b.getContext(), 64, n, 16);
  return NVVM::WgmmaMmaAsyncOp::create(
      b, loc, acc.getType(), acc, descA, descB, shape, type, type,
      NVVM::WGMMATypes::f32,
      accumulate ? NVVM::WGMMAScaleOut::one : NVVM::WGMMAScaleOut::zero,
      NVVM::WGMMAScaleIn::one,
      NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
      transposeB ? NVVM::MMALayout::row : NVVM::MMALayout::col,
      /*satfinite=*/nullptr);
}

Value mlir::motif::detail::emitWgmmaRegisterAM64K16(
    OpBuilder &b, Location loc, Type element, int64_t n, Value acc,
    ArrayRef<Value> a, Value descB, bool accumulate, bool transposeB) {
  auto i32x1 = VectorType::get({1}, b.getI32Type());
  SmallVector<Value> regs;
  for (Value pair : a)
    regs.push_back(vector::ExtractOp::create(
        b, loc, vector::BitCastOp::create(b, loc, i32x1, pair), 0));
  return nvvm::WgmmaRSOp::create(b, loc, acc.getType(), acc, regs, descB,
                                 b.getI64IntegerAttr(n), TypeAttr::get(element),
                                 accumulate ? b.getUnitAttr() : UnitAttr(),
                                 transposeB ? b.getUnitAttr() : UnitAttr());
}

/// wgmma.mma_async m64nNk16 (sm_90a): the cp.async pipeline of mma.sync
/// writes both tiles in the 128-byte swizzle; per step, after the copies of
/// the step landed, every thread fences them to the async proxy (wgmma reads
/// shared memory through it) before the barrier; then each warpgroup issues
/// one wgmma per 16-wide slice on descriptors of its 64 rows of A and all of
/// B, commits them as one group and waits for it before the next step
/// overwrites a stage. The accumulators travel as the instruction's struct.
LogicalResult KernelEmitter::emitWgmmaContraction(
    ComputeOpInterface op, ArrayRef<DimPlan> plans, Value owner,
    const MmaTiling &t, MmaEmitter &m, const Storage *const tiles[2],
    ArrayRef<Instance> insts) {
  if (chip != "sm_90a")
    return op->emitOpError()
           << "runs on wgmma (mma " << stringifyMmaShape(t.shape)
           << "), which needs chip=sm_90a; this lowering targets " << chip;
  for (unsigned i = 0; i < 2; ++i)
    if (!tiles[i]->shared.swizzle128)
      return op->emitOpError()
             << "runs on wgmma, which reads operand #" << i
             << " from a staged tile of 128-byte rows in the 128-byte swizzle "
                "(internal: the staging did not lay it out so)";
  int64_t stages = t.stages();
  // With a group in flight, step t's copies overwrite the stage of step
  // t - 2: every warpgroup waited for its group of t - 2 before the barrier.
  bool inFlight = wgmmaInFlight && stages >= 3;
  int64_t lead = inFlight ? stages - 2 : stages - 1;
  Type f32 = b.getF32Type();
  auto accType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(t.accumulators(), f32));
  // The warpgroup's 64 rows of A: 64 x 128 bytes each.
  Value aRowBytes = arith::IndexCastUIOp::create(
      b, loc, b.getI64Type(), m.mul(m.div(warpId, 4), 64 * 128));

  auto proxyFence = [&] {
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  };
  m.prologue(*tiles[0], *tiles[1], lead);
  Value zero = LLVM::ZeroOp::create(b, loc, accType);
  auto loop = scf::ForOp::create(b, loc, constIndex(0), constIndex(t.kSteps),
                                 constIndex(1), ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ++loopDepth;
    Value step = loop.getInductionVar();
    Value stage = stages > 1 ? m.rem(step, stages) : constIndex(0);
    // Every warpgroup waited for its wgmmas of step - 1 (or, in flight, of
    // step - 2; below), so the stage they read is free once every thread
    // passed the barrier.
    m.pipelineStep(*tiles[0], *tiles[1], step, stage, stages, lead, t.kSteps,
                   proxyFence);
    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    Value acc = m.wgmmaStep(*tiles[0], *tiles[1], stage, aRowBytes,
                            loop.getRegionIterArgs()[0]);
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, inFlight ? 1 : 0);
    scf::YieldOp::create(b, loc, acc);
    --loopDepth;
  }
  if (inFlight)
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  m.commit({});
  m.wait(0);

  // Accumulator 4 nt + 2 h + cc of the struct is the instance whose i offset
  // in the warp is 8 h and j offset 8 nt + cc (plus the lane's digits): the
  // mma.sync m16n8 layout, one m-tile a warp.
  Value accs = loop.getResult(0);
  for (const Instance &inst : insts) {
    int64_t rowOff = plans[0].seqOffset(inst.k[0]);
    int64_t colOff = plans[1].seqOffset(inst.k[1]);
    int64_t h = (rowOff / 8) % 2, nt = colOff / 8, cc = colOff % 2;
    Value acc = LLVM::ExtractValueOp::create(b, loc, accs,
                                             nt * 4 + h * 2 + cc);
    if (failed(storeResults(op, plans, inst, {acc}, owner)))
      return failure();
  }
  return success();
}

LogicalResult KernelEmitter::emitTensorCoreContraction(ComputeOpInterface op,
                                                       ArrayRef<DimPlan> plans,
                                                       Value owner) {
  auto contract = cast<ContractOp>(op.getOperation());
  std::string why;
  FailureOr<MmaTiling> tiling = mmaTilingOf(contract, why);
  if (failed(tiling))
    return op->emitOpError() << "runs on tensor cores, but " << why;
  const MmaTiling &t = *tiling;
  Type element = contract.getLhs().getType().getElementType();
  // Both operands come through operand tiles staged one step of k at a time.
  const Storage *tiles[2];
  for (unsigned i = 0; i < 2; ++i) {
    auto it = storage.find(op->getOperand(i));
    if (it == storage.end() || it->second.kind != Storage::Kind::Shared ||
        !it->second.stageSource || it->second.shared.steppedDim < 0 ||
        it->second.shared.stages != t.stages() ||
        it->second.shared.shape.size() != 2 ||
        it->second.shared.shape[1] % (128 / element.getIntOrFloatBitWidth()))
      return op->emitOpError()
             << "runs on tensor cores, which read operand #" << i
             << " from an operand tile staged in shared memory one step of k "
                "at a time (cp.async, ldmatrix): materialize it 'in shared' "
                "in this kernel, read by this contraction only";
    tiles[i] = &it->second;
    // cp.async copies 16 aligned bytes: every row of the operand starts on
    // a 16-byte boundary (which a partial last tile no longer implies).
    int64_t rowElements = tiles[i]->stageType.getShape().back();
    if (rowElements % (128 / element.getIntOrFloatBitWidth()))
      return op->emitOpError()
             << "runs on tensor cores, which copy operand #" << i
             << " 16 bytes at a time (cp.async), but its rows hold "
             << rowElements << " elements of " << element
             << ", not a multiple of 16 bytes";
  }
  FailureOr<SmallVector<Instance>> blocked = blockedInstances(op, plans);
  if (failed(blocked))
    return failure();
  SmallVector<Instance> insts = std::move(*blocked);
  if (static_cast<int64_t>(insts.size()) != t.accumulators())
    return op->emitOpError() << "internal: " << insts.size()
                             << " result instances for " << t.accumulators()
                             << " accumulators";

  MmaEmitter m(*this, t, element, tid, warpId, laneId, blockCoords, threads);
  if (t.wgmma())
    return emitWgmmaContraction(op, plans, owner, t, m, tiles, insts);
  int64_t stages = t.stages();
  // The warp's first row and column in the block's tile: warp
  // wi * warpsN + wj (the j warp digit varies fastest) holds mTiles tiles of
  // 16 rows from row 16 mTiles wi and nTiles tiles of 8 columns from column
  // 8 nTiles wj.
  Value warpRow = m.mul(m.div(warpId, t.warpsN), t.mTiles * 16);
  if (t.warpsM == 1)
    warpRow = constIndex(0);
  if (t.warpsN > 1)
    m.warpCol = m.mul(m.rem(warpId, t.warpsN), t.nTiles * 8);

  const int64_t slices = t.kStep / t.instrK();
  // Fragments one slice ahead (CUTLASS's multistage mainloop): the wait and
  // barrier for step t + 1 come before the last slice of step t, whose
  // mma.sync instructions then issue from fragments already in registers
  // while the ldmatrix of step t + 1's first slice is in flight; the copies
  // of step t + stages - 1 go out after the second slice's ldmatrix. The
  // loop then carries the first slice's fragments of its step too.
  const bool pipelined =
      mmaFragmentPipeline && stages >= 2 && (slices >= 2 || stages >= 3) &&
      t.accumulators() + 2 * t.fragmentRegisters() <= kMaxMmaPipelinedRegisters;
  m.prologue(*tiles[0], *tiles[1], stages - 1);
  SmallVector<Value> init(t.accumulators(), constF32(0.0));
  MmaEmitter::Fragments first;
  if (pipelined) {
    m.wait(stages - 2);
    gpu::BarrierOp::create(b, loc);
    first = m.loadFragments(*tiles[0], *tiles[1], constIndex(0), warpRow, 0);
    llvm::append_range(init, first.a);
    llvm::append_range(init, first.b);
  }
  auto loop = scf::ForOp::create(b, loc, constIndex(0), constIndex(t.kSteps),
                                 constIndex(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ++loopDepth;
    Value step = loop.getInductionVar();
    Value stage = stages > 1 ? m.rem(step, stages) : constIndex(0);
    ValueRange carried = loop.getRegionIterArgs();
    SmallVector<Value> accs(carried.take_front(t.accumulators()));
    if (pipelined) {
      Value nextStage = m.rem(m.add(step, constIndex(1)), stages);
      MmaEmitter::Fragments cur;
      cur.a.assign(carried.begin() + t.accumulators(),
                   carried.begin() + t.accumulators() + first.a.size());
      cur.b.assign(carried.begin() + t.accumulators() + first.a.size(),
                   carried.end());
      for (int64_t kk = 0; kk < slices; ++kk) {
        bool last = kk + 1 == slices;
        if (last) {
          // Step t + 1 landed: groups committed so far are the prologue's
          // stages - 1 and one per step through t (t - 1 when this is also
          // the first slice, whose copies follow).
          m.wait(slices >= 2 ? stages - 2 : stages - 3);
          gpu::BarrierOp::create(b, loc);
        }
        // Past the last step this reads a stage nobody writes any more; the
        // fragments go unused.
        MmaEmitter::Fragments next =
            last ? m.loadFragments(*tiles[0], *tiles[1], nextStage, warpRow, 0)
                 : m.loadFragments(*tiles[0], *tiles[1], stage, warpRow,
                                   kk + 1);
        if (kk == 0) // the stage of step t - 1: every warp read it before
                     // the barrier of step t - 1
          m.copyAhead(*tiles[0], *tiles[1], step, stages, stages - 1,
                      t.kSteps);
        m.mmaSlice(cur, accs);
        cur = std::move(next);
      }
      llvm::append_range(accs, cur.a);
      llvm::append_range(accs, cur.b);
    } else {
      // Wait, barrier, copies, then each slice's ldmatrix and mma.sync.
      m.pipelineStep(*tiles[0], *tiles[1], step, stage, stages, stages - 1,
                     t.kSteps, [] {});
      accs = m.step(*tiles[0], *tiles[1], stage, warpRow, accs);
    }
    scf::YieldOp::create(b, loc, accs);
    --loopDepth;
  }
  // Nothing is left in flight (the last groups are empty); a fresh group
  // names the wait outside the loop.
  m.commit({});
  m.wait(0);

  // Accumulator (mt, nt, r) is the instance whose i offset in the warp is
  // 16 mt + 8 (r / 2) and j offset 8 nt + r % 2 (plus the lane's digits).
  for (auto [n, inst] : llvm::enumerate(insts)) {
    int64_t ki = inst.k[0], kj = inst.k[1];
    int64_t rowOff = plans[0].seqOffset(ki), colOff = plans[1].seqOffset(kj);
    int64_t mt = rowOff / 16, h = (rowOff / 8) % 2;
    int64_t nt = colOff / 8, cc = colOff % 2;
    Value acc = loop.getResult((mt * t.nTiles + nt) * 4 + h * 2 + cc);
    if (failed(storeResults(op, plans, inst, {acc}, owner)))
      return failure();
  }
  return success();
}
