//===- OnlineContractionMma.cpp - the flash form on tensor cores ----------===//
//
// motif.online_contract with f16/bf16 operands. One block computes a tile of
// `rows` query rows of one batch index in W warps of MT m-tiles (16 rows)
// each (OnlineContractOp::mmaWarpsAndTiles):
//
//   cp.async Q[rows x D] (one group), K/V tiles 0 .. stages - 2 (a group
//   each; 3 stages, OnlineContractOp::getStagedTiles); wait for Q, keep the warp's Q fragments in registers (ldmatrix) when they are at
//   most 32 registers, else re-read them per tile;
//   for each tile t of T = getKeyTile() keys (64; 32 when the warp holds
//   2 m-tiles of more than 64 value columns):
//     wait for tile t, barrier (every warp is done with tile t - 1), cp.async
//     tile t + stages - 1 into the stage tile t - 1 used;
//     S = Q K^T on mma.sync m16n8k16 (K rows through ldmatrix, keys are the
//       n of the B operand): the accumulator fragment holds S[g][2c, 2c+1]
//       and S[g + 8][2c, 2c+1] of each 8-key n-tile, g = lane / 4, c =
//       lane % 4 -- a row lives in the 4 lanes of a quad;
//     the online state per row: m' = max(m, c' max S) (2 shuffles in the
//       quad), p = exp2(fma(S, c', -m')), alpha = exp2(m - m'), l = alpha l + sum p
//       (the thread's part), acc *= alpha;
//     acc += P V: P rounded to the operands' type and repacked in place as
//       the A fragment (n-tiles 2kk and 2kk + 1 of S are k-slice kk of P:
//       no shuffle, no shared memory), V through ldmatrix.trans;
//   l summed over the quad, y = acc * (1 / l), rounded to the result type.
//
// c' = scale * log2(e). Keys past the extent are zero-filled by cp.async
// and score -inf; a row whose scores are all -inf uses 0 for its max.
// docs/lowering.md, "Online contraction on tensor cores".
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::detail;

LogicalResult KernelEmitter::emitOnlineContractionMma(OnlineContractOp op,
                                                      Value qMem, Value kMem,
                                                      Value vMem, Value yMem) {
  Location at = op.getLoc();
  int64_t rank = cast<RankedTensorType>(op.getResult().getType()).getRank();
  int64_t eDim = op.getValueDim();
  int64_t jDim = op.getKeyDim(), dDim = op.getContractedDim();
  SmallVector<int64_t> extents = op.getIterationExtents();
  int64_t batchDims = rank - 2;
  int64_t N = extents[jDim], D = extents[dDim], E = extents[eDim];
  int64_t rows = op.getRowsPerBlock();
  auto [W, MT] = OnlineContractOp::mmaWarpsAndTiles(rows);
  const int64_t KT = op.getKeyTile();
  Type element = op.getLhs().getType().getElementType();
  Type yElement = op.getResult().getType().getElementType();
  Type f32 = b.getF32Type();
  SmallVector<OnlineStagedTile> tiles = op.getStagedTiles();
  const int64_t stages = tiles[1].stages;
  // S = Q K^T on wgmma (sm_90a): the block is one warpgroup (4 warps, 64 or
  // 128 rows: one m64 tile or two), Q and the K tiles unpadded in the
  // 128-byte swizzle, 64-column atoms of D (docs/lowering.md, "Online
  // contraction on tensor cores"). V stays padded for ldmatrix.trans.
  bool wgmmaS = onlineWgmma && chip == "sm_90a" && op.getWgmmaScoresN();
  assert((!wgmmaS || (W == 4 && D % 64 == 0)) && "one warpgroup, 64-wide D");
  // P V on wgmma too: P (rounded) through a swizzled shared tile of rows x
  // KT (K-major A: 128-byte rows at 64 keys, 64-byte rows at 32), V staged
  // MN-major in 64-column atoms of E (B transposed); where the tiles fit
  // the shared memory a block may opt in to.
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  bool wgmmaPV = wgmmaS && (onlineWgmmaPV == WgmmaPV::On
                                ? op.hasWgmmaPV()
                                : onlineWgmmaPV == WgmmaPV::Auto &&
                                      op.prefersWgmmaPV());
  Value qs, ks, vs, ps;
  if (wgmmaS) {
    auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                            gpu::AddressSpace::Workgroup);
    auto buffer = [&](ArrayRef<int64_t> shape) {
      return addWorkgroupBuffer(MemRefType::get(shape, element, nullptr, space),
                                at, kSwizzle128Alignment);
    };
    qs = buffer({D / 64, rows, 64});
    ks = buffer({stages, D / 64, KT, 64});
    sharedBytesUsed += (rows + stages * KT) * D * bytes;
    if (wgmmaPV) {
      vs = buffer({stages, E / 64, KT, 64});
      ps = buffer({rows, KT});
      sharedBytesUsed += (stages * KT * E + rows * KT) * bytes;
    } else {
      vs = addStagedTileBuffers(ArrayRef<OnlineStagedTile>(tiles).slice(2, 1),
                                element, at)[0];
    }
  } else {
    SmallVector<Value, 4> bufs = addStagedTileBuffers(tiles, element, at);
    qs = bufs[0], ks = bufs[1], vs = bufs[2];
  }

  auto idx = [&](int64_t v) { return constIndex(v); };
  auto add = [&](Value a, Value c) {
    return arith::AddIOp::create(b, at, a, c).getResult();
  };
  auto mul = [&](Value a, int64_t c) {
    return c == 1 ? a : arith::MulIOp::create(b, at, a, idx(c)).getResult();
  };
  auto div = [&](Value a, int64_t c) {
    return arith::DivUIOp::create(b, at, a, idx(c)).getResult();
  };
  auto rem = [&](Value a, int64_t c) {
    return arith::RemUIOp::create(b, at, a, idx(c)).getResult();
  };

  SmallVector<Value> batchIdx(blockCoords.begin(),
                              blockCoords.begin() + batchDims);
  Value rowBase = mul(blockCoords[batchDims], rows);
  auto globalIdx = [&](Value r, Value c) {
    SmallVector<Value> v(batchIdx);
    v.push_back(r);
    v.push_back(c);
    return v;
  };
  auto tokenType = nvgpu::DeviceAsyncTokenType::get(b.getContext());

  // cp.async of Q and of the K/V tiles (emitRowCopies).
  auto copyRows = [&](Value mem, Value buf, Value stage, Value base,
                      int64_t count, int64_t width, int64_t extent,
                      bool guard, bool swizzle = false) {
    return emitRowCopies(mem, batchIdx, buf, stage, base, count, width, extent,
                         guard, at, swizzle);
  };
  auto commit = [&](ArrayRef<Value> tokens) {
    return nvgpu::DeviceAsyncCreateGroupOp::create(b, at, tokenType, tokens)
        .getResult();
  };
  auto wait = [&](Value token, int32_t pending) {
    nvgpu::DeviceAsyncWaitOp::create(b, at, token,
                                     b.getI32IntegerAttr(pending));
  };
  bool partialKeys = N % KT != 0;
  auto copyTile = [&](Value stage, Value keyBase) {
    SmallVector<Value> t = copyRows(kMem, ks, stage, keyBase, KT, D, N,
                                    partialKeys, wgmmaS);
    llvm::append_range(t, copyRows(vMem, vs, stage, keyBase, KT, E, N,
                                   partialKeys, wgmmaPV));
    return t;
  };

  // wgmma operands: a shared buffer's address (bytes, i64 for descriptors).
  auto i64 = [&](Value v) {
    return arith::IndexCastUIOp::create(b, at, b.getI64Type(), v).getResult();
  };
  auto address = [&](Value buf) {
    return memref::ExtractAlignedPointerAsIndexOp::create(b, at, buf)
        .getResult();
  };

  // Lane coordinates of the fragments.
  Value g = div(laneId, 4), cq = rem(laneId, 4);
  Value warpRow = mul(warpId, MT * 16);
  // The first row of the warp's m-tile mt: its MT consecutive 16-row tiles;
  // on wgmma 16 rows of each m64 tile of the warpgroup.
  auto tileRow = [&](int64_t mt) {
    return wgmmaS ? add(mul(warpId, 16), idx(mt * 64))
                  : add(warpRow, idx(mt * 16));
  };
  Value aRow = rem(laneId, 16), aCol = mul(div(laneId, 16), 8);
  Value kHalf = mul(rem(div(laneId, 8), 2), 8), nHalf = mul(div(laneId, 16), 8);
  Value inMatrix = rem(laneId, 8);
  auto ldmatrix = [&](Value buf, Value stage, Value r, Value c,
                      bool transpose) {
    SmallVector<Value> at3;
    if (stage)
      at3.push_back(stage);
    at3.push_back(r);
    at3.push_back(c);
    auto type = VectorType::get({4, 2}, element);
    return nvgpu::LdMatrixOp::create(b, at, type, buf, at3, transpose, 4)
        .getResult();
  };
  auto rowsOf = [&](Value frag, int64_t first, int64_t count) {
    SmallVector<Value> out;
    for (int64_t r = first; r < first + count; ++r)
      out.push_back(vector::ExtractOp::create(b, at, frag, r));
    return out;
  };
  // The A fragments of Q at 16-wide slice kk of d for the warp's m-tile mt.
  auto loadQ = [&](int64_t mt, int64_t kk) {
    return ldmatrix(qs, Value(), add(warpRow, add(idx(mt * 16), aRow)),
                    add(aCol, idx(kk * 16)), /*transpose=*/false);
  };

  // Prologue: Q, then K/V tiles 0 .. stages - 2, one group each (an empty
  // group past the last tile keeps the count); Q lands first.
  int64_t keyTiles = llvm::divideCeil(N, KT);
  Value lastGroup = commit(copyRows(qMem, qs, Value(), rowBase, rows, D, 0,
                                    /*guard=*/false, wgmmaS));
  for (int64_t t = 0; t + 1 < stages; ++t)
    lastGroup = commit(t < keyTiles ? copyTile(idx(t), idx(t * KT))
                                    : SmallVector<Value>{});
  wait(lastGroup, stages - 1);
  gpu::BarrierOp::create(b, at);
  bool qInRegisters = !wgmmaS && MT * (D / 16) * 4 <= 32;
  SmallVector<Value> qFrags; // [mt * D/16 + kk]
  if (qInRegisters)
    for (int64_t mt = 0; mt < MT; ++mt)
      for (int64_t kk = 0; kk < D / 16; ++kk)
        qFrags.push_back(loadQ(mt, kk));

  double scale = op.getScale().convertToDouble() * 1.4426950408889634;
  Value ninf = constF32(-std::numeric_limits<double>::infinity());
  int64_t sTiles = KT / 8, eTiles = E / 8;
  // Carried: m and l per (mt, h) row, then acc[(mt * eTiles + ne) * 4 + r].
  int64_t nRows = MT * 2;
  SmallVector<Value> init(nRows, ninf);
  init.append(nRows, constF32(0.0));
  init.append(MT * eTiles * 4, constF32(0.0));
  auto loop = scf::ForOp::create(b, at, idx(0), idx(keyTiles), idx(1), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ++loopDepth;
    Value t = loop.getInductionVar();
    ValueRange carried = loop.getRegionIterArgs();
    Value stage = rem(t, stages);
    Value keyBase = mul(t, KT);
    // Tile t landed (at most stages - 2 later groups pending); every warp is
    // done with tile t - 1, whose stage the copy of tile t + stages - 1
    // overwrites while this one is used. One group per step, empty past the
    // last tile, so that the wait counts tiles.
    wait(lastGroup, stages - 2);
    // wgmma reads shared memory through the async proxy: each thread's
    // landed copies (Q's too, before the first tile) are fenced to it
    // before the barrier.
    if (wgmmaS)
      NVVM::FenceProxyOp::create(
          b, at, NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(b.getContext(),
                                     NVVM::SharedSpace::shared_cta));
    gpu::BarrierOp::create(b, at);
    Value next = add(t, idx(stages - 1));
    Value more = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ult, next,
                                       idx(keyTiles));
    {
      auto ifOp = scf::IfOp::create(b, at, more, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      copyTile(rem(next, stages), mul(next, KT));
    }
    commit({});

    // S = Q K^T: s[(mt * sTiles + nt) * 4 + r].
    SmallVector<Value> s(MT * sTiles * 4, constF32(0.0));
    if (wgmmaS) {
      // Per m64 tile, one wgmma m64nKTk16 per 16-wide slice of D (32 bytes
      // into a 64-column atom); committed as one group and waited for: the
      // scores feed the softmax at once. Struct element nt * 4 + h * 2 + x
      // is the mma.sync m16n8 accumulator of the warp's 16 rows.
      Value qBase = address(qs);
      Value kBase = add(address(ks), mul(stage, D * KT * 2));
      auto accType = LLVM::LLVMStructType::getLiteral(
          b.getContext(), SmallVector<Type>(KT / 2, f32));
      NVVM::WgmmaFenceAlignedOp::create(b, at);
      SmallVector<Value> accs;
      for (int64_t mt = 0; mt < MT; ++mt) {
        // The first slice overwrites (scale-d 0): no zeroed registers, which
        // ptxas would have to order against the wgmmas in flight.
        Value acc = LLVM::UndefOp::create(b, at, accType);
        for (int64_t kk = 0; kk < D / 16; ++kk) {
          int64_t atom = kk / 4, inAtom = (kk % 4) * 32;
          Value qAddr = add(qBase, idx(atom * rows * 128 + mt * 64 * 128 +
                                       inAtom));
          Value kAddr = add(kBase, idx(atom * KT * 128 + inAtom));
          acc = emitWgmmaM64K16(b, at, element, KT, acc,
                                emitWgmmaDescriptor(b, at, i64(qAddr)),
                                emitWgmmaDescriptor(b, at, i64(kAddr)),
                                /*accumulate=*/kk > 0);
        }
        accs.push_back(acc);
      }
      NVVM::WgmmaGroupSyncAlignedOp::create(b, at);
      NVVM::WgmmaWaitGroupSyncOp::create(b, at, 0);
      for (int64_t mt = 0; mt < MT; ++mt)
        for (int64_t r = 0; r < sTiles * 4; ++r)
          s[mt * sTiles * 4 + r] =
              LLVM::ExtractValueOp::create(b, at, accs[mt], r);
    }
    for (int64_t kk = 0; kk < (wgmmaS ? 0 : D / 16); ++kk) {
      SmallVector<Value> aFrags;
      for (int64_t mt = 0; mt < MT; ++mt)
        aFrags.push_back(qInRegisters ? qFrags[mt * (D / 16) + kk]
                                      : loadQ(mt, kk));
      for (int64_t nt = 0; nt < sTiles; nt += 2) {
        // Matrix q of the x4: keys of n-tile nt + q / 2, d half q % 2.
        Value kFrag = ldmatrix(ks, stage, add(idx(nt * 8), add(nHalf, inMatrix)),
                               add(idx(kk * 16), kHalf), /*transpose=*/false);
        for (int64_t h = 0; h < 2; ++h) {
          SmallVector<Value> bRows = rowsOf(kFrag, 2 * h, 2);
          for (int64_t mt = 0; mt < MT; ++mt) {
            int64_t base = (mt * sTiles + nt + h) * 4;
            SmallVector<Value> out = emitMmaM16N8K16(
                b, at, element, rowsOf(aFrags[mt], 0, 4), bRows,
                ArrayRef<Value>(s).slice(base, 4));
            for (int64_t r = 0; r < 4; ++r)
              s[base + r] = out[r];
          }
        }
      }
    }
    // Mask the keys past the extent (scores -inf). The max is taken on the
    // unscaled scores (c' > 0), and c' folds into exp2's argument: one fma.
    Value cScale = constF32(scale);
    if (partialKeys)
      for (int64_t nt = 0; nt < sTiles; ++nt)
        for (int64_t x = 0; x < 2; ++x) {
          Value valid = arith::CmpIOp::create(
              b, at, arith::CmpIPredicate::ult,
              add(keyBase, add(mul(cq, 2), idx(nt * 8 + x))), idx(N));
          for (int64_t mt = 0; mt < MT; ++mt)
            for (int64_t h = 0; h < 2; ++h) {
              Value &v = s[(mt * sTiles + nt) * 4 + 2 * h + x];
              v = arith::SelectOp::create(b, at, valid, v, ninf);
            }
        }
    // The online state, row (mt, h) = rows g + 8 h of m-tile mt.
    SmallVector<Value> nextState(carried.begin(), carried.end());
    SmallVector<Value> alphas(nRows);
    Value moved; // some row of the thread has a new max
    for (int64_t mt = 0; mt < MT; ++mt)
      for (int64_t h = 0; h < 2; ++h) {
        int64_t row = mt * 2 + h;
        auto sAt = [&](int64_t nt, int64_t x) -> Value & {
          return s[(mt * sTiles + nt) * 4 + 2 * h + x];
        };
        Value mx = sAt(0, 0);
        for (int64_t nt = 0; nt < sTiles; ++nt)
          for (int64_t x = 0; x < 2; ++x)
            if (nt || x)
              mx = arith::MaximumFOp::create(b, at, mx, sAt(nt, x));
        for (int32_t off : {1, 2}) {
          Value o = gpu::ShuffleOp::create(b, at, mx, off, 32,
                                           gpu::ShuffleMode::XOR)
                        .getShuffleResult();
          mx = arith::MaximumFOp::create(b, at, mx, o);
        }
        Value mOld = carried[row];
        Value mNew = arith::MaximumFOp::create(
            b, at, mOld, arith::MulFOp::create(b, at, mx, cScale));
        Value empty = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OEQ,
                                            mNew, ninf);
        Value mUse =
            arith::SelectOp::create(b, at, empty, constF32(0.0), mNew);
        Value alpha =
            emitFastExp2(b, at, arith::SubFOp::create(b, at, mOld, mUse));
        Value negM = arith::NegFOp::create(b, at, mUse);
        Value l = arith::MulFOp::create(b, at, carried[nRows + row], alpha);
        for (int64_t nt = 0; nt < sTiles; ++nt)
          for (int64_t x = 0; x < 2; ++x) {
            Value &p = sAt(nt, x);
            p = emitFastExp2(b, at,
                             math::FmaOp::create(b, at, p, cScale, negM));
            l = arith::AddFOp::create(b, at, l, p);
          }
        nextState[row] = mNew;
        nextState[nRows + row] = l;
        alphas[row] = alpha;
        Value rowMoved = arith::CmpFOp::create(
            b, at, arith::CmpFPredicate::UNE, mNew, mOld);
        moved = moved ? Value(arith::OrIOp::create(b, at, moved, rowMoved))
                      : rowMoved;
      }
    // acc *= alpha only where a row's max moved: alpha is exp2(0) = 1
    // exactly otherwise (and acc is 0 while the max is -inf), so skipping
    // the multiplies keeps the bits. Late in the keys the max rarely moves.
    // Worth its branch where the rescale is as many FMULs as the tile has
    // HMMAs (D = E = 128 in 32-key tiles: 128 each; H200, bf16 64 heads x
    // S=4096: 1.683 ms against 1.712), not where it is half as many (D = E
    // = 64 in 64-key tiles: 0.931 ms against 0.882; docs/results/
    // flash-half-skip.txt, flash-variants.txt).
    int64_t rescaleMuls = MT * 2 * eTiles * 2;
    int64_t hmmas = MT * sTiles * (D / 16) + MT * eTiles * (KT / 16);
    if (rescaleMuls < hmmas) {
      for (int64_t mt = 0; mt < MT; ++mt)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t ne = 0; ne < eTiles; ++ne)
            for (int64_t x = 0; x < 2; ++x) {
              Value &acc =
                  nextState[2 * nRows + (mt * eTiles + ne) * 4 + 2 * h + x];
              acc = arith::MulFOp::create(b, at, acc, alphas[mt * 2 + h]);
            }
    } else {
      SmallVector<Value> accs(nextState.begin() + 2 * nRows, nextState.end());
      SmallVector<Type> types(accs.size(), f32);
      auto ifOp = scf::IfOp::create(b, at, types, moved, /*withElse=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      SmallVector<Value> scaled(accs);
      for (int64_t mt = 0; mt < MT; ++mt)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t ne = 0; ne < eTiles; ++ne)
            for (int64_t x = 0; x < 2; ++x) {
              Value &acc = scaled[(mt * eTiles + ne) * 4 + 2 * h + x];
              acc = arith::MulFOp::create(b, at, acc, alphas[mt * 2 + h]);
            }
      scf::YieldOp::create(b, at, scaled);
      b.setInsertionPointToStart(ifOp.elseBlock());
      scf::YieldOp::create(b, at, accs);
      for (auto [k, r] : llvm::enumerate(ifOp.getResults()))
        nextState[2 * nRows + k] = r;
    }
    // acc += P V. P's A fragment at k-slice kk: S n-tiles 2kk, 2kk + 1.
    auto half2 = VectorType::get({2}, element);
    auto f32x2 = VectorType::get({2}, f32);
    auto pack = [&](Value x, Value y) {
      Value v = vector::FromElementsOp::create(b, at, f32x2, ValueRange{x, y});
      return arith::TruncFOp::create(b, at, half2, v).getResult();
    };
    if (wgmmaPV) {
      // P into its shared tile: the pair (keys 8 nt + 2c, + 1) of row r in
      // 16-byte chunk nt, swizzled as the descriptor's mode reads it (128 B:
      // chunk ^ (r % 8); 64 B: chunk ^ ((r / 2) % 4)).
      for (int64_t mt = 0; mt < MT; ++mt)
        for (int64_t h = 0; h < 2; ++h) {
          Value row = add(tileRow(mt), add(g, idx(h * 8)));
          Value phase = KT == 64 ? rem(row, 8) : rem(div(row, 2), 4);
          for (int64_t nt = 0; nt < sTiles; ++nt) {
            int64_t base = (mt * sTiles + nt) * 4 + 2 * h;
            Value chunk = arith::XOrIOp::create(b, at, idx(nt), phase);
            Value col = add(mul(chunk, 8), mul(cq, 2));
            vector::StoreOp::create(b, at, pack(s[base], s[base + 1]), ps,
                                    ValueRange{row, col});
          }
        }
      NVVM::FenceProxyOp::create(
          b, at, NVVM::ProxyKind::async_shared,
          NVVM::SharedSpaceAttr::get(b.getContext(),
                                     NVVM::SharedSpace::shared_cta));
      gpu::BarrierOp::create(b, at);
      // Per m64 tile, one wgmma m64nEk16 per 16 keys: A = P (K-major, 32 B a
      // slice), B = V (MN-major: 16 key rows of 128 B a slice, the 64-wide
      // atoms of E KT x 128 B apart, 8-row groups 1024 B).
      Value pBase = address(ps);
      Value vBase = add(address(vs), mul(stage, E * KT * bytes));
      auto accType = LLVM::LLVMStructType::getLiteral(
          b.getContext(), SmallVector<Type>(E / 2, f32));
      SmallVector<Value> accs;
      for (int64_t mt = 0; mt < MT; ++mt) {
        Value acc = LLVM::UndefOp::create(b, at, accType);
        for (int64_t r = 0; r < E / 2; ++r)
          acc = LLVM::InsertValueOp::create(
              b, at, acc, nextState[2 * nRows + mt * eTiles * 4 + r], r);
        accs.push_back(acc);
      }
      NVVM::WgmmaFenceAlignedOp::create(b, at);
      int64_t rowBytes = KT * bytes;
      for (int64_t mt = 0; mt < MT; ++mt)
        for (int64_t kk = 0; kk < KT / 16; ++kk) {
          Value pAddr = add(pBase, idx(mt * 64 * rowBytes + kk * 32));
          Value vAddr = add(vBase, idx(kk * 16 * 128));
          accs[mt] = emitWgmmaM64K16(
              b, at, element, E, accs[mt],
              emitWgmmaDescriptor(b, at, i64(pAddr), 16, 8 * rowBytes,
                                  KT == 64 ? 1 : 2),
              emitWgmmaDescriptor(b, at, i64(vAddr), KT * 128, 1024, 1),
              /*accumulate=*/true, /*transposeB=*/true);
        }
      NVVM::WgmmaGroupSyncAlignedOp::create(b, at);
      NVVM::WgmmaWaitGroupSyncOp::create(b, at, 0);
      for (int64_t mt = 0; mt < MT; ++mt)
        for (int64_t r = 0; r < E / 2; ++r)
          nextState[2 * nRows + mt * eTiles * 4 + r] =
              LLVM::ExtractValueOp::create(b, at, accs[mt], r);
    }
    for (int64_t kk = 0; kk < (wgmmaPV ? 0 : KT / 16); ++kk) {
      SmallVector<SmallVector<Value>> pFrags(MT);
      for (int64_t mt = 0; mt < MT; ++mt)
        for (int64_t q = 0; q < 4; ++q) {
          // a0: (g, 2c), a1: (g + 8, 2c), a2: (g, 8 + 2c), a3: (g + 8, 8 + 2c).
          int64_t nt = 2 * kk + q / 2, h = q % 2;
          int64_t base = (mt * sTiles + nt) * 4 + 2 * h;
          pFrags[mt].push_back(pack(s[base], s[base + 1]));
        }
      for (int64_t ne = 0; ne < eTiles; ne += 2) {
        // Matrix q of the x4: keys half q % 2, n-tile ne + q / 2.
        Value vFrag = ldmatrix(vs, stage, add(idx(kk * 16), add(kHalf, inMatrix)),
                               add(idx(ne * 8), nHalf), /*transpose=*/true);
        for (int64_t h = 0; h < 2; ++h) {
          SmallVector<Value> bRows = rowsOf(vFrag, 2 * h, 2);
          for (int64_t mt = 0; mt < MT; ++mt) {
            int64_t base = 2 * nRows + (mt * eTiles + ne + h) * 4;
            SmallVector<Value> out = emitMmaM16N8K16(
                b, at, element, pFrags[mt], bRows,
                ArrayRef<Value>(nextState).slice(base, 4));
            for (int64_t r = 0; r < 4; ++r)
              nextState[base + r] = out[r];
          }
        }
      }
    }
    scf::YieldOp::create(b, at, nextState);
    --loopDepth;
  }
  // Nothing is in flight past the last tile; name a wait outside the loop.
  wait(commit({}), 0);

  // y = acc / l, l summed over the quad; rows always inside (tiles divide).
  ValueRange out = loop.getResults();
  int64_t yBytes = yElement.getIntOrFloatBitWidth() / 8;
  auto yPair = VectorType::get({2}, yElement);
  auto f32x2 = VectorType::get({2}, f32);
  for (int64_t mt = 0; mt < MT; ++mt)
    for (int64_t h = 0; h < 2; ++h) {
      int64_t r = mt * 2 + h;
      Value l = out[nRows + r];
      for (int32_t off : {1, 2}) {
        Value o =
            gpu::ShuffleOp::create(b, at, l, off, 32, gpu::ShuffleMode::XOR)
                .getShuffleResult();
        l = arith::AddFOp::create(b, at, l, o);
      }
      Value inv = arith::DivFOp::create(b, at, constF32(1.0), l);
      Value row = add(rowBase, add(tileRow(mt), add(g, idx(h * 8))));
      for (int64_t ne = 0; ne < eTiles; ++ne) {
        int64_t base = 2 * nRows + (mt * eTiles + ne) * 4 + 2 * h;
        Value y0 = arith::MulFOp::create(b, at, out[base], inv);
        Value y1 = arith::MulFOp::create(b, at, out[base + 1], inv);
        Value v =
            vector::FromElementsOp::create(b, at, f32x2, ValueRange{y0, y1});
        if (yElement != f32)
          v = arith::TruncFOp::create(b, at, yPair, v);
        Value col = add(mul(cq, 2), idx(ne * 8));
        vector::StoreOp::create(b, at, v, yMem, globalIdx(row, col), false,
                                llvm::MaybeAlign(2 * yBytes));
      }
    }
  return success();
}
