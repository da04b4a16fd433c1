//===- ResourceModel.cpp - per-target resource limits ---------------------===//
#include "motif/Analysis/ResourceModel.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir::motif;

std::optional<TargetResources> mlir::motif::lookupTarget(llvm::StringRef chip) {
  TargetResources r;
  r.chip = chip;
  if (chip == "sm_80") { // A100
    r.sharedBytesPerBlockOptIn = 166912;
    r.sharedBytesPerSM = 167936;
    r.typicalSMs = 108;
    return r;
  }
  if (chip == "sm_90" || chip == "sm_90a") { // H100 / H200
    r.sharedBytesPerBlockOptIn = 232448;
    r.sharedBytesPerSM = 233472;
    r.maxClusterSize = 8;
    return r;
  }
  if (chip == "sm_100" || chip == "sm_100a") { // B200
    r.sharedBytesPerBlockOptIn = 232448;
    r.sharedBytesPerSM = 233472;
    r.maxClusterSize = 8;
    r.typicalSMs = 148;
    return r;
  }
  return std::nullopt;
}

llvm::StringRef mlir::motif::knownTargets() { return "sm_80, sm_90, sm_100"; }
