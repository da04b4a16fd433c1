//===- OnlineContraction.cpp - motif.online_contract, the flash form ------===//
//
// One block computes a tile of `rows` query rows of one batch index:
//
//   stage Q[rows x D] in shared memory once;
//   for each tile of T = kOnlineKeyTile (32) keys:
//     stage K[T x D] and V[T x E] in shared memory (stages n > 1, the
//     default without key groups where the bytes fit: cp.async into stage
//     t % n, tiles t + 1 .. t + n - 1 landing while tile t is used; else
//     loads and stores between barriers);
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
// y = NaN, as the unfused softmax gives). A partial last row block (the
// unsized block level over rows its tile does not divide) stages its rows
// past the extent as zeros and stores none of them.
//
// splits(s): the block's threads form s groups of threads / s (whole
// warps); group q walks key tiles [q t, (q + 1) t), t = ceil(tiles / s),
// staging them in its own K/V buffers, with the state above. Groups 1.. then
// store (m, quad-summed l, acc) in shared memory and group 0 merges them:
// M = max_q m_q, w_q = exp2(m_q - M), y = (sum_q w_q acc_q) / (sum_q w_q l_q)
// (M = 0 where every m_q is -inf). docs/lowering.md, "Online contraction".
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
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
  int64_t splits = op.getKeyGroups();
  int64_t T = threads / splits; // threads of one key group
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
  // The tiles the op says it stages (the residency report prints the same);
  // a tile of several stages gets a leading stage dim.
  SmallVector<OnlineStagedTile> stagedTiles = op.getStagedTiles();
  SmallVector<Value, 4> staged = addStagedTileBuffers(stagedTiles, f32, at);
  Value qs = staged[0], ks = staged[1], vs = staged[2];
  Value partial = splits > 1 ? staged[3] : Value();
  // cp.async pipelining of the K/V tiles (OnlineContractOp::getKeyStages).
  const int64_t stages = stagedTiles[1].stages;
  assert((stages == 1 || splits == 1) && "key groups stage one copy");

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
  // The key group and the thread within it (tid itself without splits).
  Value group = splits > 1 ? Value(arith::DivUIOp::create(b, at, tid, idx(T)))
                           : Value();
  Value gtid =
      splits > 1 ? Value(arith::RemUIOp::create(b, at, tid, idx(T))) : tid;
  Value g = arith::DivUIOp::create(b, at, gtid, idx(4));
  Value c = arith::RemUIOp::create(b, at, gtid, idx(4));

  // Cooperative staging by `self` of `step` threads: `count` rows of
  // `width` floats from global rows base + row (clamped to `extent` - 1;
  // rows past it are zero) into buf's rows bufBase + row.
  auto stage = [&](Value mem, Value buf, Value base, int64_t count,
                   int64_t width, int64_t extent, Value self, int64_t step,
                   Value bufBase) {
    int64_t chunks = count * width / 4;
    int64_t perRow = width / 4;
    auto loop = scf::ForOp::create(b, at, self, idx(chunks), idx(step));
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
    vector::StoreOp::create(b, at, x, buf,
                            ValueRange{bufBase ? add(bufBase, row) : row, col},
                            false, align16);
  };

  stage(qMem, qs, rowBase, rows, D, S, tid, threads, Value());

  // With stages: the K/V tiles by cp.async (emitRowCopies), rows past the
  // keys zero-filled.
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());
  auto copyRows = [&](Value mem, Value buf, Value stageIdx, Value base,
                      int64_t count, int64_t width, int64_t extent,
                      bool guard) {
    (void)emitRowCopies(mem, batchIdx, buf, stageIdx, base, count, width,
                        extent, guard, at);
  };
  auto commit = [&]() {
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, at, tokenType,
                                                   ValueRange{})
        .getResult();
  };

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
  // Tiles per key group; a group's tiles past the last are all masked.
  int64_t groupTiles = llvm::divideCeil(tiles, splits);
  bool partialKeys = N % kKeyTile != 0 || groupTiles * splits != tiles;
  // The group's rows in the K/V buffers, and its first key.
  Value bufBase = splits > 1 ? mul(group, kKeyTile) : Value();
  Value groupKey = splits > 1 ? mul(group, groupTiles * kKeyTile) : Value();
  Value lane32 = arith::IndexCastOp::create(b, at, b.getI32Type(), laneId);
  Value quadBase = arith::AndIOp::create(
      b, at, lane32, arith::ConstantIntOp::create(b, at, ~int64_t(3), 32));
  Value width32 = arith::ConstantIntOp::create(b, at, 32, 32);

  // Prologue of the pipeline: tiles 0 .. stages - 2 into their stages, one
  // group each (empty past the last tile, so that the waits count tiles).
  Value lastGroup;
  for (int64_t t = 0; t + 1 < stages; ++t) {
    if (t < groupTiles) {
      copyRows(kMem, ks, idx(t), idx(t * kKeyTile), kKeyTile, D, N,
               partialKeys);
      copyRows(vMem, vs, idx(t), idx(t * kKeyTile), kKeyTile, E, N,
               partialKeys);
    }
    lastGroup = commit();
  }

  auto loop = scf::ForOp::create(b, at, idx(0), idx(groupTiles), idx(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ++loopDepth;
    Value keyBase = mul(loop.getInductionVar(), kKeyTile);
    if (groupKey)
      keyBase = add(groupKey, keyBase);
    ValueRange carried = loop.getRegionIterArgs();
    Value stageIdx;
    if (stages > 1) {
      // Tile t landed (the thread's own copies: at most stages - 2 later
      // groups pending), and after the barrier every thread's; every
      // thread is done with tile t - 1, whose stage the copy of tile
      // t + stages - 1 overwrites while this one is used. One group a
      // tile (empty past the last), so the wait counts tiles.
      Value t = loop.getInductionVar();
      stageIdx = arith::RemUIOp::create(b, at, t, idx(stages));
      nvgpu::DeviceAsyncWaitOp::create(b, at, lastGroup,
                                       b.getI32IntegerAttr(stages - 2));
      gpu::BarrierOp::create(b, at);
      Value next = add(t, idx(stages - 1));
      Value more = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ult,
                                         next, idx(groupTiles));
      {
        auto ifOp = scf::IfOp::create(b, at, more, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard g2(b);
        b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
        Value nextStage = arith::RemUIOp::create(b, at, next, idx(stages));
        Value nextKey = mul(next, kKeyTile);
        copyRows(kMem, ks, nextStage, nextKey, kKeyTile, D, N, partialKeys);
        copyRows(vMem, vs, nextStage, nextKey, kKeyTile, E, N, partialKeys);
      }
      commit();
    } else {
      // Every thread is done with the previous tile (and Q is staged).
      gpu::BarrierOp::create(b, at);
      stage(kMem, ks, keyBase, kKeyTile, D, N, gtid, T, bufBase);
      stage(vMem, vs, keyBase, kKeyTile, E, N, gtid, T, bufBase);
      gpu::BarrierOp::create(b, at);
    }
    // An index into a K/V buffer (its stage first where it has stages).
    auto kvAt = [&](Value row, Value col) {
      SmallVector<Value, 3> at3;
      if (stageIdx)
        at3.push_back(stageIdx);
      at3.push_back(row);
      at3.push_back(col);
      return at3;
    };

    // S = Q K^T for the thread's R rows and 16 keys.
    SmallVector<Value> s(R * kKeysPerThread, fconst(0.0));
    SmallVector<Value> qRow(R);
    for (int64_t r = 0; r < R; ++r)
      qRow[r] = add(g, idx(r * groups));
    SmallVector<Value> kRow(kKeysPerThread), kBuf(kKeysPerThread);
    for (int64_t u = 0; u < kKeysPerThread; ++u) {
      kRow[u] = add(c, idx(4 * u));
      kBuf[u] = bufBase ? add(bufBase, kRow[u]) : kRow[u];
    }
    for (int64_t dc = 0; dc < D / 4; ++dc) {
      Value col = idx(dc * 4);
      SmallVector<Value> qv(R), kv(kKeysPerThread);
      for (int64_t r = 0; r < R; ++r)
        qv[r] = vector::LoadOp::create(b, at, v4, qs, ValueRange{qRow[r], col},
                                       false, align16);
      for (int64_t u = 0; u < kKeysPerThread; ++u)
        kv[u] = vector::LoadOp::create(b, at, v4, ks, kvAt(kBuf[u], col),
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
      Value alpha =
          emitFastExp2(b, at, arith::SubFOp::create(b, at, mOld, mUse));
      Value l = arith::MulFOp::create(b, at, carried[R + r], alpha);
      for (int64_t u = 0; u < kKeysPerThread; ++u) {
        Value &pv = p[r * kKeysPerThread + u];
        pv = emitFastExp2(
            b, at,
            arith::SubFOp::create(b, at, s[r * kKeysPerThread + u], mUse));
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
        Value vRow = bufBase ? add(bufBase, idx(jj)) : idx(jj);
        Value vv = vector::LoadOp::create(b, at, v4, vs, kvAt(vRow, col),
                                          false, align16);
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

  // l summed over the quad (every lane takes part in the shuffles).
  ValueRange out = loop.getResults();
  SmallVector<Value> mOut(out.begin(), out.begin() + R);
  SmallVector<Value> lOut(R);
  for (int64_t r = 0; r < R; ++r) {
    Value l = out[R + r];
    for (int32_t off : {1, 2}) {
      Value o = gpu::ShuffleOp::create(b, at, l, off, 32, gpu::ShuffleMode::XOR)
                    .getShuffleResult();
      l = arith::AddFOp::create(b, at, l, o);
    }
    lOut[r] = l;
  }
  SmallVector<Value> accOut(out.begin() + 2 * R, out.end());
  auto accCol = [&](int64_t cw) { return add(mul(c, 4), idx(cw * 16)); };

  // y = acc * (1 / l), 128-bit stores of the thread's rows inside the extent.
  auto storeRows = [&](ArrayRef<Value> acc, ArrayRef<Value> l) {
    for (int64_t r = 0; r < R; ++r) {
      Value row = add(rowBase, add(g, idx(r * groups)));
      Value inside =
          arith::CmpIOp::create(b, at, arith::CmpIPredicate::ult, row, idx(S));
      auto ifOp = scf::IfOp::create(b, at, inside, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      // One reciprocal a row, then multiplies (the tensor-core form's
      // epilogue too): an IEEE division per element is a slow-path CALL
      // behind a check each. A row with no finite score has l = 0: 0 * inf
      // is NaN, as 0 / 0 was (and as torch's softmax of it).
      Value inv = arith::DivFOp::create(b, at, fconst(1.0), l[r]);
      for (int64_t cw = 0; cw < E / 16; ++cw) {
        Value vec = arith::ConstantOp::create(
            b, at, DenseElementsAttr::get(v4, b.getF32FloatAttr(0.0f)));
        for (int64_t x = 0; x < 4; ++x) {
          Value y =
              arith::MulFOp::create(b, at, acc[r * cols + cw * 4 + x], inv);
          vec = vector::InsertOp::create(b, at, y, vec, x);
        }
        vector::StoreOp::create(b, at, vec, yMem, globalIdx(row, accCol(cw)),
                                false, align16);
      }
    }
  };
  if (splits == 1) {
    storeRows(accOut, lOut);
    return success();
  }

  // Key groups 1..: their partial states to shared memory, row
  // (group - 1) * rows + the row in the block: acc, then m and l in the
  // row's padding (columns E and E + 1).
  Value zeroIdx = idx(0);
  auto slotOf = [&](Value q, int64_t r) {
    return add(mul(arith::SubIOp::create(b, at, q, idx(1)), rows),
               add(g, idx(r * groups)));
  };
  {
    Value later = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ne, group,
                                        zeroIdx);
    auto ifOp = scf::IfOp::create(b, at, later, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
    Value first = arith::CmpIOp::create(b, at, arith::CmpIPredicate::eq, c,
                                        zeroIdx);
    for (int64_t r = 0; r < R; ++r) {
      Value slot = slotOf(group, r);
      for (int64_t cw = 0; cw < E / 16; ++cw) {
        Value vec = arith::ConstantOp::create(
            b, at, DenseElementsAttr::get(v4, b.getF32FloatAttr(0.0f)));
        for (int64_t x = 0; x < 4; ++x)
          vec = vector::InsertOp::create(b, at, accOut[r * cols + cw * 4 + x],
                                         vec, x);
        vector::StoreOp::create(b, at, vec, partial,
                                ValueRange{slot, accCol(cw)}, false, align16);
      }
      auto lead = scf::IfOp::create(b, at, first, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard inner(b);
      b.setInsertionPoint(lead.thenBlock()->getTerminator());
      memref::StoreOp::create(b, at, mOut[r], partial,
                              ValueRange{slot, idx(E)});
      memref::StoreOp::create(b, at, lOut[r], partial,
                              ValueRange{slot, idx(E + 1)});
    }
  }
  gpu::BarrierOp::create(b, at);
  // Group 0 merges: M = max_q m_q (0 where all are -inf), w_q =
  // exp2(m_q - M), acc = sum_q w_q acc_q, l = sum_q w_q l_q.
  Value isFirst =
      arith::CmpIOp::create(b, at, arith::CmpIPredicate::eq, group, zeroIdx);
  auto ifOp = scf::IfOp::create(b, at, isFirst, /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
  SmallVector<Value> acc(accOut), l(lOut);
  for (int64_t r = 0; r < R; ++r) {
    SmallVector<Value> slot(splits), mq(splits), lq(splits);
    Value mMax = mOut[r];
    for (int64_t q = 1; q < splits; ++q) {
      slot[q] = slotOf(idx(q), r);
      mq[q] = memref::LoadOp::create(b, at, partial,
                                     ValueRange{slot[q], idx(E)});
      lq[q] = memref::LoadOp::create(b, at, partial,
                                     ValueRange{slot[q], idx(E + 1)});
      mMax = arith::MaximumFOp::create(b, at, mMax, mq[q]);
    }
    Value empty = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OEQ, mMax,
                                        ninf);
    Value mUse = arith::SelectOp::create(b, at, empty, fconst(0.0), mMax);
    auto weight = [&](Value m) {
      return emitFastExp2(b, at, arith::SubFOp::create(b, at, m, mUse));
    };
    Value w0 = weight(mOut[r]);
    l[r] = arith::MulFOp::create(b, at, lOut[r], w0);
    for (int64_t w = 0; w < cols; ++w)
      acc[r * cols + w] =
          arith::MulFOp::create(b, at, accOut[r * cols + w], w0);
    for (int64_t q = 1; q < splits; ++q) {
      Value wq = weight(mq[q]);
      l[r] = fma(lq[q], wq, l[r]);
      for (int64_t cw = 0; cw < E / 16; ++cw) {
        Value vec = vector::LoadOp::create(b, at, v4, partial,
                                           ValueRange{slot[q], accCol(cw)},
                                           false, align16);
        for (int64_t x = 0; x < 4; ++x) {
          Value &a = acc[r * cols + cw * 4 + x];
          a = fma(vector::ExtractOp::create(b, at, vec, x), wq, a);
        }
      }
    }
  }
  storeRows(acc, l);
  return success();
}
