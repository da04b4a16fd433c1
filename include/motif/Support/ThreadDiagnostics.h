//===- ThreadDiagnostics.h - diagnostics of this thread only ----*- C++ -*-===//
//
// A function pass runs on many functions at once, on one MLIRContext: a
// handler registered on the context while one function is looked at (to try
// a rewrite quietly, or to capture why a verifier refuses it) would also take
// what the other threads report, and their remarks and errors would be lost
// (MLIR's pass manager orders those through its ParallelDiagnosticHandler,
// which sits below every handler registered later).
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_SUPPORT_THREADDIAGNOSTICS_H
#define MOTIF_SUPPORT_THREADDIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"

#include <thread>
#include <utility>

namespace mlir::motif {

/// While alive, passes the diagnostics emitted on the thread that made it to
/// `handler` (by default: drops them) and lets every other thread's through
/// to the handlers below.
class ThreadDiagnosticHandler : public ScopedDiagnosticHandler {
public:
  template <typename FnT>
  ThreadDiagnosticHandler(MLIRContext *ctx, FnT &&handler)
      : ScopedDiagnosticHandler(ctx) {
    setHandler([thread = std::this_thread::get_id(),
                handler = std::forward<FnT>(handler)](
                   Diagnostic &d) mutable -> LogicalResult {
      if (std::this_thread::get_id() != thread)
        return failure();
      return handler(d);
    });
  }
  /// Drops this thread's diagnostics.
  explicit ThreadDiagnosticHandler(MLIRContext *ctx)
      : ThreadDiagnosticHandler(ctx, [](Diagnostic &) { return success(); }) {}
};

} // namespace mlir::motif

#endif // MOTIF_SUPPORT_THREADDIAGNOSTICS_H
