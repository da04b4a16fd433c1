//===- InputGuard.h - refuse input text the MLIR parser cannot take --*- C++ -*-===//
//
// MLIR 22's parser allocates one entry per result number of a forward
// reference: `%v#2147483648` aborts it ("LLVM ERROR: out of memory"), and
// `%v#99999999` takes 1.6 GB before it says "undeclared SSA value" (found by
// motif-fuzz mutate). Every motif tool scans its input for such numbers
// first and refuses them with a located error.
//
// The same parser dereferences a null float type for `array<index: ...>`
// (isIntOrIndexOrFloat lets index through to getIntOrFloatBitWidth; signal
// 11, found by motif-fuzz mutate): the guard refuses that too, and a
// malformed `permutation = [...]` / `dimensions = [...]` list, on which
// linalg.transpose's and linalg.reduce's parsers store and then dereference
// a null attribute.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_INPUTGUARD_H
#define MOTIF_INPUTGUARD_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::motif {

/// The largest result number `%v#N` the tools accept.
constexpr uint64_t kMaxResultNumber = 1 << 16;

/// Prints `file:line:col: error: ...` through `mgr` for the first `%v#N`
/// with N past kMaxResultNumber, or the first `array<index`, in buffer
/// `bufferId` (comments and strings skipped) and fails; succeeds otherwise.
LogicalResult checkInputText(llvm::SourceMgr &mgr, unsigned bufferId);

/// The same for a file: reads it (nothing to check when it cannot be read:
/// the tool reports that itself).
LogicalResult checkInputFile(StringRef path);

} // namespace mlir::motif

#endif
