//===- Oracle.h - what a generated or mutated program must do ---*- C++ -*-===//
//
// A valid program goes through parse -> verify -> --fuse-materialization ->
// --motif-verify-invariants -> motif-lower-to-nvvm (PTX, and ptxas where
// asked) in its unfused, fused and hand-fused forms, and the schedule-
// faithful evaluator compares them at the class the pass declared and each
// against the sequential float64 meaning. An illegal program must be refused
// by some stage with a located error. Every check runs in a forked child, so
// a crash or a hang is an outcome, not the end of the run.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_FUZZ_ORACLE_H
#define MOTIF_FUZZ_ORACLE_H

#include "motif/Fuzz/Generator.h"

#include "mlir/IR/MLIRContext.h"

#include <functional>
#include <string>

namespace mlir::motif::fuzz {

struct Outcome {
  enum class Kind {
    Pass,            // valid: every stage and every comparison passed
    Refused,         // refused with a located error (expected for illegal)
    Wrong,           // a comparison failed: a wrong kernel
    Crash,           // a signal in some stage
    Hang,            // over the time limit
    LegalRefused,    // a valid program was refused
    IllegalAccepted, // an illegal program compiled to PTX
    Unlocated,       // an error without a file location
    ErrorButSuccess, // an error was reported, yet the stage succeeded
    Skipped,         // compiled, but too large for the evaluator's budget
    Unchecked,       // illegal, accepted up to the lowering --no-lower skips
  };
  Kind kind = Kind::Pass;
  /// The stage and the first diagnostic or comparison that decided it.
  std::string detail;
  /// The form that failed (program text), when known.
  std::string program;

  bool isBug(bool illegal) const;
};
llvm::StringRef stringifyOutcome(Outcome::Kind k);

struct OracleOptions {
  /// Lower every form to PTX (motif-lower-to-nvvm).
  bool lower = true;
  /// Run ptxas on the PTX (empty: never).
  std::string ptxasPath;
  std::string libdevicePath;
  /// Trials of random inputs per comparison.
  unsigned trials = 1;
  /// The equivalence cap --fuse-materialization runs under (bitwise,
  /// tolerance or mathematical); the fused form is judged by the class it
  /// records (motif.equivalence).
  std::string cap = "bitwise";
  /// The bound on any form's schedule-model f32 result against the
  /// sequential float64 meaning (normwise relative error).
  double mathRtol = 1e-3;
  /// Per check, in the forked child.
  unsigned timeoutSeconds = 60;
  /// The schedule-faithful evaluator's step budget per run: a program past
  /// it is refused by the evaluator (reported, not a bug of the compiler).
  int64_t scheduleWorkLimit = int64_t(1) << 24;
};

class Oracle {
public:
  Oracle(MLIRContext &ctx, OracleOptions options)
      : ctx(ctx), options(std::move(options)) {}

  /// A generated valid program: unfused, fused by the pass, and hand-fused
  /// with random legal residencies (seeded by the spec).
  Outcome checkLegal(const Spec &spec);
  /// A generated program with `defect` planted; nullopt-like Pass with
  /// detail "no site" when the spec has no place for that defect.
  Outcome checkIllegal(const Spec &spec, Defect defect);
  /// Any program text: parsed, and if it verifies, taken through the same
  /// stages as a valid one. `expectRefusal`: it must be refused.
  Outcome checkText(llvm::StringRef text, llvm::StringRef name,
                    bool expectRefusal);

  /// Runs `check` in a forked child with the time limit.
  Outcome isolated(const std::function<Outcome()> &check);

private:
  MLIRContext &ctx;
  OracleOptions options;
  /// Options of the spec being checked (fuseOptionsOf), for checkText's
  /// fuse-materialization.
  std::string fuseExtra;
};

/// The hand-fused form of `spec` the legal check runs (empty when the
/// program does not parse).
std::string handFusedText(MLIRContext &ctx, const Spec &spec);

/// Greedily shrinks `spec` while `stillFails` holds (fewer motifs, smaller
/// extents, simpler bodies and mappings); at most `budget` attempts.
Spec minimize(const Spec &spec, const std::function<bool(const Spec &)> &stillFails,
              unsigned budget = 150);

/// One random token- or line-level mutation of `text`.
std::string mutate(llvm::StringRef text, std::mt19937_64 &rng);

/// The program seed of the `index`-th program of a run with base `seed`.
uint64_t programSeed(uint64_t seed, uint64_t index);

} // namespace mlir::motif::fuzz

#endif
