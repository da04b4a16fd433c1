//===- ResourceModel.h - per-target resource limits -------------*- C++ -*-===//
//
// The limits rule 5 checks fusion against: shared memory per block, registers
// per thread, threads per block. Figures are NVIDIA's published ones.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_ANALYSIS_RESOURCEMODEL_H
#define MOTIF_ANALYSIS_RESOURCEMODEL_H

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>

namespace mlir::motif {

struct TargetResources {
  llvm::StringRef chip;
  /// Static shared memory per block without opt-in (48 KiB everywhere).
  int64_t sharedBytesPerBlock = 48 * 1024;
  /// The opt-in maximum per block (dynamic shared memory).
  int64_t sharedBytesPerBlockOptIn;
  /// Shared memory per SM.
  int64_t sharedBytesPerSM;
  int64_t registersPerThread = 255;
  int64_t registersPerSM = 64 * 1024;
  int64_t maxThreadsPerBlock = 1024;
  /// Threads resident on an SM at once (64 warps on sm_80, sm_90, sm_100).
  int64_t maxThreadsPerSM = 2048;
  /// CTAs a thread-block cluster may have (portably): 1 where the chip has
  /// no clusters (sm_80), 8 from sm_90.
  int64_t maxClusterSize = 1;
  /// SMs of the chip's flagship part (A100 108, H100 SXM and H200 132, B200
  /// 148): the grid a kernel needs to give every SM a block. Parts of one
  /// chip differ (an H100 PCIe has 114), so it is a default, not a limit.
  int64_t typicalSMs = 132;
};

/// The resources of `chip` (sm_80, sm_90, sm_100), or nullopt if unknown.
std::optional<TargetResources> lookupTarget(llvm::StringRef chip);

/// The chips lookupTarget knows, for diagnostics.
llvm::StringRef knownTargets();

} // namespace mlir::motif

#endif
