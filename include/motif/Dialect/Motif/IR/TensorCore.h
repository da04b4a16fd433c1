//===- TensorCore.h - contractions on tensor cores --------------*- C++ -*-===//
//
// A `motif.contract ... mma m16n8k16` runs on tensor cores: mma.sync
// m16n8k16, f16 or bf16 operands, f32 accumulators (docs/dialect.md, "Tensor
// cores"); `mma m16n8k8` is mma.sync m16n8k8 on f32 operands rounded to tf32
// (an opt-in precision), f32 accumulators, the same accumulator layout.
// Its mapping states the instruction's accumulator layout with
// ordinary tile-nest digits, so the schedule model's answers (which thread
// holds, stores and reads which element) are the hardware's:
//
//   i (rows, from the first operand):  [block x] [thread(w) x] seq(2m) x thread(8)
//   j (cols, from the second operand): [block x] [seq(n) x] thread(4) x seq(2)
//   k (contracted):                    seq x seq(bk), bk a multiple of the
//                                      instruction's k (16, or 8 for tf32)
//
// thread(w) is the warp (its digit place is 32), thread(8) the lane's row
// group (lane / 4) and thread(4) the lane's column pair (lane % 4); each warp
// holds m x n accumulator tiles of 16 x 8. Only the fold order inside each
// k-wide step of the instruction differs from the sequential fma, and for
// tf32 the rounding of the operands (class `tolerance`).
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_DIALECT_MOTIF_IR_TENSORCORE_H
#define MOTIF_DIALECT_MOTIF_IR_TENSORCORE_H

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include <algorithm>
#include <string>

namespace mlir::motif {

/// The k of instruction `shape`: 16 for m16n8k16 and the wgmma shapes, 8
/// for m16n8k8.
inline int64_t mmaShapeK(MmaShape shape) {
  return shape == MmaShape::M16N8K8 ? 8 : 16;
}

/// wgmma.mma_async (sm_90a): m64nNk16, a warpgroup of 4 warps per m64 tile.
inline bool isWgmma(MmaShape shape) {
  return shape == MmaShape::M64N64K16 || shape == MmaShape::M64N128K16 ||
         shape == MmaShape::M64N256K16;
}
/// The N of a wgmma shape (8 for the mma.sync ones).
inline int64_t mmaShapeN(MmaShape shape) {
  switch (shape) {
  case MmaShape::M64N64K16:
    return 64;
  case MmaShape::M64N128K16:
    return 128;
  case MmaShape::M64N256K16:
    return 256;
  default:
    return 8;
  }
}
/// The k extent of one staged step of a wgmma operand tile: one 128-byte
/// swizzle atom of 16-bit elements per row.
constexpr int64_t kWgmmaStepK = 64;

/// The instruction tiling of a tensor-core contraction.
struct MmaTiling {
  /// The instruction: m16n8k16 (f16/bf16) or m16n8k8 (tf32).
  MmaShape shape = MmaShape::M16N8K16;
  /// The second operand is indexed [k, j] (a K x N row-major matrix, read
  /// with ldmatrix .trans); false: [j, k].
  bool rhsKMajor = true;
  /// The first operand is indexed [k, i] (a K x M row-major matrix, A^T as
  /// stored: read with ldmatrix .trans; mma.sync f16/bf16 only); false:
  /// [i, k].
  bool lhsKMajor = false;
  /// Warps of the block: warpsM x warpsN, the warp digits of i (`thread(w)`
  /// or `warp(w)`) and of j (`warp(w)`; the faster of the two: warp
  /// wi * warpsN + wj holds rows wi and columns wj of the warp grid).
  int64_t warps = 1, warpsM = 1, warpsN = 1;
  /// m16 tiles of i and n8 tiles of j per warp.
  int64_t mTiles = 1, nTiles = 1;
  /// The staged step of k (a multiple of the instruction's k) and how many
  /// steps.
  int64_t kStep = 16, kSteps = 1;
  /// The block's tile of i and j (the whole extent without a block level).
  int64_t blockRows = 16, blockCols = 8;
  /// Buffers the contraction asks for (`stages(n)`; 3 without it).
  int64_t stagesWanted = 3;
  /// The instruction's k: 16 (m16n8k16) or 8 (m16n8k8).
  int64_t instrK() const { return mmaShapeK(shape); }
  /// Operands rounded to tf32 (m16n8k8).
  bool tf32() const { return shape == MmaShape::M16N8K8; }
  /// wgmma.mma_async m64nNk16 on sm_90a: each warpgroup one m64 x N tile
  /// (mTiles 1, warps a multiple of 4, nTiles = N / 8), both operands
  /// [rows, k] tiles of 64-element rows in the 128-byte swizzle.
  bool wgmma() const { return isWgmma(shape); }
  /// f32 accumulators each thread holds.
  int64_t accumulators() const { return mTiles * nTiles * 4; }
  /// 32-bit registers of one slice's fragments per thread: 4 per m-tile
  /// (A), 2 per n-tile (B); twice that for tf32, whose loaded fragments and
  /// their cvt.rna-rounded copies are live together.
  int64_t fragmentRegisters() const {
    return (mTiles * 4 + nTiles * 2) * (tf32() ? 2 : 1);
  }
  /// Buffers of each operand tile: the cp.async pipeline keeps up to two
  /// steps in flight while the warps compute on a third.
  int64_t stages() const { return std::min<int64_t>(stagesWanted, kSteps); }
};

/// The most accumulators one thread holds (the register-blocking limit,
/// kMaxBlockedInstances).
constexpr int64_t kMaxMmaAccumulators = 128;
/// The most registers the accumulators and two slices of fragments may take
/// for the lowering to load fragments one slice ahead (convert-motif-to-gpu's
/// mma-fragment-pipeline): 255 less what addresses and indices need. At 128
/// accumulators and 32x128 warp strips (208) nothing spills; tf32's 288 did.
constexpr int64_t kMaxMmaPipelinedRegisters = 216;
/// The most pipeline stages `stages(n)` may ask for.
constexpr int64_t kMaxMmaStages = 8;

/// The tiling of `op` as mma.sync `shape` (the one `op` states, m16n8k16
/// when it states none), or failure with `why` (a sentence fragment: "its
/// operands hold f32 ...") when the types, the shapes or the mapping do not
/// fit the instruction. `op` need not carry `mma`: the default schedules and
/// the remarks ask before choosing it.
FailureOr<MmaTiling> mmaTilingOf(ContractOp op, std::string &why,
                                 std::optional<MmaShape> shape = std::nullopt);

/// `mma.sync m16n8k16, bf16 x bf16 -> f32` or `mma.sync m16n8k8, tf32 x tf32
/// -> f32`: the instruction and types a tensor-core contraction runs.
std::string describeMma(ContractOp op);

/// A contraction that states `mma`.
inline bool runsOnTensorCores(Operation *op) {
  auto c = dyn_cast_or_null<ContractOp>(op);
  return c && c.getMma().has_value();
}

/// `block x thread(4) x seq(4)`, or the level, as the mapping writes dim `d`.
std::string describeMapping(ComputeOpInterface op, unsigned d);

} // namespace mlir::motif

#endif
