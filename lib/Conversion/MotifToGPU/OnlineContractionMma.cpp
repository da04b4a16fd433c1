//===- OnlineContractionMma.cpp - the flash form on tensor cores ----------===//
//
// motif.online_contract with f16/bf16 operands. One block computes a tile of
// `rows` query rows of one batch index in W warps of MT m-tiles (16 rows)
// each (OnlineContractOp::mmaWarpsAndTiles):
//
//   cp.async Q[rows x D] (one group), K/V tiles 0 .. stages - 2 (a group
//   each; 3 stages, OnlineContractOp::getStagedTiles); wait for Q, keep the
//   warp's Q fragments in registers (ldmatrix) when they are at most 32
//   registers, else re-read them per tile; for each tile t of T = getKeyTile()
//   keys (64; 32 when the warp holds 2 m-tiles of more than 64 value columns):
//     wait for tile t, barrier (every warp is done with tile t - 1), cp.async
//     tile t + stages - 1 into the stage tile t - 1 used;
//     S = Q K^T on mma.sync m16n8k16 (K rows through ldmatrix, keys are the
//       n of the B operand): the accumulator fragment holds S[g][2c, 2c+1]
//       and S[g + 8][2c, 2c+1] of each 8-key n-tile, g = lane / 4, c =
//       lane % 4 -- a row lives in the 4 lanes of a quad;
//     the online state per row: m' = max(m, c' max S) (2 shuffles in the
//       quad), p = exp2(fma(S, c', -m')), alpha = exp2(m - m'), l = alpha l +
//       sum p (the thread's part), acc *= alpha;
//     acc += P V: P rounded to the operands' type and repacked in place as
//       the A fragment (n-tiles 2kk and 2kk + 1 of S are k-slice kk of P:
//       no shuffle, no shared memory), V through ldmatrix.trans;
//   l summed over the quad, y = acc * (1 / l), rounded to the result type.
//
// On sm_90a the scores and P V run on wgmma, in one or two warpgroups, P V
// with P in registers as the A operand (motif_nvvm.wgmma_rs; online-p-
// registers) or through a swizzled shared tile; with 3 or more stages P V
// runs one key tile behind the scores, overlapping the softmax of tile t
// with P_{t-1} V_{t-1} (online-overlap), two warpgroups may take turns
// issuing their wgmmas (online-pingpong), and mbarriers may track the
// stages (online-mbarrier).
//
// c' = scale * log2(e). Keys past the extent are zero-filled by cp.async
// and score -inf; a row whose scores are all -inf uses 0 for its max. In a
// partial last row block the Q rows past the extent are zero-filled and
// their results not stored.
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
  auto [W, MT] = op.getMmaWarpsAndTiles();
  assert(W && "the op's rows and its kernel's threads were verified");
  const int64_t KT = op.getKeyTile();
  Type element = op.getLhs().getType().getElementType();
  Type yElement = op.getResult().getType().getElementType();
  Type f32 = b.getF32Type();
  SmallVector<OnlineStagedTile> tiles = op.getStagedTiles();
  const int64_t stages = tiles[1].stages;
  // S = Q K^T on wgmma (sm_90a): the block is one or two warpgroups (4
  // warps each, 64 x MT consecutive rows each: MT m64 tiles), Q and the K
  // tiles unpadded in the 128-byte swizzle, 64-column atoms of D
  // (docs/lowering.md, "Online contraction on tensor cores"). V stays
  // padded for ldmatrix.trans.
  bool wgmmaS = onlineWgmma && chip == "sm_90a" && op.getWgmmaScoresN();
  assert((!wgmmaS || (W % 4 == 0 && D % 64 == 0)) &&
         "whole warpgroups, 64-wide D");
  // P V on wgmma too: P (rounded) the A operand, in registers or through a
  // swizzled shared tile of rows x KT (K-major A: 128-byte rows at 64 keys,
  // 64-byte rows at 32), V staged MN-major in 64-column atoms of E (B
  // transposed); where the tiles fit the shared memory a block may opt in
  // to.
  int64_t bytes = element.getIntOrFloatBitWidth() / 8;
  bool wgmmaPV = wgmmaS && (onlineWgmmaPV == AutoChoice::On
                                ? op.hasWgmmaPV()
                                : onlineWgmmaPV == AutoChoice::Auto &&
                                      op.prefersWgmmaPV(onlinePRegisters));
  // P V one tile behind the scores (below): on wgmma with 3 or more
  // stages; under auto where P V runs on wgmma too (with P V on mma.sync it
  // measured slower: H200, bf16 64 heads x 4096, D = E = 64, 0.869 ms
  // against 0.728; docs/results/flash-variants-overlap.txt).
  bool overlapPV = wgmmaS && stages >= 3 &&
                   (onlineOverlap == AutoChoice::On ||
                    (onlineOverlap == AutoChoice::Auto && wgmmaPV));
  // P as the wgmma's A operand in registers (motif_nvvm.wgmma_rs): the
  // mma.sync A fragments of the scores' accumulator, no shared tile, no
  // barrier (online-p-registers; docs/lowering.md).
  bool pInRegisters = wgmmaPV && onlinePRegisters;
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
      sharedBytesUsed += stages * KT * E * bytes;
      if (!pInRegisters) {
        int64_t pTiles = overlapPV ? 2 : 1;
        ps = pTiles == 1 ? buffer({rows, KT}) : buffer({pTiles, rows, KT});
        sharedBytesUsed += pTiles * rows * KT * bytes;
      }
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
  // On wgmma: the first row of the warp's warpgroup (its MT m64 tiles).
  Value groupRow = mul(div(warpId, 4), MT * 64);
  // The first row of the warp's m-tile mt: its MT consecutive 16-row tiles;
  // on wgmma 16 rows of each m64 tile of the warpgroup.
  auto tileRow = [&](int64_t mt) {
    return wgmmaS ? add(groupRow, add(mul(rem(warpId, 4), 16), idx(mt * 64)))
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

  // P V one tile behind the scores (sm_90a, scores on wgmma, 3 or more
  // stages; convert-motif-to-gpu's online-overlap): step t issues S_t and
  // P_{t-1} V_{t-1}, then reduces S_t while the tensor cores run P V, and
  // rescales the accumulators once P V is done (O~_t = alpha_t (O~_{t-1} +
  // P_{t-1} V_{t-1}); the last P V after the loop). The copies then run
  // stages - 2 tiles ahead (V_{t-1} is still read in step t) and P takes two
  // shared tiles on wgmma.
  const bool overlap = overlapPV;
  assert((!overlap || stages >= 3) && "V of tile t - 1 still read in step t");
  const int64_t ahead = overlap ? stages - 2 : stages - 1;

  // mbarrier-tracked stages (online-mbarrier; with P V behind the scores on
  // wgmma): instead of the block's barrier per key tile, stage s has a
  // "full" mbarrier, which each thread's cp.async of the tile arrives on as
  // its copies land (cp.async.mbarrier.arrive.noinc), and an "empty" one,
  // which each thread arrives on once its P V of the tile is done. A step
  // waits for its tile's full barrier (then fences the landed copies to the
  // async proxy); the copy of tile t + ahead, issued at the start of step t,
  // waits for the empty barrier of the tile the stage held. The warpgroups
  // may then drift up to about a step apart instead of meeting per tile.
  // auto (both options): at a value extent of 128 or more. Measured on the
  // H200, bf16 64 heads x 4096, P in registers, two warpgroups, 4 stages:
  // D = E = 128 1.068 - 1.077 ms with both against 1.127 without; D = E =
  // 64 0.633 against 0.626 (docs/results/
  // flash-variants-p-registers-defaults.txt).
  auto resolve = [&](AutoChoice c) {
    return c == AutoChoice::On || (c == AutoChoice::Auto && E >= 128);
  };
  const bool tracked = overlap && wgmmaPV && resolve(onlineMbarrier);
  Value bars; // i64 [2 x stages]: full[s], then empty[s]
  auto barrierAt = [&](int64_t kind, Value s) -> Value {
    Value a = add(address(bars), mul(add(s, idx(kind * stages)), 8));
    return LLVM::IntToPtrOp::create(
        b, at, LLVM::LLVMPointerType::get(b.getContext(), 3), i64(a));
  };
  auto i32c = [&](int64_t v) {
    return arith::ConstantOp::create(b, at, b.getI32IntegerAttr(v))
        .getResult();
  };
  auto i32v = [&](Value v) {
    return arith::IndexCastUIOp::create(b, at, b.getI32Type(), v).getResult();
  };
  // Named barrier `id` of `count` threads (0 is the block's).
  auto namedBarrier = [&](Value id, int64_t count) {
    NVVM::BarrierOp::create(b, at, Type(), i32v(id), i32c(count),
                            NVVM::BarrierReductionAttr(), Value());
  };
  // Waits for phase (use / stages) % 2 of barrier `kind` of stage use %
  // stages, `use` the tile's index (full) or the index of its release.
  auto waitPhase = [&](int64_t kind, Value use) {
    NVVM::MBarrierTryWaitParityOp::create(
        b, at, barrierAt(kind, rem(use, stages)),
        i32v(rem(div(use, stages), 2)), i32c(10000000));
  };
  if (tracked) {
    auto space = gpu::AddressSpaceAttr::get(b.getContext(),
                                            gpu::AddressSpace::Workgroup);
    bars = addWorkgroupBuffer(
        MemRefType::get({2 * stages}, b.getI64Type(), nullptr, space), at, 8);
    sharedBytesUsed += 2 * stages * 8;
    Value first = arith::CmpIOp::create(b, at, arith::CmpIPredicate::eq, tid,
                                        idx(0));
    auto ifOp = scf::IfOp::create(b, at, first, /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      for (int64_t kind = 0; kind < 2; ++kind)
        for (int64_t st = 0; st < stages; ++st)
          NVVM::MBarrierInitOp::create(b, at, barrierAt(kind, idx(st)),
                                       i32c(threads), Value());
    }
    // Every thread sees the initialized barriers before it arrives.
    gpu::BarrierOp::create(b, at);
  }

  // Prologue: Q, then K/V tiles 0 .. ahead - 1, one group each (an empty
  // group past the last tile keeps the count); Q lands first.
  int64_t keyTiles = llvm::divideCeil(N, KT);
  // A partial last row block (S % rows != 0): its Q rows past S are
  // zero-filled (their scores are 0, finite) and never stored.
  const int64_t S = extents[op.getRowDim()];
  const bool partialRows = S % rows != 0;
  Value lastGroup = commit(
      copyRows(qMem, qs, Value(), rowBase, rows, D, S, partialRows, wgmmaS));
  for (int64_t t = 0; t < ahead; ++t) {
    SmallVector<Value> tokens;
    if (t < keyTiles) {
      tokens = copyTile(idx(t), idx(t * KT));
      if (tracked)
        NVVM::CpAsyncMBarrierArriveOp::create(b, at, barrierAt(0, idx(t)),
                                              /*noinc=*/true);
    }
    lastGroup = commit(tokens);
  }
  if (!overlap) {
    wait(lastGroup, stages - 1);
    gpu::BarrierOp::create(b, at);
  }
  bool qInRegisters = !wgmmaS && MT * (D / 16) * 4 <= 32;
  SmallVector<Value> qFrags; // [mt * D/16 + kk]
  if (qInRegisters)
    for (int64_t mt = 0; mt < MT; ++mt)
      for (int64_t kk = 0; kk < D / 16; ++kk)
        qFrags.push_back(loadQ(mt, kk));

  double scale = op.getScale().convertToDouble() * 1.4426950408889634;
  Value ninf = constF32(-std::numeric_limits<double>::infinity());
  int64_t sTiles = KT / 8, eTiles = E / 8;
  // The online state: m and l per (mt, h) row, then acc[(mt * eTiles + ne)
  // * 4 + r] (the loop's carried values in this order).
  int64_t nRows = MT * 2;
  auto asyncShared = [&]() {
    NVVM::FenceProxyOp::create(
        b, at, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  };

  // Step t begins: tile t landed and is fenced to the async proxy (wgmma
  // reads shared memory through it), then the copy of tile t + ahead goes
  // into the stage tile t + ahead - stages held, free once every warp is
  // done with that tile (tile t - 1's, or t - 2's with P V behind).
  // - The block's barrier: each thread waits for its own copies of tile t
  //   (at most ahead - 1 later groups pending; Q's too before the first
  //   tile) and fences them, then the barrier. One group per step, empty
  //   past the last tile, so that the wait counts tiles.
  // - Tracked stages: tile t's full barrier, then the fence; the copy
  //   waits for the release of the stage's previous tile (its empty
  //   barrier) and arrives on the full one as its copies land.
  auto beginTile = [&](Value t) {
    if (tracked) {
      waitPhase(0, t);
      asyncShared();
    } else {
      wait(lastGroup, ahead - 1);
      if (wgmmaS)
        asyncShared();
      gpu::BarrierOp::create(b, at);
    }
    Value next = add(t, idx(ahead));
    Value more = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ult, next,
                                       idx(keyTiles));
    {
      auto ifOp = scf::IfOp::create(b, at, more, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      if (tracked) {
        Value reused = arith::CmpIOp::create(b, at, arith::CmpIPredicate::uge,
                                             next, idx(stages));
        auto ifReused =
            scf::IfOp::create(b, at, reused, /*withElseRegion=*/false);
        OpBuilder::InsertionGuard g3(b);
        b.setInsertionPoint(ifReused.thenBlock()->getTerminator());
        waitPhase(1, arith::SubIOp::create(b, at, next, idx(stages)));
      }
      copyTile(rem(next, stages), mul(next, KT));
      if (tracked)
        NVVM::CpAsyncMBarrierArriveOp::create(
            b, at, barrierAt(0, rem(next, stages)), /*noinc=*/true);
    }
    if (!tracked)
      commit({});
  };
  // Every thread is done with the tile `use` (its P V waited for).
  auto releaseTile = [&](Value use) {
    if (tracked)
      NVVM::MBarrierArriveOp::create(b, at, Type(),
                                     barrierAt(1, rem(use, stages)), Value());
  };

  // S = Q K^T of the tile in `stage` on wgmma: per m64 tile, one wgmma
  // m64nKTk16 per 16-wide slice of D (32 bytes into a 64-column atom),
  // committed as one group, not waited for.
  auto issueScores = [&](Value stage) {
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
        Value qAddr =
            add(add(qBase, mul(groupRow, 128)),
                idx(atom * rows * 128 + mt * 64 * 128 + inAtom));
        Value kAddr = add(kBase, idx(atom * KT * 128 + inAtom));
        acc = emitWgmmaM64K16(b, at, element, KT, acc,
                              emitWgmmaDescriptor(b, at, i64(qAddr)),
                              emitWgmmaDescriptor(b, at, i64(kAddr)),
                              /*accumulate=*/kk > 0);
      }
      accs.push_back(acc);
    }
    NVVM::WgmmaGroupSyncAlignedOp::create(b, at);
    return accs;
  };
  // The scores out of waited wgmma accumulators: struct element nt * 4 + h
  // * 2 + x is the mma.sync m16n8 accumulator of the warp's 16 rows;
  // s[(mt * sTiles + nt) * 4 + r].
  auto scoresOf = [&](ArrayRef<Value> accs) {
    SmallVector<Value> s(MT * sTiles * 4);
    for (int64_t mt = 0; mt < MT; ++mt)
      for (int64_t r = 0; r < sTiles * 4; ++r)
        s[mt * sTiles * 4 + r] = LLVM::ExtractValueOp::create(b, at, accs[mt], r);
    return s;
  };
  // S = Q K^T on mma.sync m16n8k16 (K rows through ldmatrix, keys are the
  // n of the B operand).
  auto mmaScores = [&](Value stage) {
    SmallVector<Value> s(MT * sTiles * 4, constF32(0.0));
    for (int64_t kk = 0; kk < D / 16; ++kk) {
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
    return s;
  };
  // Mask the keys past the extent (scores -inf). The max is taken on the
  // unscaled scores (c' > 0), and c' folds into exp2's argument: one fma.
  Value cScale = constF32(scale);
  auto mask = [&](SmallVector<Value> &s, Value keyBase) {
    if (!partialKeys)
      return;
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
  };
  // The online state per row (mt, h) = rows g + 8 h of m-tile mt: m' =
  // max(m, c' max S) (2 shuffles in the quad), p = exp2(fma(S, c', -m'))
  // in place of S, alpha = exp2(m - m'), l = alpha l + sum p (the thread's
  // part). `state` holds m and l (updated); the alphas and whether some
  // row's max moved are returned.
  auto softmax = [&](SmallVector<Value> &s, MutableArrayRef<Value> state) {
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
        Value mOld = state[row];
        Value mNew = arith::MaximumFOp::create(
            b, at, mOld, arith::MulFOp::create(b, at, mx, cScale));
        Value empty = arith::CmpFOp::create(b, at, arith::CmpFPredicate::OEQ,
                                            mNew, ninf);
        Value mUse =
            arith::SelectOp::create(b, at, empty, constF32(0.0), mNew);
        Value alpha =
            emitFastExp2(b, at, arith::SubFOp::create(b, at, mOld, mUse));
        Value negM = arith::NegFOp::create(b, at, mUse);
        Value l = arith::MulFOp::create(b, at, state[nRows + row], alpha);
        for (int64_t nt = 0; nt < sTiles; ++nt)
          for (int64_t x = 0; x < 2; ++x) {
            Value &p = sAt(nt, x);
            p = emitFastExp2(b, at,
                             math::FmaOp::create(b, at, p, cScale, negM));
            l = arith::AddFOp::create(b, at, l, p);
          }
        state[row] = mNew;
        state[nRows + row] = l;
        alphas[row] = alpha;
        Value rowMoved = arith::CmpFOp::create(
            b, at, arith::CmpFPredicate::UNE, mNew, mOld);
        moved = moved ? Value(arith::OrIOp::create(b, at, moved, rowMoved))
                      : rowMoved;
      }
    return std::make_pair(alphas, moved);
  };
  // acc *= alpha only where a row's max moved: alpha is exp2(0) = 1
  // exactly otherwise (and acc is 0 while the max is -inf), so skipping
  // the multiplies keeps the bits. Late in the keys the max rarely moves.
  // Worth its branch where the rescale is as many FMULs as the tile has
  // HMMAs (D = E = 128 in 32-key tiles: 128 each; H200, bf16 64 heads x
  // S=4096: 1.683 ms against 1.712), not where it is half as many (D = E
  // = 64 in 64-key tiles: 0.931 ms against 0.882; docs/results/
  // flash-half-skip.txt, flash-variants.txt).
  auto rescale = [&](MutableArrayRef<Value> acc, ArrayRef<Value> alphas,
                     Value moved) {
    auto scaled = [&](MutableArrayRef<Value> a) {
      for (int64_t mt = 0; mt < MT; ++mt)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t ne = 0; ne < eTiles; ++ne)
            for (int64_t x = 0; x < 2; ++x) {
              Value &v = a[(mt * eTiles + ne) * 4 + 2 * h + x];
              v = arith::MulFOp::create(b, at, v, alphas[mt * 2 + h]);
            }
    };
    int64_t rescaleMuls = MT * 2 * eTiles * 2;
    int64_t hmmas = MT * sTiles * (D / 16) + MT * eTiles * (KT / 16);
    if (rescaleMuls < hmmas) {
      scaled(acc);
      return;
    }
    SmallVector<Type> types(acc.size(), f32);
    auto ifOp = scf::IfOp::create(b, at, types, moved, /*withElse=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    SmallVector<Value> a(acc.begin(), acc.end());
    scaled(a);
    scf::YieldOp::create(b, at, a);
    b.setInsertionPointToStart(ifOp.elseBlock());
    scf::YieldOp::create(b, at, SmallVector<Value>(acc.begin(), acc.end()));
    for (auto [k, r] : llvm::enumerate(ifOp.getResults()))
      acc[k] = r;
  };
  auto half2 = VectorType::get({2}, element);
  auto f32x2 = VectorType::get({2}, f32);
  auto pack = [&](Value x, Value y) {
    Value v = vector::FromElementsOp::create(b, at, f32x2, ValueRange{x, y});
    return arith::TruncFOp::create(b, at, half2, v).getResult();
  };
  // P's A fragment of m-tile mt at k-slice kk: S n-tiles 2kk, 2kk + 1, in
  // place (no shuffle, no shared memory). a0: (g, 2c), a1: (g + 8, 2c), a2:
  // (g, 8 + 2c), a3: (g + 8, 8 + 2c).
  auto pFragment = [&](ArrayRef<Value> p, int64_t mt, int64_t kk) {
    SmallVector<Value> frag;
    for (int64_t q = 0; q < 4; ++q) {
      int64_t nt = 2 * kk + q / 2, h = q % 2;
      int64_t base = (mt * sTiles + nt) * 4 + 2 * h;
      frag.push_back(pack(p[base], p[base + 1]));
    }
    return frag;
  };
  // Every A fragment of P, m-tile major: fragment (mt, kk) at (mt * KT / 16
  // + kk) * 4.
  auto packAll = [&](ArrayRef<Value> p) {
    SmallVector<Value> frags;
    for (int64_t mt = 0; mt < MT; ++mt)
      for (int64_t kk = 0; kk < KT / 16; ++kk)
        llvm::append_range(frags, pFragment(p, mt, kk));
    return frags;
  };
  // acc += P V on mma.sync, P's fragments from `fragment(mt, kk)`, V
  // through ldmatrix.trans from `stage`.
  auto mmaPV = [&](MutableArrayRef<Value> acc,
                   function_ref<SmallVector<Value>(int64_t, int64_t)> fragment,
                   Value stage) {
    for (int64_t kk = 0; kk < KT / 16; ++kk) {
      SmallVector<SmallVector<Value>> pFrags;
      for (int64_t mt = 0; mt < MT; ++mt)
        pFrags.push_back(fragment(mt, kk));
      for (int64_t ne = 0; ne < eTiles; ne += 2) {
        // Matrix q of the x4: keys half q % 2, n-tile ne + q / 2.
        Value vFrag = ldmatrix(vs, stage, add(idx(kk * 16), add(kHalf, inMatrix)),
                               add(idx(ne * 8), nHalf), /*transpose=*/true);
        for (int64_t h = 0; h < 2; ++h) {
          SmallVector<Value> bRows = rowsOf(vFrag, 2 * h, 2);
          for (int64_t mt = 0; mt < MT; ++mt) {
            int64_t base = (mt * eTiles + ne + h) * 4;
            SmallVector<Value> out = emitMmaM16N8K16(
                b, at, element, pFrags[mt], bRows,
                ArrayRef<Value>(acc).slice(base, 4));
            for (int64_t r = 0; r < 4; ++r)
              acc[base + r] = out[r];
          }
        }
      }
    }
  };
  // P into its shared tile (`buffer` of two with P V behind): the pair
  // (keys 8 nt + 2c, + 1) of row r in 16-byte chunk nt, swizzled as the
  // descriptor's mode reads it (128 B: chunk ^ (r % 8); 64 B: chunk ^ ((r /
  // 2) % 4)); fenced to the async proxy, then the warpgroup's barrier
  // (with two warpgroups a named barrier of its 128 threads, ids 1 and 2;
  // 0 is the block's).
  auto storeP = [&](ArrayRef<Value> p, Value buffer) {
    for (int64_t mt = 0; mt < MT; ++mt)
      for (int64_t h = 0; h < 2; ++h) {
        Value row = add(tileRow(mt), add(g, idx(h * 8)));
        Value phase = KT == 64 ? rem(row, 8) : rem(div(row, 2), 4);
        for (int64_t nt = 0; nt < sTiles; ++nt) {
          int64_t base = (mt * sTiles + nt) * 4 + 2 * h;
          Value chunk = arith::XOrIOp::create(b, at, idx(nt), phase);
          Value col = add(mul(chunk, 8), mul(cq, 2));
          SmallVector<Value> at3;
          if (buffer)
            at3.push_back(buffer);
          at3.push_back(row);
          at3.push_back(col);
          vector::StoreOp::create(b, at, pack(p[base], p[base + 1]), ps, at3);
        }
      }
    asyncShared();
    if (W == 4)
      gpu::BarrierOp::create(b, at);
    else
      namedBarrier(add(div(warpId, 4), idx(1)), 128);
  };
  // acc += P V on wgmma: per m64 tile, one wgmma m64nEk16 per 16 keys: A =
  // P (K-major, 32 B a slice), B = V (MN-major: 16 key rows of 128 B a
  // slice, the 64-wide atoms of E KT x 128 B apart, 8-row groups 1024 B).
  // P from its shared tile (`buffer` of two with P V behind), or with P in
  // registers from `pFrags` (packed as packAll does). Committed as one
  // group, not waited for.
  int64_t rowBytes = KT * bytes;
  auto issuePV = [&](ArrayRef<Value> acc, Value buffer, Value stage,
                     ArrayRef<Value> pFrags) {
    Value pBase;
    if (!pInRegisters) {
      pBase = address(ps);
      if (buffer)
        pBase = add(pBase, mul(buffer, rows * rowBytes));
    }
    Value vBase = add(address(vs), mul(stage, E * KT * bytes));
    auto accType = LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(E / 2, f32));
    SmallVector<Value> accs;
    for (int64_t mt = 0; mt < MT; ++mt) {
      Value a = LLVM::UndefOp::create(b, at, accType);
      for (int64_t r = 0; r < E / 2; ++r)
        a = LLVM::InsertValueOp::create(b, at, a, acc[mt * eTiles * 4 + r], r);
      accs.push_back(a);
    }
    NVVM::WgmmaFenceAlignedOp::create(b, at);
    for (int64_t mt = 0; mt < MT; ++mt)
      for (int64_t kk = 0; kk < KT / 16; ++kk) {
        Value vAddr = add(vBase, idx(kk * 16 * 128));
        if (pInRegisters) {
          accs[mt] = emitWgmmaRegisterAM64K16(
              b, at, element, E, accs[mt],
              pFrags.slice((mt * (KT / 16) + kk) * 4, 4),
              emitWgmmaMNMajorDescriptor(b, at, i64(vAddr), KT),
              /*accumulate=*/true, /*transposeB=*/true);
          continue;
        }
        Value pAddr = add(add(pBase, mul(groupRow, rowBytes)),
                          idx(mt * 64 * rowBytes + kk * 32));
        accs[mt] =
            emitWgmmaM64K16(b, at, element, E, accs[mt],
                            emitWgmmaDescriptor(b, at, i64(pAddr), 16,
                                                8 * rowBytes, KT == 64 ? 1 : 2),
                            emitWgmmaMNMajorDescriptor(b, at, i64(vAddr), KT),
                            /*accumulate=*/true, /*transposeB=*/true);
      }
    NVVM::WgmmaGroupSyncAlignedOp::create(b, at);
    return accs;
  };
  auto accOf = [&](MutableArrayRef<Value> acc, ArrayRef<Value> accs) {
    for (int64_t mt = 0; mt < MT; ++mt)
      for (int64_t r = 0; r < E / 2; ++r)
        acc[mt * eTiles * 4 + r] =
            LLVM::ExtractValueOp::create(b, at, accs[mt], r);
  };
  auto waitWgmma = [&](int64_t pending) {
    NVVM::WgmmaWaitGroupSyncOp::create(b, at, pending);
  };

  SmallVector<Value> init(nRows, ninf);
  init.append(nRows, constF32(0.0));
  init.append(MT * eTiles * 4, constF32(0.0));
  SmallVector<Value> out;
  if (!overlap) {
    auto loop = scf::ForOp::create(b, at, idx(0), idx(keyTiles), idx(1), init);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    ++loopDepth;
    Value t = loop.getInductionVar();
    SmallVector<Value> state(loop.getRegionIterArgs());
    MutableArrayRef<Value> acc = MutableArrayRef<Value>(state).drop_front(2 * nRows);
    Value stage = rem(t, stages);
    beginTile(t);
    SmallVector<Value> s;
    if (wgmmaS) {
      SmallVector<Value> accs = issueScores(stage);
      // The scores feed the softmax at once.
      waitWgmma(0);
      s = scoresOf(accs);
    } else {
      s = mmaScores(stage);
    }
    mask(s, mul(t, KT));
    auto [alphas, moved] = softmax(s, state);
    rescale(acc, alphas, moved);
    if (wgmmaPV) {
      SmallVector<Value> frags;
      if (pInRegisters)
        frags = packAll(s);
      else
        storeP(s, Value());
      accOf(acc, issuePV(acc, Value(), stage, frags));
      waitWgmma(0);
    } else {
      mmaPV(acc, [&](int64_t mt, int64_t kk) { return pFragment(s, mt, kk); },
            stage);
    }
    scf::YieldOp::create(b, at, state);
    --loopDepth;
    b.setInsertionPointAfter(loop);
    out = loop.getResults();
  } else {
    // Tile 0's scores and probabilities before the loop (acc is 0: no
    // rescale); P kept for the next step: in its shared tile on wgmma,
    // else as the A fragments of mma.sync (carried).
    SmallVector<Value> state(init);
    // Two warpgroups take turns issuing their wgmmas (FlashAttention-3's
    // ping-pong; convert-motif-to-gpu's online-pingpong): warpgroup w
    // waits on named barrier 3 + w before it issues a step's wgmmas and
    // arrives on the other's after, so one's softmax runs under the
    // other's products. Warpgroup 1 lets warpgroup 0 go first and does not
    // arrive after its last turn (every arrival is waited for).
    bool pingpong = wgmmaPV && W == 8 && resolve(onlinePingpong);
    Value group = div(warpId, 4);
    auto turnWait = [&]() {
      if (pingpong)
        namedBarrier(add(group, idx(3)), 256);
    };
    auto turnPass = [&]() {
      if (pingpong)
        NVVM::BarrierArriveOp::create(
            b, at, i32v(arith::SubIOp::create(b, at, idx(4), group)),
            i32c(256));
    };
    auto onlyGroup = [&](int64_t w, function_ref<void()> body) {
      Value is = arith::CmpIOp::create(b, at, arith::CmpIPredicate::eq, group,
                                       idx(w));
      auto ifOp = scf::IfOp::create(b, at, is, /*withElseRegion=*/false);
      OpBuilder::InsertionGuard g2(b);
      b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      body();
    };
    if (pingpong)
      onlyGroup(1, turnPass);
    if (tracked) {
      // Q landed (the first group; the tiles' groups may pend) and fenced
      // to the async proxy, for every warp.
      wait(lastGroup, ahead);
      asyncShared();
      gpu::BarrierOp::create(b, at);
    }
    beginTile(idx(0));
    turnWait();
    SmallVector<Value> s0Accs = issueScores(idx(0));
    turnPass();
    waitWgmma(0);
    SmallVector<Value> s0 = scoresOf(s0Accs);
    mask(s0, idx(0));
    softmax(s0, state);
    SmallVector<Value> pCarried;
    if (wgmmaPV && !pInRegisters)
      storeP(s0, idx(0));
    else
      pCarried = packAll(s0);
    int64_t accEnd = state.size();
    SmallVector<Value> loopInit(state);
    llvm::append_range(loopInit, pCarried);
    auto loop =
        scf::ForOp::create(b, at, idx(1), idx(keyTiles), idx(1), loopInit);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(loop.getBody());
      ++loopDepth;
      Value t = loop.getInductionVar();
      ValueRange carried = loop.getRegionIterArgs();
      SmallVector<Value> st(carried.begin(), carried.begin() + accEnd);
      MutableArrayRef<Value> acc = MutableArrayRef<Value>(st).drop_front(2 * nRows);
      Value prev = arith::SubIOp::create(b, at, t, idx(1));
      Value stage = rem(t, stages), prevStage = rem(prev, stages);
      beginTile(t);
      turnWait();
      SmallVector<Value> sAccs = issueScores(stage);
      SmallVector<Value> pvAccs;
      if (wgmmaPV) {
        pvAccs = issuePV(acc, rem(prev, 2), prevStage,
                         SmallVector<Value>(carried.drop_front(accEnd)));
        turnPass();
        // S_t is the older group: done with P V still in flight.
        waitWgmma(1);
      } else {
        ValueRange frags = carried.drop_front(accEnd);
        mmaPV(acc,
              [&](int64_t mt, int64_t kk) {
                auto f = frags.slice((mt * (KT / 16) + kk) * 4, 4);
                return SmallVector<Value>(f.begin(), f.end());
              },
              prevStage);
        waitWgmma(0);
      }
      SmallVector<Value> s = scoresOf(sAccs);
      mask(s, mul(t, KT));
      auto [alphas, moved] = softmax(s, st);
      if (wgmmaPV) {
        waitWgmma(0);
        accOf(acc, pvAccs);
        releaseTile(prev);
      }
      rescale(acc, alphas, moved);
      SmallVector<Value> next(st);
      if (wgmmaPV && !pInRegisters)
        storeP(s, rem(t, 2));
      else
        llvm::append_range(next, packAll(s));
      scf::YieldOp::create(b, at, next);
      --loopDepth;
    }
    // The last tile's P V.
    SmallVector<Value> last(loop.getResults().begin(),
                            loop.getResults().begin() + accEnd);
    MutableArrayRef<Value> acc = MutableArrayRef<Value>(last).drop_front(2 * nRows);
    Value lastStage = idx((keyTiles - 1) % stages);
    if (wgmmaPV) {
      turnWait();
      SmallVector<Value> accs =
          issuePV(acc, idx((keyTiles - 1) % 2), lastStage,
                  SmallVector<Value>(loop.getResults().drop_front(accEnd)));
      if (pingpong)
        onlyGroup(0, turnPass);
      waitWgmma(0);
      accOf(acc, accs);
    } else {
      ValueRange frags = loop.getResults().drop_front(accEnd);
      mmaPV(acc,
            [&](int64_t mt, int64_t kk) {
              auto f = frags.slice((mt * (KT / 16) + kk) * 4, 4);
              return SmallVector<Value>(f.begin(), f.end());
            },
            lastStage);
    }
    out = last;
  }
  // Nothing is in flight past the last tile; name a wait outside the loop.
  wait(commit({}), 0);

  // y = acc / l, l summed over the quad; in a partial last row block only
  // the rows inside S are stored.
  int64_t yBytes = yElement.getIntOrFloatBitWidth() / 8;
  auto yPair = VectorType::get({2}, yElement);
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
      OpBuilder::InsertionGuard guard(b);
      if (partialRows) {
        Value inside = arith::CmpIOp::create(b, at, arith::CmpIPredicate::ult,
                                             row, idx(S));
        auto ifOp = scf::IfOp::create(b, at, inside, /*withElseRegion=*/false);
        b.setInsertionPoint(ifOp.thenBlock()->getTerminator());
      }
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
