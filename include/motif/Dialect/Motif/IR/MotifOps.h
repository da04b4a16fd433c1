//===- MotifOps.h - motif operations ----------------------------*- C++ -*-===//
#ifndef MOTIF_DIALECT_MOTIF_IR_MOTIFOPS_H
#define MOTIF_DIALECT_MOTIF_IR_MOTIFOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "motif/Dialect/Motif/IR/MotifDialect.h"

#include "motif/Dialect/Motif/IR/MotifEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "motif/Dialect/Motif/IR/MotifAttributes.h.inc"

#include <optional>
#include <string>

namespace mlir::motif {
/// Whether motif tensors may hold elements of type `t`: f32, f16 or bf16.
bool isTensorElementType(Type t);
/// Whether every dim of `t` but the leading one is static: motif tensors
/// may leave their leading dim dynamic (`?`, the function's row count,
/// docs/dialect.md "Runtime row counts").
bool hasStaticTrailingDims(ShapedType t);
/// Whether `t`'s leading dim is dynamic.
bool hasDynamicRows(Type t);
/// The elements of `t`, a dynamic leading dim counted as one row (byte
/// figures of functions with a runtime row count are per row).
int64_t elementsPerRow(ShapedType t);
/// `e` as the IR prints it: `?` for a dynamic extent.
std::string formatExtent(int64_t e);
/// Warps per block of the kernel around `op` (1 outside a kernel).
int64_t warpsPerBlockOf(Operation *op);
/// Why a block of `threads` threads cannot combine partials across its
/// lanes (a shuffle butterfly: a power of two up to 32, or a multiple of 32)
/// or across its warps (a multiple of 32); nullopt when it can. The
/// verifier and the schedule model (motif/Analysis/Schedule.h) both ask.
std::optional<std::string> crossThreadCombineError(int64_t threads,
                                                   bool acrossLanes,
                                                   bool acrossWarps);

/// One tile the flash lowering of motif.online_contract stages in shared
/// memory per block: `rows` rows of `rowElements` elements (`pad` of them
/// padding) of `elementBytes` bytes, `stages` copies (cp.async double
/// buffering on tensor cores).
struct OnlineStagedTile {
  StringRef what;
  int64_t rows, rowElements, pad, elementBytes, stages;
  int64_t bytes() const { return stages * rows * rowElements * elementBytes; }
};

} // namespace mlir::motif

#include "motif/Dialect/Motif/IR/MotifInterfaces.h.inc"

#define GET_OP_CLASSES
#include "motif/Dialect/Motif/IR/MotifOps.h.inc"

namespace mlir::motif {
/// Why `op`'s mapping cannot run in a block of `threads` threads, or
/// nullopt: warp and lane levels together need whole warps, and a reduction
/// across threads a block its tree can combine (crossThreadCombineError).
/// The verifier asks it at the kernel's block size; fuse-materialization at
/// the block size of a merged kernel, through the schedule model.
std::optional<std::string> blockSizeError(ComputeOpInterface op,
                                          int64_t threads);

/// Number of lanes in a warp on every NVIDIA target motif supports.
constexpr int64_t kWarpSize = 32;
/// The largest block the hardware launches.
constexpr int64_t kMaxThreadsPerBlock = 1024;
/// The largest thread-block cluster every sm_90 launch accepts (a larger one
/// needs the non-portable opt-in).
constexpr int64_t kMaxClusterSize = 8;
/// The most blocks a kernel launches (blockIdx.x).
constexpr int64_t kMaxGridBlocks = (int64_t(1) << 31) - 1;
/// The most iteration instances (and so tensor elements) a motif may have:
/// 2^40, so that every index, element count and byte count fits in 64 bits.
constexpr int64_t kMaxIterationInstances = int64_t(1) << 40;
/// The flash lowering of motif.online_contract: keys per staged tile, and
/// floats of padding per shared row (16 B: the quad's 128-bit reads of
/// consecutive rows fall in distinct banks).
constexpr int64_t kOnlineKeyTile = 32;
constexpr int64_t kOnlinePad = 4;
/// Copies of the key and value tiles of the fma flash form without key
/// groups (cp.async): tile t + 1 lands while tile t is used, where the
/// staged bytes allow it (else one copy, staged with loads and stores).
constexpr int64_t kOnlineStages = 2;
/// Shared bytes a block of the flash form may opt in to (sm_80 .. sm_90).
constexpr int64_t kOnlineSharedLimit = 232448;
/// The tensor-core flash lowering (f16/bf16 operands, mma.sync m16n8k16):
/// keys per staged tile (halved when a warp's accumulators hold more than
/// 128 value columns: OnlineContractOp::getKeyTile), and elements of padding
/// per shared row (16 B: the eight row addresses of an ldmatrix fall in
/// distinct banks).
constexpr int64_t kOnlineMmaKeyTile = 64;
constexpr int64_t kOnlineMmaPad = 8;
/// Copies of the key and value tiles in flight (cp.async): tile t is used
/// while tiles t + 1 .. t + stages - 1 land.
constexpr int64_t kOnlineMmaStages = 3;

/// Why `threads(threads) cluster(cluster)` is not a cluster shape (1 to
/// kMaxClusterSize CTAs of whole warps each), or nullopt.
std::optional<std::string> clusterShapeError(int64_t threads,
                                             std::optional<uint64_t> cluster);
/// Why `op` (a motif or materialization of a kernel) cannot run in a
/// cluster of CTAs, or nullopt: a shared value read across threads, a
/// tensor-core or online contraction (their tiles live in one CTA).
std::optional<std::string> clusterBlocker(Operation *op);
/// The first op of `kernel` that cannot run in a cluster, and why; null
/// when every op can.
std::pair<Operation *, std::string> clusterBlocker(KernelOp kernel);
} // namespace mlir::motif

#endif
