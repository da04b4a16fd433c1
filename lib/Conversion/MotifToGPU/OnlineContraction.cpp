//===- OnlineContraction.cpp - motif.online_contract, the flash form ------===//
//
// One block computes a tile of `rows` query rows of one batch index:
//
//   stage Q[rows x D] in shared memory once;
//   for each tile of T = kOnlineKeyTile (32) keys:
//     stage K[T x D] and V[T x E] in shared memory;
//     S = Q K^T in registers: thread (g, c) = (tid / 4, tid % 4) holds rows
//       g + r * (threads / 4) (r < R) and keys c + 4u (u < T / 4);
//     the online state per row: m' = max(m, max_u S), p = exp2(S c' - m'),
//       alpha = exp2(m - m'), l = alpha l + sum_u p (per thread), acc *= alpha;
//     acc += P V: key jj's probability comes from lane (lane & ~3) | jj % 4 of
//       the quad by a shuffle -- P never leaves registers; the thread holds
//       columns (w / 4) * 16 + 4c + w % 4 of acc (128-bit reads of V);
//   the quad sums l (two shuffles), y = acc / l, 128-bit stores.
//
// c' = scale * log2(e): exp is exp2 (MUFU.EX2). Keys past the extent score
// -inf; a row whose scores are all -inf uses 0 for its max (p = 0, l = 0,
// y = NaN, as the unfused softmax gives). docs/lowering.md, "Online
// contraction".
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::detail;

namespace {
constexpr int64_t kKeyTile = kOnlineKeyTile;
constexpr int64_t kKeysPerThread = kKeyTile / 4;
constexpr int64_t kPad = kOnlinePad;
} // namespace

LogicalResult KernelEmitter::emitOnlineContraction(OnlineContractOp op) {
  Location at = op.getLoc();
  int64_t rank = cast<RankedTensorType>(op.getResult().getType()).getRank();
  int64_t iDim = op.getRowDim(), eDim = op.getValueDim();
  int64_t jDim = op.getKeyDim(), dDim = op.getContractedDim();
  SmallVector<int64_t> extents = op.getIterationExtents();
  if (std::optional<std::string> limit = op.getLoweringLimit(threads))
    return op.emitOpError() << *limit;
  SmallVector<int64_t> batch;
  for (int64_t d = 0; d < rank; ++d)
    if (d != iDim && d != eDim)
      batch.push_back(d);
  int64_t S = extents[iDim], N = extents[jDim], D = extents[dDim],
          E = extents[eDim];
  int64_t T = threads;
  int64_t rows = op.getRowsPerBlock();
  int64_t R = rows * 4 / T;
  int64_t groups = T / 4;
  for (unsigned k = 0; k < 3; ++k) {
    auto it = storage.find(op->getOperand(k));
    if (it == storage.end() || it->second.kind != Storage::Kind::Global)
      return op.emitOpError() << "reads operand #" << k
                              << " from other than global memory (the "
                                 "lowering stages its tiles itself)";
  }
  for (Operation *u : op.getResult().getUsers())
    if (auto mat = dyn_cast<MaterializeOp>(u);
        !mat || mat.getResidency() != Residency::Global)
      return op.emitOpError() << "result is kept in other than global memory "
                                 "(the online contraction is a kernel of its "
                                 "own)";
  currentSchedule.emplace(cast<ComputeOpInterface>(op.getOperation()),
                          threads);
  if (failed(prepareDestinations(cast<ComputeOpInterface>(op.getOperation()),
                                 {})))
    return failure();
  Value yMem;
  for (Operation *u : op.getResult().getUsers())
    yMem = storage[cast<MaterializeOp>(u).getResult()].memref;
  Value qMem = storage[op.getLhs()].memref, kMem = storage[op.getRhs()].memref,
        vMem = storage[op.getValues()].memref;
  if (op.usesTensorCores())
    return emitOnlineContractionMma(op, qMem, kMem, vMem, yMem);

  Type f32 = b.getF32Type();
  auto v4 = VectorType::get({4}, f32);
  auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                          gpu::AddressSpace::Workgroup);
  // The tiles the op says it stages (the residency report prints the same).
  SmallVector<Value, 3> staged;
  for (const OnlineStagedTile &t : op.getStagedTiles()) {
    staged.push_back(addWorkgroupBuffer(
        MemRefType::get({t.rows, t.rowElements}, f32, nullptr, space), at));
    sharedBytesUsed += t.bytes();
  }
  Value qs = staged[0], ks = staged[1], vs = staged[2];

  auto idx = [&](int64_t v) { return constIndex(v); };
  auto add = [&](Value a, Value c) {
    return arith::AddIOp::create(b, at, a, c).getResult();
  };
  auto mul = [&](Value a, int64_t c) {
    return arith::MulIOp::create(b, at, a, idx(c)).getResult();
  };
  auto fma = [&](Value a, Value c, Value acc) {
    return math::FmaOp::create(b, at, a, c, acc).getResult();
  };
  auto fconst = [&](double v) { return constF32(v); };
  auto align16 = llvm::MaybeAlign(16);

  // Grid coordinates: the batch dims, then the row tile.
  SmallVector<Value> batchIdx(blockCoords.begin(),
                              blockCoords.begin() + batch.size());
  Value rowBase = mul(blockCoords[batch.size()], rows);
  auto globalIdx = [&](Value a, Value c) {
    SmallVector<Value> v(batchIdx);
    v.push_back(a);
    v.push_back(c);
    return v;
  };
  Value g = arith::DivUIOp::create(b, at, tid, idx(4));
  Value c = arith::RemUIOp::create(b, at, tid, idx(4));

  // Cooperative staging: `count` rows of `width` floats from global rows
  // base + row (clamped to `extent` - 1; rows past it are zero) into buf.
  auto stage = [&](Value mem, Value buf, Value base, int64_t count,
                   int64_t width, int64_t extent) {
    int64_t chunks = count * width / 4;
    int64_t perRow = width / 4;
    auto loop = scf::ForOp::create(b, at, tid, idx(chunks), idx(T));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value n = loop.getInductionVar();
    Value row = arith::DivUIOp::create(b, at, n, idx(perRow));
    Value col = mul(arith::RemUIOp::create(b, at, n, idx(perRow)), 4);
    Value grow = add(base, row);
    Value inside = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ult,
                                         grow, idx(extent));
    Value clamped = arith::MinUIOp::create(b, at, grow, idx(extent - 1));
    Value x = vector::LoadOp::create(b, at, v4, mem, globalIdx(clamped, col),
                                     false, align16);
    Value zero = arith::ConstantOp::create(
        b, at, DenseElementsAttr::get(v4, b.getF32FloatAttr(0.0f)));
    x = arith::SelectOp::create(b, at, inside, x, zero);
    vector::StoreOp::create(b, at, x, buf, ValueRange{row, col}, false,
                            align16);
  };

  stage(qMem, qs, rowBase, rows, D, S);

  double scale = op.getScale().convertToDouble() * 1.4426950408889634;
  Value ninf = fconst(-std::numeric_limits<double>::infinity());
  int64_t cols = E / 4; // acc columns per thread
  SmallVector<Value> init;
  for (int64_t r = 0; r < R; ++r)
    init.push_back(ninf); // m
  for (int64_t r = 0; r < R; ++r)
    init.push_back(fconst(0.0)); // l
  for (int64_t r = 0; r < R * cols; ++r)
    init.push_back(fconst(0.0)); // acc
  int64_t tiles = llvm::divideCeil(N, kKeyTile);
  bool partialKeys = N % kKeyTile != 0;
  Value lane32 = arith::IndexCastOp::create(b, at, b.getI32Type(), laneId);
  Value quadBase = arith::AndIOp::create(
      b, at, lane32, arith::ConstantIntOp::create(b, at, ~int64_t(3), 32));
  Value width32 = arith::ConstantIntOp::create(b, at, 32, 32);

  auto loop = scf::ForOp::create(b, at, idx(0), idx(tiles), idx(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ++loopDepth;
    Value keyBase = mul(loop.getInductionVar(), kKeyTile);
    ValueRange carried = loop.getRegionIterArgs();
    // Every thread is done with the previous tile (and Q is staged).
    gpu::BarrierOp::create(b, at);
    stage(kMem, ks, keyBase, kKeyTile, D, N);
    stage(vMem, vs, keyBase, kKeyTile, E, N);
    gpu::BarrierOp::create(b, at);

    // S = Q K^T for the thread's R rows and 16 keys.
    SmallVector<Value> s(R * kKeysPerThread, fconst(0.0));
    SmallVector<Value> qRow(R);
    for (int64_t r = 0; r < R; ++r)
      qRow[r] = add(g, idx(r * groups));
    SmallVector<Value> kRow(kKeysPerThread);
    for (int64_t u = 0; u < kKeysPerThread; ++u)
      kRow[u] = add(c, idx(4 * u));
    for (int64_t dc = 0; dc < D / 4; ++dc) {
      Value col = idx(dc * 4);
      SmallVector<Value> qv(R), kv(kKeysPerThread);
      for (int64_t r = 0; r < R; ++r)
        qv[r] = vector::LoadOp::create(b, at, v4, qs, ValueRange{qRow[r], col},
                                       false, align16);
      for (int64_t u = 0; u < kKeysPerThread; ++u)
        kv[u] = vector::LoadOp::create(b, at, v4, ks, ValueRange{kRow[u], col},
                                       false, align16);
      for (int64_t x = 0; x < 4; ++x) {
        SmallVector<Value> qx(R), kx(kKeysPerThread);
        for (int64_t r = 0; r < R; ++r)
          qx[r] = vector::ExtractOp::create(b, at, qv[r], x);
        for (int64_t u = 0; u < kKeysPerThread; ++u)
          kx[u] = vector::ExtractOp::create(b, at, kv[u], x);
        for (int64_t r = 0; r < R; ++r)
          for (int64_t u = 0; u < kKeysPerThread; ++u)
            s[r * kKeysPerThread + u] =
                fma(qx[r], kx[u], s[r * kKeysPerThread + u]);
      }
    }
    Value cScale = fconst(scale);
    for (int64_t u = 0; u < kKeysPerThread; ++u) {
      Value valid;
      if (partialKeys)
        valid = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ult,
                                      add(keyBase, kRow[u]), idx(N));
      for (int64_t r = 0; r < R; ++r) {
        Value &v = s[r * kKeysPerThread + u];
        v = arith::MulFOp::create(b, at, v, cScale);
        if (valid)
          v = arith::SelectOp::create(b, at, valid, v, ninf);
      }
    }
    // The online state.
    SmallVector<Value> next(carried.begin(), carried.end());
    SmallVector<Value> p(R * kKeysPerThread);
    for (int64_t r = 0; r < R; ++r) {
      Value mx = s[r * kKeysPerThread];
      for (int64_t u = 1; u < kKeysPerThread; ++u)
        mx = arith::MaximumFOp::create(b, at, mx, s[r * kKeysPerThread + u]);
      for (int32_t off : {1, 2}) {
        Value o = gpu::ShuffleOp::create(b, at, mx, off, 32,
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
        mx = arith::MaximumFOp::create(b, at, mx, o);
      }
      Value mOld = carried[r];
      Value mNew = arith::MaximumFOp::create(b, at, mOld, mx);
      Value empty = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OEQ,
                                          mNew, ninf);
      Value mUse = arith::SelectOp::create(b, at, empty, fconst(0.0), mNew);
      Value alpha = math::Exp2Op::create(
          b, at, arith::SubFOp::create(b, at, mOld, mUse));
      Value l = arith::MulFOp::create(b, at, carried[R + r], alpha);
      for (int64_t u = 0; u < kKeysPerThread; ++u) {
        Value &pv = p[r * kKeysPerThread + u];
        pv = math::Exp2Op::create(
            b, at, arith::SubFOp::create(b, at, s[r * kKeysPerThread + u], mUse));
        l = arith::AddFOp::create(b, at, l, pv);
      }
      next[r] = mNew;
      next[R + r] = l;
      for (int64_t w = 0; w < cols; ++w)
        next[2 * R + r * cols + w] =
            arith::MulFOp::create(b, at, carried[2 * R + r * cols + w], alpha);
    }
    // acc += P V, P from the quad by shuffles.
    SmallVector<Value> srcLane(4);
    for (int32_t q = 0; q < 4; ++q)
      srcLane[q] = arith::OrIOp::create(
          b, at, quadBase, arith::ConstantIntOp::create(b, at, q, 32));
    for (int64_t jj = 0; jj < kKeyTile; ++jj) {
      SmallVector<Value> pj(R);
      for (int64_t r = 0; r < R; ++r)
        pj[r] = gpu::ShuffleOp::create(b, at, p[r * kKeysPerThread + jj / 4],
                                       srcLane[jj % 4], width32,
                                       gpu::ShuffleMode::IDX)
                    .getShuffleResult();
      for (int64_t cw = 0; cw < E / 16; ++cw) {
        Value col = add(mul(c, 4), idx(cw * 16));
        Value vv = vector::LoadOp::create(b, at, v4, vs,
                                          ValueRange{idx(jj), col}, false,
                                          align16);
        for (int64_t x = 0; x < 4; ++x) {
          Value vx = vector::ExtractOp::create(b, at, vv, x);
          for (int64_t r = 0; r < R; ++r) {
            Value &acc = next[2 * R + r * cols + cw * 4 + x];
            acc = fma(pj[r], vx, acc);
          }
        }
      }
    }
    scf::YieldOp::create(b, at, next);
    --loopDepth;
  }

  // y = acc / l, l summed over the quad.
  ValueRange out = loop.getResults();
  for (int64_t r = 0; r < R; ++r) {
    Value l = out[R + r];
    for (int32_t off : {1, 2}) {
      Value o = gpu::ShuffleOp::create(b, at, l, off, 32, gpu::ShuffleMode::XOR)
                    .getShuffleResult();
      l = arith::AddFOp::create(b, at, l, o);
    }
    Value row = add(rowBase, add(g, idx(r * groups)));
    Value inside = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ult, row,
                                         idx(S));
    auto ifOp = scf::IfOp::create(b, at, inside, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    for (int64_t cw = 0; cw < E / 16; ++cw) {
      Value vec = arith::ConstantOp::create(
          b, at, DenseElementsAttr::get(v4, b.getF32FloatAttr(0.0f)));
      for (int64_t x = 0; x < 4; ++x) {
        Value y = arith::DivFOp::create(b, at, out[2 * R + r * cols + cw * 4 + x],
                                        l);
        vec = vector::InsertOp::create(b, at, y, vec, x);
      }
      Value col = add(mul(c, 4), idx(cw * 16));
      vector::StoreOp::create(b, at, vec, yMem, globalIdx(row, col), false,
                              align16);
    }
  }
  return success();
}
