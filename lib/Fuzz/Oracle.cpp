//===- Oracle.cpp - what a generated or mutated program must do -----------===//
#include "motif/Fuzz/Oracle.h"
#include "motif/Dialect/Motif/IR/RowCount.h"

#include <limits>

#include "motif/Analysis/Schedule.h"
#include "motif/Driver/Toolchain.h"
#include "motif/Evaluator/Evaluator.h"
#include "motif/InputGuard.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SaveAndRestore.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::fuzz;

StringRef mlir::motif::fuzz::stringifyOutcome(Outcome::Kind k) {
  switch (k) {
  case Outcome::Kind::Pass:
    return "pass";
  case Outcome::Kind::Refused:
    return "refused";
  case Outcome::Kind::Wrong:
    return "wrong";
  case Outcome::Kind::Crash:
    return "crash";
  case Outcome::Kind::Hang:
    return "hang";
  case Outcome::Kind::LegalRefused:
    return "legal-refused";
  case Outcome::Kind::IllegalAccepted:
    return "illegal-accepted";
  case Outcome::Kind::Unlocated:
    return "unlocated-error";
  case Outcome::Kind::ErrorButSuccess:
    return "error-but-success";
  case Outcome::Kind::Skipped:
    return "skipped-too-large";
  case Outcome::Kind::Unchecked:
    return "unchecked-no-lower";
  }
  return "?";
}

bool Outcome::isBug(bool illegal) const {
  switch (kind) {
  case Kind::Pass:
    return illegal; // checkIllegal returns Pass only for "no site"
  case Kind::Refused:
  case Kind::Skipped:
  case Kind::Unchecked:
    return false;
  default:
    return true;
  }
}

uint64_t mlir::motif::fuzz::programSeed(uint64_t seed, uint64_t index) {
  // splitmix64 of (seed, index): independent, reproducible program seeds.
  uint64_t z = seed + 0x9e3779b97f4a7c15ull * (index + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

//===----------------------------------------------------------------------===//
// Diagnostics and stages
//===----------------------------------------------------------------------===//

namespace {
/// Collects diagnostics instead of printing them.
class Capture {
public:
  explicit Capture(MLIRContext &ctx)
      : handler(&ctx, [this](Diagnostic &d) {
          if (d.getSeverity() == DiagnosticSeverity::Error) {
            ++errors;
            bool located =
                static_cast<bool>(d.getLocation()->findInstanceOf<FileLineColLoc>());
            if (!located)
              ++unlocated;
            if (first.empty()) {
              llvm::raw_string_ostream os(first);
              os << d.getLocation() << ": " << d.str();
            }
          }
          return success();
        }) {}

  int errors = 0;
  int unlocated = 0;
  std::string first;

private:
  ScopedDiagnosticHandler handler;
};

struct Stage {
  Outcome outcome;
  bool failed = false;
};
} // namespace

/// What a failed stage means: refused (located) or an unlocated error.
static Outcome refusal(const Capture &cap, StringRef stage, StringRef text,
                       bool expectRefusal) {
  Outcome o;
  o.program = text.str();
  o.detail = (stage + ": " + (cap.first.empty() ? "failed with no diagnostic"
                                                 : cap.first))
                 .str();
  if (cap.errors == 0 || cap.unlocated > 0)
    o.kind = Outcome::Kind::Unlocated;
  else
    o.kind = expectRefusal ? Outcome::Kind::Refused : Outcome::Kind::LegalRefused;
  return o;
}

/// Runs `pipeline` (passes nested under the module, without the
/// builtin.module anchor) on `module`.
static LogicalResult runPipeline(MLIRContext &ctx, ModuleOp module,
                                 StringRef pipeline) {
  PassManager pm(&ctx);
  std::string error;
  llvm::raw_string_ostream os(error);
  if (failed(parsePassPipeline(pipeline, pm, os))) {
    emitError(UnknownLoc::get(&ctx)) << "bad pipeline: " << error;
    return failure();
  }
  return pm.run(module);
}

static std::string print(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  op->print(os);
  return s;
}

/// Why `out` fails: not bit-identical when `bitwise`; forms that differ in
/// their bits with either side off the float64 meaning by more than `rtol`
/// normwise, with a floor of 1 (inputs are normal(0, 1): a program that
/// computes a rounding error, x*x - x*x by fma, has a large relative but a
/// tiny absolute error); an element nobody stored. Nullopt when it passes.
static std::optional<std::string> judge(const OutputComparison &out,
                                        bool bitwise, double rtol,
                                        double seqErr) {
  if (out.unwrittenA || out.unwrittenB)
    return "elements never stored (" + std::to_string(out.unwrittenA) + " / " +
           std::to_string(out.unwrittenB) + ")";
  if (bitwise && !out.bitwiseEqual)
    return std::to_string(out.differingElements) +
           " elements differ in their bits (max " + std::to_string(out.maxUlp) +
           " ulp)";
  // Bit-identical forms compute what the written program computes: how far
  // that is from float64 is the program's own conditioning under its trees
  // (two sums equal in float64 but not in f32 compared by a select take
  // another branch, docs/fuzzing.md), not the fusion's.
  if (out.bitwiseEqual)
    return std::nullopt;
  // The program's own f32 conditioning: a tree may lose a few times what
  // the sequential fold loses, never more.
  double allowed = std::max(rtol * std::max(out.refMax, 1.0), 8.0 * seqErr);
  auto absErr = [&](double rel) { return out.refMax > 0 ? rel * out.refMax : rel; };
  if (!(absErr(out.relErrA) <= allowed) || !(absErr(out.relErrB) <= allowed))
    return "off the float64 meaning (rel-err " + std::to_string(out.relErrA) +
           " / " + std::to_string(out.relErrB) + ", max|ref| " +
           std::to_string(out.refMax) + ")";
  return std::nullopt;
}

/// Per output of `f`: max |sequential f32 - f64| on the inputs trial 0 of a
/// comparison with `seed` draws (the same generator, the same order).
static SmallVector<double> sequentialErrors(func::FuncOp f, uint64_t seed) {
  SmallVector<double> errs;
  std::mt19937_64 rng(seed);
  FailureOr<SmallVector<Buffer>> inputs = makeRandomInputs(f, rng);
  if (failed(inputs))
    return errs;
  FailureOr<SmallVector<Buffer>> a = evaluate(f, *inputs, NumericMode::F32);
  FailureOr<SmallVector<Buffer>> b = evaluate(f, *inputs, NumericMode::F64);
  if (failed(a) || failed(b))
    return errs;
  for (auto [x, y] : llvm::zip(*a, *b)) {
    double m = 0;
    for (auto [u, v] : llvm::zip(x.data, y.data)) {
      if (std::isfinite(u) && std::isfinite(v))
        m = std::max(m, std::fabs(u - v));
      else if (std::isfinite(v))
        // The program's own f32 evaluation overflows (a product of 16384
        // exponentials): its float64 meaning is out of f32's reach, so only
        // the forms' agreement with each other is judged.
        m = std::numeric_limits<double>::infinity();
    }
    errs.push_back(m);
  }
  return errs;
}

/// The function pairs the oracle compares: `fa` and `fb`, or, with a runtime
/// row count, both at one and at three rows (docs/dialect.md, "Runtime row
/// counts"), their modules kept in `owned`. Returns the row count that could
/// not be given, else none.
static std::optional<int64_t>
pairsAtRowCounts(func::FuncOp fa, func::FuncOp fb,
                 SmallVectorImpl<std::pair<func::FuncOp, func::FuncOp>> &pairs,
                 SmallVectorImpl<OwningOpRef<ModuleOp>> &owned) {
  if (!hasRuntimeRows(fa) && !hasRuntimeRows(fb)) {
    pairs.push_back({fa, fb});
    return std::nullopt;
  }
  for (int64_t rows : {1, 3}) {
    OwningOpRef<ModuleOp> a = cloneAtRows(fa, rows);
    OwningOpRef<ModuleOp> b = cloneAtRows(fb, rows);
    if (!a || !b)
      return rows;
    pairs.push_back({*a->getOps<func::FuncOp>().begin(),
                     *b->getOps<func::FuncOp>().begin()});
    owned.push_back(std::move(a));
    owned.push_back(std::move(b));
  }
  return std::nullopt;
}

Outcome Oracle::checkText(StringRef text, StringRef name, bool expectRefusal) {
  Capture cap(ctx);
  auto fail = [&](StringRef stage) {
    return refusal(cap, stage, text, expectRefusal);
  };
  auto errorButSuccess = [&](StringRef stage) -> std::optional<Outcome> {
    if (cap.errors == 0)
      return std::nullopt;
    Outcome o;
    o.kind = Outcome::Kind::ErrorButSuccess;
    o.detail = (stage + ": " + cap.first).str();
    o.program = text.str();
    return o;
  };
  {
    // What the tools refuse before parsing (motif/InputGuard.h).
    llvm::SourceMgr mgr;
    std::string message;
    mgr.setDiagHandler(
        [](const llvm::SMDiagnostic &d, void *out) {
          *static_cast<std::string *>(out) = d.getMessage().str();
        },
        &message);
    unsigned id = mgr.AddNewSourceBuffer(
        llvm::MemoryBuffer::getMemBuffer(text, name), llvm::SMLoc());
    if (failed(checkInputText(mgr, id))) {
      Outcome o;
      o.kind = expectRefusal ? Outcome::Kind::Refused : Outcome::Kind::LegalRefused;
      o.detail = "input guard: " + message;
      o.program = text.str();
      return o;
    }
  }
  ParserConfig config(&ctx);
  OwningOpRef<ModuleOp> p = parseSourceString<ModuleOp>(text, config, name);
  if (!p)
    return fail("parse/verify");
  if (auto o = errorButSuccess("parse"))
    return *o;

  OwningOpRef<ModuleOp> fused = p->clone();
  if (failed(runPipeline(ctx, *fused,
                         "func.func(fuse-materialization{equivalence-cap=" +
                             options.cap + fuseExtra +
                             "},motif-verify-invariants)")))
    return fail("fuse-materialization");
  if (auto o = errorButSuccess("fuse-materialization"))
    return *o;
  // The printed fused form parses back (printer and parser agree).
  std::string fusedText = print(*fused);
  OwningOpRef<ModuleOp> reparsed =
      parseSourceString<ModuleOp>(fusedText, config, "fused.mlir");
  if (!reparsed) {
    Outcome o;
    o.kind = Outcome::Kind::Wrong;
    o.detail = "the fused form does not parse back: " + cap.first;
    o.program = text.str();
    return o;
  }

  if (options.lower) {
    std::string pipeline = "motif-lower-to-nvvm";
    if (!options.libdevicePath.empty())
      pipeline += "{libdevice=" + options.libdevicePath + "}";
    for (ModuleOp m : {*p, *reparsed}) {
      OwningOpRef<ModuleOp> lowered = m.clone();
      if (failed(runPipeline(ctx, *lowered, pipeline)))
        return fail(m == *p ? "lowering (unfused)" : "lowering (fused)");
      if (auto o = errorButSuccess("lowering"))
        return *o;
      if (options.ptxasPath.empty())
        continue;
      SmallVector<std::string> ptx;
      lowered->walk([&](gpu::BinaryOp bin) {
        for (Attribute a : bin.getObjects())
          if (auto obj = dyn_cast<gpu::ObjectAttr>(a))
            ptx.push_back(obj.getObject().getValue().str());
      });
      for (const std::string &code : ptx) {
        SmallString<64> path;
        int fd;
        if (llvm::sys::fs::createTemporaryFile("motif-fuzz", "ptx", fd, path))
          continue;
        {
          llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
          os << code;
        }
        auto run = driver::runTool(options.ptxasPath,
                                   {"-arch=sm_90", std::string(path), "-o",
                                    "/dev/null"});
        llvm::sys::fs::remove(path);
        if (!run) {
          llvm::consumeError(run.takeError());
          continue;
        }
        if (run->exitCode != 0) {
          Outcome o;
          o.kind = expectRefusal ? Outcome::Kind::Refused
                                 : Outcome::Kind::LegalRefused;
          o.detail = "ptxas: " + run->stderrText.substr(0, 400);
          o.program = text.str();
          return o;
        }
      }
    }
  }

  if (expectRefusal) {
    // Some defects only the lowering refuses (a reduction across blocks, a
    // residency the lowering cannot place): without it, not a verdict.
    Outcome o;
    o.kind = options.lower ? Outcome::Kind::IllegalAccepted
                           : Outcome::Kind::Unchecked;
    o.detail = options.lower
                   ? "every stage accepted it (lowered to PTX)"
                   : "accepted up to the lowering, which --no-lower skips";
    o.program = text.str();
    return o;
  }

  // Numerics: fused against unfused at the class the pass declared, and
  // each under the schedule model against the sequential float64 meaning.
  for (auto fa : p->getOps<func::FuncOp>()) {
    auto fb = reparsed->lookupSymbol<func::FuncOp>(fa.getName());
    if (!fb)
      continue;
    CompareOptions copts;
    copts.trials = options.trials;
    copts.seed = 12345;
    copts.equivalence = Equivalence::Semantic; // judged below
    copts.model = EvaluationModel::Schedule;
    copts.scheduleWorkLimit = options.scheduleWorkLimit;
    bool bitwise = true;
    if (auto eq = fb->getAttrOfType<EquivalenceAttr>("motif.equivalence"))
      bitwise = eq.getValue() == Equivalence::Bitwise;
    SmallVector<std::pair<func::FuncOp, func::FuncOp>> pairs;
    SmallVector<OwningOpRef<ModuleOp>> specialized;
    if (std::optional<int64_t> rows =
            pairsAtRowCounts(fa, fb, pairs, specialized))
      return fail("evaluation (row count " + std::to_string(*rows) + ")");
    for (auto [sa, sb] : pairs) {
    FailureOr<FunctionComparison> cmp = compareFunctions(sa, sb, copts);
    if (failed(cmp)) {
      // Past the evaluator's budget: compiled, not judged.
      if (StringRef(cap.first).contains("too large for the schedule-faithful") ||
          StringRef(cap.first).contains("tensor elements in all")) {
        Outcome o;
        o.kind = Outcome::Kind::Skipped;
        o.detail = "evaluation: " + cap.first;
        return o;
      }
      return fail("evaluation");
    }
    SmallVector<double> seqErr = sequentialErrors(sa, *copts.seed);
    auto wrong = [&](const std::string &why) {
      Outcome o;
      o.kind = expectRefusal ? Outcome::Kind::IllegalAccepted
                             : Outcome::Kind::Wrong;
      o.detail = why;
      o.program = text.str();
      return o;
    };
    for (const OutputComparison &out : cmp->outputs)
      if (std::optional<std::string> why =
                    judge(out, bitwise, options.mathRtol,
                    out.index < seqErr.size() ? seqErr[out.index] : 0.0))
        return wrong("@" + fa.getName().str() + " output #" +
                     std::to_string(out.index) + ", fused against unfused (" +
                     (bitwise ? "bitwise" : "tolerance") + "): " + *why);
    }
  }
  if (expectRefusal) {
    Outcome o;
    o.kind = Outcome::Kind::IllegalAccepted;
    o.detail = "every stage accepted it";
    o.program = text.str();
    return o;
  }
  return {};
}

//===----------------------------------------------------------------------===//
// Hand-fused forms from the schedule model
//===----------------------------------------------------------------------===//

namespace {
struct PlanResult {
  HandPlan plan;
  bool planted = false;
};
} // namespace

/// Kernels merged in program order, each intermediate read inside its
/// kernel given a residency the schedule model allows; with `plant`, one
/// edge gets one it does not allow (or one kernel two grids).
static std::optional<PlanResult> planHand(MLIRContext &ctx, const Spec &spec,
                                          Defect plant) {
  OwningOpRef<ModuleOp> m =
      parseSourceString<ModuleOp>(printUnfused(spec), ParserConfig(&ctx));
  if (!m)
    return std::nullopt;
  int n = spec.nodes.size();
  std::vector<std::optional<MotifSchedule>> sched(n);
  m->walk([&](KernelOp k) {
    int i = std::stoi(k.getSymName().drop_front(1).str());
    for (Operation &op : k.getBodyBlock())
      if (auto c = dyn_cast<ComputeOpInterface>(op)) {
        sched[i].emplace(c, handThreads(spec, spec.nodes[i]));
        break;
      }
  });
  std::mt19937_64 rng(spec.seed ^ 0x68616e64ull);
  auto chance = [&](double p) {
    return std::uniform_real_distribution<double>(0, 1)(rng) < p;
  };
  constexpr unsigned R = 1, S = 2;
  PlanResult res;
  res.plan.kernelStart.assign(n, false);
  res.plan.residency.resize(n);
  SmallVector<SmallVector<unsigned, 2>> allowed(n);
  for (int i = 0; i < n; ++i) {
    res.plan.residency[i].assign(spec.nodes[i].numResults(), HandResidency::Global);
    allowed[i].assign(spec.nodes[i].numResults(), R | S);
  }
  SmallVector<int> members;
  SmallVector<int64_t> grid;
  int64_t kernelThreads = spec.threads;
  SmallVector<std::pair<ValueRef, unsigned>> forced; // planted residencies
  for (int i = 0; i < n; ++i) {
    const Node &node = spec.nodes[i];
    if (node.kind == Node::Kind::Argument)
      continue;
    if (!sched[i])
      return std::nullopt;
    bool start = members.empty() || chance(0.15);
    bool gridDiffers = !members.empty() && sched[i]->getGridExtents() != grid;
    // A motif whose tile nests split its own block size keeps it
    // (handThreads): a kernel holds motifs of one block size, planted
    // defects included (they plant one defect, not two).
    bool threadsDiffer =
        !members.empty() && handThreads(spec, node) != kernelThreads;
    // A planted defect keeps node i in the current kernel, whatever else
    // would have split it off.
    bool plantHere = false;
    if (!members.empty() && !res.planted && !threadsDiffer) {
      if (plant == Defect::GridMismatch && gridDiffers)
        plantHere = true;
      if (plant == Defect::IllegalResidency && !gridDiffers)
        for (auto [idx, v] : llvm::enumerate(node.operands))
          if (llvm::is_contained(members, v.node) &&
              classifyEdge(*sched[v.node], *sched[i], idx).scope !=
                  Scope::SameThread)
            plantHere = true;
    }
    if ((gridDiffers && !plantHere) || threadsDiffer)
      start = true;
    // What each in-kernel operand would need.
    SmallVector<std::pair<ValueRef, unsigned>> needs;
    bool crossBlock = false;
    for (auto [idx, v] : llvm::enumerate(node.operands)) {
      if (!llvm::is_contained(members, v.node))
        continue;
      EdgeScope s = classifyEdge(*sched[v.node], *sched[i], idx);
      unsigned need = s.scope == Scope::SameThread  ? (R | S)
                      : s.scope == Scope::SameBlock ? S
                                                    : 0u;
      if (plantHere && s.scope != Scope::SameThread) {
        // Register where other threads read it, or shared where other
        // blocks do (or any in-kernel residency, where grids differ).
        forced.push_back({v, s.scope == Scope::SameBlock ? R
                             : chance(0.5)               ? R
                                                         : S});
        continue;
      }
      if (!need)
        crossBlock = true;
      needs.push_back({v, need});
    }
    auto feasible = [&](ValueRef v, unsigned mask) {
      unsigned ok = 0;
      if ((mask & R) && registerLayoutOf(*sched[v.node]).slots <= 64)
        ok |= R;
      if ((mask & S) &&
          sharedLayoutOf(*sched[v.node], Float32Type::get(&ctx)).bytes <= 8192)
        ok |= S;
      return ok;
    };
    if (plantHere) {
      res.planted = true;
      for (auto &[v, need] : needs)
        if (!feasible(v, allowed[v.node][v.result] & need))
          forced.push_back({v, S});
      for (auto &[v, need] : needs)
        allowed[v.node][v.result] = feasible(v, allowed[v.node][v.result] & need);
      members.push_back(i);
      continue;
    }
    if (!start && !crossBlock)
      for (auto &[v, need] : needs)
        if (!feasible(v, allowed[v.node][v.result] & need))
          start = true;
    if (start || crossBlock) {
      res.plan.kernelStart[i] = true;
      members.assign({i});
      grid = sched[i]->getGridExtents();
      kernelThreads = handThreads(spec, node);
      continue;
    }
    for (auto &[v, need] : needs)
      allowed[v.node][v.result] = feasible(v, allowed[v.node][v.result] & need);
    members.push_back(i);
  }
  // Residencies of values read inside their kernel.
  SmallVector<int> kernelOf(n, -1);
  int k = -1;
  for (int i = 0; i < n; ++i) {
    if (spec.nodes[i].kind == Node::Kind::Argument)
      continue;
    if (res.plan.kernelStart[i] || k < 0)
      ++k;
    kernelOf[i] = k;
  }
  for (int i = 0; i < n; ++i)
    for (ValueRef v : spec.nodes[i].operands)
      if (spec.nodes[v.node].kind != Node::Kind::Argument &&
          kernelOf[v.node] == kernelOf[i]) {
        unsigned a = allowed[v.node][v.result];
        HandResidency &r = res.plan.residency[v.node][v.result];
        if (r == HandResidency::Global)
          r = (a & R) && (!(a & S) || chance(0.65)) ? HandResidency::Register
                                                     : HandResidency::Shared;
      }
  for (auto &[v, bad] : forced)
    res.plan.residency[v.node][v.result] =
        bad == R ? HandResidency::Register : HandResidency::Shared;
  return res;
}

std::string mlir::motif::fuzz::handFusedText(MLIRContext &ctx, const Spec &spec) {
  std::optional<PlanResult> plan = planHand(ctx, spec, Defect::None);
  return plan ? printHandFused(spec, plan->plan) : std::string();
}

//===----------------------------------------------------------------------===//
// Checks of generated programs
//===----------------------------------------------------------------------===//

Outcome Oracle::checkLegal(const Spec &spec) {
  llvm::SaveAndRestore<std::string> extra(fuseExtra, fuseOptionsOf(spec));
  std::string unfused = printUnfused(spec);
  Outcome o = checkText(unfused, "unfused.mlir", false);
  if (o.kind != Outcome::Kind::Pass)
    return o;
  std::optional<PlanResult> plan = planHand(ctx, spec, Defect::None);
  if (!plan)
    return o;
  std::string hand = printHandFused(spec, plan->plan);
  o = checkText(hand, "hand.mlir", false);
  if (o.kind != Outcome::Kind::Pass)
    return o;
  // The hand-fused form computes the unfused program's bits (the same
  // mappings and block size: residency moves only), or within tolerance
  // where nodes were re-blocked.
  bool sameBlocks = llvm::all_of(spec.nodes, [&](const Node &n) {
    return n.kind == Node::Kind::Argument || n.threads == handThreads(spec, n);
  });
  Capture cap(ctx);
  ParserConfig config(&ctx);
  OwningOpRef<ModuleOp> a = parseSourceString<ModuleOp>(unfused, config, "unfused.mlir");
  OwningOpRef<ModuleOp> b = parseSourceString<ModuleOp>(hand, config, "hand.mlir");
  if (!a || !b)
    return refusal(cap, "reparse", hand, false);
  CompareOptions copts;
  copts.trials = options.trials;
  copts.seed = 777;
  copts.equivalence = Equivalence::Semantic; // judged below
  copts.scheduleWorkLimit = options.scheduleWorkLimit;
  auto fa = *a->getOps<func::FuncOp>().begin();
  auto fb = *b->getOps<func::FuncOp>().begin();
  SmallVector<std::pair<func::FuncOp, func::FuncOp>> pairs;
  SmallVector<OwningOpRef<ModuleOp>> specialized;
  if (std::optional<int64_t> rows =
          pairsAtRowCounts(fa, fb, pairs, specialized))
    return refusal(cap,
                   "evaluation (hand-fused, row count " +
                       std::to_string(*rows) + ")",
                   hand, false);
  for (auto [sa, sb] : pairs) {
    FailureOr<FunctionComparison> cmp = compareFunctions(sa, sb, copts);
    if (failed(cmp))
      return refusal(cap, "evaluation (hand-fused)", hand, false);
    SmallVector<double> seqErr = sequentialErrors(sa, *copts.seed);
    for (const OutputComparison &out : cmp->outputs)
      if (std::optional<std::string> why =
              judge(out, sameBlocks, options.mathRtol,
                    out.index < seqErr.size() ? seqErr[out.index] : 0.0)) {
        Outcome w;
        w.kind = Outcome::Kind::Wrong;
        w.detail = "output #" + std::to_string(out.index) +
                   ", hand-fused against unfused (" +
                   (sameBlocks ? "bitwise" : "tolerance") + "): " + *why;
        w.program = hand;
        return w;
      }
  }
  return {};
}

static bool hasParallelReduction(const Node &n) {
  for (auto [i, d] : llvm::enumerate(n.iterDims))
    if (!llvm::is_contained(n.dims, d) &&
        (n.levels[i] == Level::Thread || n.levels[i] == Level::Lane ||
         n.levels[i] == Level::Warp))
      return true;
  return false;
}

static bool isReduction(const Node &n) {
  return n.kind == Node::Kind::Reduce || n.kind == Node::Kind::Combine ||
         n.kind == Node::Kind::Contract;
}

Outcome Oracle::checkIllegal(const Spec &original, Defect defect) {
  Spec spec = original;
  Outcome none;
  none.detail = "no site";
  std::mt19937_64 rng(spec.seed ^ 0x696c6cull);
  SmallVector<int> sites;
  auto motifs = [&](auto pred) {
    sites.clear();
    for (auto [i, n] : llvm::enumerate(spec.nodes))
      if (n.kind != Node::Kind::Argument && pred(n))
        sites.push_back(i);
    return !sites.empty();
  };
  auto pickSite = [&]() -> Node & { return spec.nodes[sites[rng() % sites.size()]]; };
  std::string text;
  switch (defect) {
  case Defect::None:
    return checkLegal(spec);
  case Defect::TreeBlockSize: {
    if (!motifs([](const Node &n) { return isReduction(n) && hasParallelReduction(n); }))
      return none;
    Node &n = pickSite();
    bool lanes = false;
    for (auto [i, d] : llvm::enumerate(n.iterDims))
      lanes |= !llvm::is_contained(n.dims, d) &&
               (n.levels[i] == Level::Thread || n.levels[i] == Level::Lane);
    n.threads = lanes ? (rng() % 2 ? 100 : 24) : 100;
    text = printUnfused(spec);
    break;
  }
  case Defect::ReduceAcrossBlocks: {
    if (!motifs([](const Node &n) { return isReduction(n); }))
      return none;
    Node &n = pickSite();
    for (auto [i, d] : llvm::enumerate(n.iterDims))
      if (!llvm::is_contained(n.dims, d)) {
        // A reduced dim's nest is seq digits only: dropping it leaves the
        // rest of a tiled mapping as it was.
        n.levels[i] = Level::Block;
        if (!n.tiles.empty())
          n.tiles[i].clear();
        break;
      }
    text = printUnfused(spec);
    break;
  }
  case Defect::ZeroExtent: {
    SmallVector<int> used;
    for (const Node &n : spec.nodes)
      if (n.kind != Node::Kind::Argument)
        used.append(n.iterDims.begin(), n.iterDims.end());
    if (used.empty())
      return none;
    spec.extents[used[rng() % used.size()]] = 0;
    // Nests over that dim no longer multiply to its extent: untiled, so
    // the zero extent is the one defect.
    untileStale(spec);
    text = printUnfused(spec);
    break;
  }
  case Defect::TwoThreadDims: {
    if (!motifs([](const Node &n) { return n.iterDims.size() >= 2; }))
      return none;
    Node &n = pickSite();
    untile(n);
    n.levels[0] = Level::Thread;
    n.levels[1] = Level::Thread;
    text = printUnfused(spec);
    break;
  }
  case Defect::LawlessCombiner: {
    if (!motifs([](const Node &n) { return n.kind == Node::Kind::Reduce; }))
      return none;
    Node &n = pickSite();
    // Untiled first: the sized threads of a nest would not go with the
    // unsized `thread` below.
    untile(n);
    n.lawless = true;
    // Its input held in f32 (a combiner region folds f32 states), so the
    // combiner's law is the one defect.
    fixTypes(spec);
    // Combined across threads: the first reduced dim on `thread`, nothing
    // else on a thread level; a block size any tree combines.
    bool set = false;
    for (auto [i, d] : llvm::enumerate(n.iterDims)) {
      Level &l = n.levels[i];
      if (l == Level::Thread || l == Level::Warp || l == Level::Lane ||
          l == Level::BlockWarp)
        l = llvm::is_contained(n.dims, d) ? Level::Block : Level::Seq;
      if (!set && !llvm::is_contained(n.dims, d)) {
        l = Level::Thread;
        set = true;
      }
    }
    n.threads = 64;
    text = printUnfused(spec);
    break;
  }
  case Defect::IllegalResidency:
  case Defect::GridMismatch: {
    std::optional<PlanResult> plan = planHand(ctx, spec, defect);
    if (!plan || !plan->planted)
      return none;
    text = printHandFused(spec, plan->plan);
    break;
  }
  case Defect::RegisterOfArgument: {
    std::optional<PlanResult> plan = planHand(ctx, spec, Defect::None);
    if (!plan)
      return none;
    text = printHandFused(spec, plan->plan);
    // The first kernel reading an argument reads it through a register
    // materialization of it instead.
    size_t kernel = text.find("motif.kernel");
    size_t use = text.find("%arg", kernel);
    if (kernel == std::string::npos || use == std::string::npos)
      return none;
    size_t bracket = text.find('[', use);
    std::string arg = text.substr(use, bracket - use);
    int argNode = std::stoi(arg.substr(4));
    const Node &argument = spec.nodes[argNode];
    std::string type = tensorType(spec, argument.dims, argument.elem);
    size_t lineEnd = text.find('\n', kernel);
    text.replace(use, bracket - use, "%badreg");
    text.insert(lineEnd + 1, "    %badreg = motif.materialize " + arg +
                                 " in register : " + type + "\n");
    break;
  }
  }
  return checkText(text, "illegal.mlir", /*expectRefusal=*/true);
}

//===----------------------------------------------------------------------===//
// Isolation
//===----------------------------------------------------------------------===//

static void writeAll(int fd, const std::string &s) {
  size_t off = 0;
  while (off < s.size()) {
    ssize_t n = ::write(fd, s.data() + off, s.size() - off);
    if (n <= 0)
      return;
    off += n;
  }
}

Outcome Oracle::isolated(const std::function<Outcome()> &check) {
  int fds[2];
  if (::pipe(fds) != 0)
    return check();
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return check();
  }
  if (pid == 0) {
    ::close(fds[0]);
    // Crash reports of the child would only bury the summary.
    int devnull = ::open("/dev/null", O_WRONLY);
    if (devnull >= 0)
      ::dup2(devnull, 2);
    ::alarm(options.timeoutSeconds);
    Outcome o = check();
    std::string msg = std::to_string(static_cast<int>(o.kind)) + "\n" +
                      std::to_string(o.detail.size()) + "\n" + o.detail +
                      o.program;
    writeAll(fds[1], msg);
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string msg;
  char buf[65536];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof(buf))) > 0)
    msg.append(buf, n);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  Outcome o;
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    o.kind = sig == SIGALRM ? Outcome::Kind::Hang : Outcome::Kind::Crash;
    o.detail = std::string("signal ") + std::to_string(sig) + " (" +
               ::strsignal(sig) + ")";
    return o;
  }
  size_t a = msg.find('\n');
  size_t b = a == std::string::npos ? a : msg.find('\n', a + 1);
  if (b == std::string::npos) {
    o.kind = Outcome::Kind::Crash;
    o.detail = "the child exited without a result (status " +
               std::to_string(WEXITSTATUS(status)) + ")";
    return o;
  }
  o.kind = static_cast<Outcome::Kind>(std::stoi(msg.substr(0, a)));
  size_t len = std::stoul(msg.substr(a + 1, b - a - 1));
  o.detail = msg.substr(b + 1, len);
  o.program = msg.substr(b + 1 + len);
  return o;
}
