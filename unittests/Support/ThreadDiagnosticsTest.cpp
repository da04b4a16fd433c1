//===- ThreadDiagnosticsTest.cpp - a quiet handler of one thread ----------===//
//
// motif::ThreadDiagnosticHandler (motif/Support/ThreadDiagnostics.h) takes
// only what its own thread reports: the passes that try a rewrite quietly
// run on many functions at once, and a context-wide quiet handler lost the
// other functions' remarks (fuse-materialization-shared-tails.mlir failed
// one run in three before it).
//
//===----------------------------------------------------------------------===//
#include "motif/Support/ThreadDiagnostics.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <string>
#include <thread>
#include <vector>

using namespace mlir;
using namespace mlir::motif;

namespace {

TEST(ThreadDiagnostics, TakesOnlyItsOwnThreads) {
  MLIRContext ctx;
  std::vector<std::string> below, taken;
  ScopedDiagnosticHandler outer(&ctx, [&](Diagnostic &d) {
    below.push_back(d.str());
    return success();
  });
  {
    ThreadDiagnosticHandler mine(&ctx, [&](Diagnostic &d) {
      taken.push_back(d.str());
      return success();
    });
    emitRemark(UnknownLoc::get(&ctx)) << "this thread";
    std::thread other(
        [&] { emitRemark(UnknownLoc::get(&ctx)) << "another thread"; });
    other.join();
  }
  emitRemark(UnknownLoc::get(&ctx)) << "after";
  EXPECT_EQ(taken, std::vector<std::string>{"this thread"});
  EXPECT_EQ(below, (std::vector<std::string>{"another thread", "after"}));
}

TEST(ThreadDiagnostics, QuietDropsOwnThread) {
  MLIRContext ctx;
  std::vector<std::string> below;
  ScopedDiagnosticHandler outer(&ctx, [&](Diagnostic &d) {
    below.push_back(d.str());
    return success();
  });
  {
    ThreadDiagnosticHandler quiet(&ctx);
    emitError(UnknownLoc::get(&ctx)) << "dropped";
    std::thread other([&] { emitError(UnknownLoc::get(&ctx)) << "kept"; });
    other.join();
  }
  EXPECT_EQ(below, std::vector<std::string>{"kept"});
}

} // namespace
