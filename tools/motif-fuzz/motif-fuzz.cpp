//===- motif-fuzz.cpp - random programs and mutants through the tools -----===//
//
//   motif-fuzz run     [--seed=S] [--count=N] [--seconds=T] [--jobs=J]
//                      [--illegal=F] [--ptxas] [--no-lower] [--failures=DIR]
//   motif-fuzz mutate  [--seed=S] [--count=N] [--seconds=T] [--jobs=J]
//                      [--failures=DIR] FILE...
//   motif-fuzz one     --program-seed=X [--defect=NAME] [--print=unfused|hand|json]
//   motif-fuzz check   FILE [--expect-refusal]
//   motif-fuzz gen     [--seed=S] [--count=N] -o DIR
//
// Argument handling, the worker pool and the tallies; the generator, the
// oracle, the minimizer and the mutations are in lib/Fuzz (docs/testing.md).
// Exit status: 0 when no bug was found, 1 when one was, 2 on bad usage.
//
//===----------------------------------------------------------------------===//

#include "motif/Driver/Compile.h"
#include "motif/Driver/Toolchain.h"
#include "motif/Fuzz/Oracle.h"
#include "motif/InitAll.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::fuzz;
namespace cl = llvm::cl;

static cl::OptionCategory fuzzCategory("motif-fuzz options");
static cl::opt<uint64_t> seed("seed", cl::desc("base seed of the run"), cl::init(1), cl::cat(fuzzCategory));
static cl::opt<uint64_t> count("count", cl::desc("programs (or mutants)"), cl::init(100), cl::cat(fuzzCategory));
static cl::opt<uint64_t> first("first",
                               cl::desc("index of the first program (or mutant): --first=I --count=1 "
                                        "re-runs program I of a run"),
                               cl::init(0), cl::cat(fuzzCategory));
static cl::opt<unsigned> seconds("seconds", cl::desc("stop after this many seconds (0: no limit)"),
                                 cl::init(0), cl::cat(fuzzCategory));
static cl::opt<unsigned> jobs("jobs", cl::desc("worker processes"), cl::init(2), cl::cat(fuzzCategory));
static cl::opt<unsigned> timeout("timeout",
                                 cl::desc("seconds one check may run before it counts as a hang (>= 1; "
                                          "sanitizer builds run 5-10x slower)"),
                                 cl::init(60), cl::cat(fuzzCategory));
static cl::opt<double> illegalFraction("illegal", cl::desc("fraction of programs with a planted defect"),
                                       cl::init(0.3), cl::cat(fuzzCategory));
static cl::opt<bool> usePtxas("ptxas", cl::desc("assemble every PTX with ptxas (when found)"), cl::cat(fuzzCategory));
static cl::opt<std::string> cap("cap",
                                cl::desc("equivalence cap of --fuse-materialization: bitwise (default), "
                                         "tolerance or mathematical; the fused form is judged by the class "
                                         "it records"),
                                cl::init("bitwise"), cl::cat(fuzzCategory));
static cl::opt<bool> noLower("no-lower", cl::desc("skip the lowering to PTX"), cl::cat(fuzzCategory));
static cl::opt<std::string> failuresDir("failures",
                                        cl::desc("write each failure, minimized, as a test case here"), cl::cat(fuzzCategory));
static cl::opt<uint64_t> oneSeed("program-seed", cl::desc("the program seed (one)"), cl::cat(fuzzCategory));
static cl::opt<std::string> defectName("defect", cl::desc("plant this defect (one)"), cl::init("none"), cl::cat(fuzzCategory));
static cl::opt<std::string> printForm("print", cl::desc("print this form instead of checking it (one)"), cl::cat(fuzzCategory));
static cl::opt<bool> expectRefusal("expect-refusal", cl::desc("the file must be refused (check)"), cl::cat(fuzzCategory));
static cl::opt<std::string> outputDir("o", cl::desc("output folder (gen)"), cl::cat(fuzzCategory));
static cl::opt<bool> verbose("v", cl::desc("print every failure's detail"), cl::cat(fuzzCategory));
static cl::opt<bool> compileForGpu("compile",
                                   cl::desc("gen: compile every form for the GPU (cubin + manifest)"), cl::cat(fuzzCategory));
static cl::list<std::string> files(cl::Positional, cl::desc("files"), cl::cat(fuzzCategory));

static const Defect kDefects[] = {
    Defect::IllegalResidency, Defect::TreeBlockSize,   Defect::ReduceAcrossBlocks,
    Defect::RegisterOfArgument, Defect::ZeroExtent,    Defect::TwoThreadDims,
    Defect::LawlessCombiner,  Defect::GridMismatch};

static std::optional<Defect> parseDefect(StringRef name) {
  if (name == "none")
    return Defect::None;
  for (Defect d : kDefects)
    if (stringifyDefect(d) == name)
      return d;
  return std::nullopt;
}

static constexpr const char *kOverview =
    "motif-fuzz: random motif programs and mutants through the tools\n\n"
    "  motif-fuzz run     generated programs (legal and --illegal ones): "
    "parse, verify,\n"
    "                     fuse, lower; unfused/fused/hand-fused compared "
    "on the schedule model\n"
    "  motif-fuzz mutate  token and line mutants of FILE...: no crash, no "
    "hang, no unlocated error\n"
    "  motif-fuzz one     one program: --program-seed=X [--defect=NAME] "
    "[--print=unfused|hand|json]\n"
    "  motif-fuzz check   FILE [--expect-refusal] (a written-out failure "
    "is a test)\n"
    "  motif-fuzz gen     --count=N -o DIR [--compile]: programs (and "
    "cubins) for a GPU run\n\n"
    "Exit status: 0 no bug, 1 a bug, 2 bad usage. See docs/fuzzing.md.\n";

static int usage(const Twine &why) {
  llvm::errs() << "motif-fuzz: " << why << "\n"
               << "usage: motif-fuzz run|mutate|one|check|gen [options] "
                  "(motif-fuzz --help)\n";
  return 2;
}

static OracleOptions oracleOptions() {
  OracleOptions o;
  o.lower = !noLower;
  o.timeoutSeconds = std::max(1u, static_cast<unsigned>(timeout));
  o.cap = cap;
  if (usePtxas) {
    auto p = driver::findPtxas("");
    if (p)
      o.ptxasPath = *p;
    else
      llvm::consumeError(p.takeError());
  }
  auto lib = driver::findLibdevice("", o.ptxasPath);
  if (lib)
    o.libdevicePath = *lib;
  else
    llvm::consumeError(lib.takeError());
  return o;
}

static std::unique_ptr<MLIRContext> makeContext() {
  DialectRegistry registry;
  registerAllDialects(registry);
  auto ctx = std::make_unique<MLIRContext>(registry, MLIRContext::Threading::DISABLED);
  ctx->loadAllAvailableDialects();
  ctx->printOpOnDiagnostic(false);
  return ctx;
}

/// The fused form of `unfused` (--fuse-materialization under --cap), and the
/// class the pass declared; empty when the pass refuses.
static std::string fuseForGpu(MLIRContext &ctx, StringRef unfused, StringRef extra,
                              std::string &eq) {
  ScopedDiagnosticHandler quiet(&ctx, [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> m = parseSourceString<ModuleOp>(unfused, ParserConfig(&ctx));
  if (!m)
    return "";
  PassManager pm(&ctx);
  if (failed(parsePassPipeline(
          "func.func(fuse-materialization{equivalence-cap=" + cap + extra.str() + "})",
          pm)) ||
      failed(pm.run(*m)))
    return "";
  for (auto f : m->getOps<func::FuncOp>())
    if (auto a = f->getAttrOfType<EquivalenceAttr>("motif.equivalence"))
      eq = stringifyEquivalence(a.getValue()).str();
  std::string s;
  llvm::raw_string_ostream os(s);
  m->print(os);
  return s;
}

/// One finished program or mutant, as a worker reports it.
struct Result {
  uint64_t index = 0, programSeed = 0;
  std::string mode; // "legal", a defect name, or "mutant"
  Outcome::Kind kind = Outcome::Kind::Pass;
  bool bug = false, noSite = false;
  /// The program holds bf16 or f16 values (Spec::half).
  bool half = false;
  std::string detail;
};

static std::string encode(const Result &r) {
  std::string detail = r.detail;
  for (char &c : detail)
    if (c == '\n' || c == '\t')
      c = ' ';
  return std::to_string(r.index) + "\t" + std::to_string(r.programSeed) + "\t" +
         r.mode + "\t" + std::to_string(static_cast<int>(r.kind)) + "\t" +
         (r.bug ? "1" : "0") + "\t" + (r.noSite ? "1" : "0") + "\t" +
         (r.half ? "1" : "0") + "\t" + detail + "\n";
}

static Result decode(StringRef line) {
  SmallVector<StringRef> f;
  line.split(f, '\t', 7);
  Result r;
  if (f.size() < 8)
    return r;
  f[0].getAsInteger(10, r.index);
  f[1].getAsInteger(10, r.programSeed);
  r.mode = f[2].str();
  int k = 0;
  f[3].getAsInteger(10, k);
  r.kind = static_cast<Outcome::Kind>(k);
  r.bug = f[4] == "1";
  r.noSite = f[5] == "1";
  r.half = f[6] == "1";
  r.detail = f[7].str();
  return r;
}

static void writeFailure(const Result &r, StringRef program, bool refusal) {
  if (failuresDir.empty())
    return;
  llvm::sys::fs::create_directories(failuresDir);
  SmallString<128> path(failuresDir);
  llvm::sys::path::append(path, "fuzz-" + r.mode + "-" + std::to_string(r.programSeed) +
                                    ".mlir");
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return;
  os << "// motif-fuzz: " << stringifyOutcome(r.kind) << ": " << r.detail << "\n";
  if (r.mode == "mutant")
    os << "// a mutant (run seed " << seed << ", mutant " << r.index
       << "); reproduce: motif-fuzz mutate --seed=" << seed << " --first=" << r.index
       << " --count=1 with the run's files, in its order\n";
  else
    os << "// Reproduce: motif-fuzz one --program-seed=" << r.programSeed
       << " --defect=" << (r.mode == "legal" ? "none" : r.mode) << "\n";
  os << "// RUN: motif-fuzz check %s" << (refusal ? " --expect-refusal" : "") << "\n";
  os << program;
}

/// Checks program `index` of the run; minimizes a failure.
static Result runOne(Oracle &oracle, uint64_t index, std::mt19937_64 &pick) {
  Result r;
  r.index = index;
  r.programSeed = programSeed(seed, index);
  Spec spec = generate(r.programSeed);
  r.half = spec.half;
  Defect defect = Defect::None;
  if (std::uniform_real_distribution<double>(0, 1)(pick) < illegalFraction)
    defect = kDefects[index % std::size(kDefects)];
  r.mode = defect == Defect::None ? "legal" : stringifyDefect(defect).str();
  auto check = [&](const Spec &s) {
    return oracle.isolated([&] {
      return defect == Defect::None ? oracle.checkLegal(s) : oracle.checkIllegal(s, defect);
    });
  };
  Outcome o = check(spec);
  r.kind = o.kind;
  r.detail = o.detail;
  r.noSite = defect != Defect::None && o.kind == Outcome::Kind::Pass;
  r.bug = !r.noSite && o.isBug(defect != Defect::None);
  if (r.bug && !failuresDir.empty()) {
    Spec small = minimize(spec, [&](const Spec &s) { return check(s).kind == o.kind; });
    Outcome m = check(small);
    writeFailure(r, m.program.empty() ? o.program : m.program, defect != Defect::None);
  }
  return r;
}

static Result mutateOne(Oracle &oracle, uint64_t index, ArrayRef<std::string> corpus) {
  std::mt19937_64 rng(programSeed(seed, index));
  Result r;
  r.index = index;
  r.programSeed = programSeed(seed, index);
  r.mode = "mutant";
  std::string text = corpus[rng() % corpus.size()];
  for (int k = 0, e = 1 + rng() % 3; k < e; ++k)
    text = mutate(text, rng);
  Outcome o = oracle.isolated([&] { return oracle.checkText(text, "mutant.mlir", false); });
  // A mutant may be valid or not: being refused is fine, as long as it is
  // refused with a located error; an accepted one must compute correctly.
  r.kind = o.kind;
  r.detail = o.detail;
  r.bug = !(o.kind == Outcome::Kind::Pass || o.kind == Outcome::Kind::Skipped ||
             o.kind == Outcome::Kind::LegalRefused ||
            o.kind == Outcome::Kind::Refused);
  if (r.bug)
    writeFailure(r, text, false);
  return r;
}

/// Runs `work(index)` over the indices in `jobs` forked workers; tallies.
static int pool(StringRef what, const std::function<Result(uint64_t)> &work) {
  auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  unsigned n = std::max(1u, unsigned(jobs));
  SmallVector<int> readers;
  SmallVector<pid_t> pids;
  for (unsigned w = 0; w < n; ++w) {
    int fds[2];
    if (::pipe(fds) != 0)
      return usage("cannot create a pipe");
    pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      for (uint64_t i = first + w; i < first + count; i += n) {
        if (seconds && elapsed() > seconds)
          break;
        std::string line = encode(work(i));
        if (::write(fds[1], line.data(), line.size()) < 0)
          break;
      }
      ::close(fds[1]);
      ::_exit(0);
    }
    ::close(fds[1]);
    readers.push_back(fds[0]);
    pids.push_back(pid);
  }
  std::map<std::string, std::map<std::string, uint64_t>> tally; // mode -> outcome
  uint64_t done = 0, bugs = 0, noSite = 0, half = 0, halfBugs = 0;
  double lastProgress = 0;
  uint64_t step = std::max<uint64_t>(1, count / 20);
  SmallVector<std::string> bufs(readers.size());
  SmallVector<pollfd> fds;
  for (int fd : readers)
    fds.push_back({fd, POLLIN, 0});
  size_t open = fds.size();
  while (open > 0) {
    if (::poll(fds.data(), fds.size(), -1) < 0)
      break;
    for (auto [k, p] : llvm::enumerate(fds)) {
      if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      char chunk[4096];
      ssize_t got = ::read(p.fd, chunk, sizeof(chunk));
      if (got <= 0) {
        ::close(p.fd);
        p.fd = -1;
        --open;
        continue;
      }
      std::string &buf = bufs[k];
      buf.append(chunk, got);
      size_t nl;
      while ((nl = buf.find('\n')) != std::string::npos) {
        Result r = decode(StringRef(buf).take_front(nl));
        buf.erase(0, nl + 1);
        ++done;
        if (r.noSite) {
          ++noSite;
        } else {
          ++tally[r.mode][stringifyOutcome(r.kind).str()];
          half += r.half;
        }
        if (r.bug) {
          ++bugs;
          halfBugs += r.half;
          llvm::errs() << "[motif-fuzz] BUG " << stringifyOutcome(r.kind) << " (" << r.mode
                       << " #" << r.index << ", program seed " << r.programSeed << "): " << r.detail << "\n";
        }
        // Every step programs, and at least every 30 s (a --seconds run
        // with a large --count would otherwise stay silent).
        if (done % step == 0 || elapsed() - lastProgress >= 30) {
          lastProgress = elapsed();
          llvm::errs() << "[motif-fuzz] " << what << ": " << done << "/" << count << " ("
                       << llvm::format("%.0f", elapsed()) << " s), " << bugs << " bug(s)\n";
        }
      }
    }
  }
  for (pid_t pid : pids) {
    int status;
    ::waitpid(pid, &status, 0);
  }
  llvm::outs() << "motif-fuzz " << what << ": seed " << seed << ", " << done
               << " programs in " << llvm::format("%.1f", elapsed()) << " s";
  if (noSite)
    llvm::outs() << " (" << noSite << " planted defects without a site)";
  if (done < count)
    llvm::outs() << "; stopped at --seconds=" << unsigned(seconds)
                 << ", before " << count;
  llvm::outs() << "\n";
  llvm::outs() << llvm::format("  %-22s %-20s %s\n", "mode", "outcome", "count");
  for (auto &[mode, outcomes] : tally)
    for (auto &[outcome, c] : outcomes)
      llvm::outs() << llvm::format("  %-22s %-20s %llu\n", mode.c_str(), outcome.c_str(),
                                   static_cast<unsigned long long>(c));
  if (half)
    llvm::outs() << "  holding bf16/f16 values: " << half << " of them, "
                 << halfBugs << " with a bug\n";
  llvm::outs() << "  bugs: " << bugs << "\n";
  return bugs ? 1 : 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // --help lists this tool's options, not every LLVM backend's.
  cl::HideUnrelatedOptions(fuzzCategory);
  if (argc < 2 || StringRef(argv[1]).starts_with("-")) {
    if (argc >= 2 && (StringRef(argv[1]) == "--help" || StringRef(argv[1]) == "-help")) {
      cl::ParseCommandLineOptions(argc, argv, kOverview);
      return 0;
    }
    return usage("expected a mode first");
  }
  std::string mode = argv[1];
  SmallVector<char *> args{argv[0]};
  for (int i = 2; i < argc; ++i)
    args.push_back(argv[i]);
  if (!cl::ParseCommandLineOptions(args.size(), args.data(), kOverview, &llvm::errs()))
    return 2;
  if (jobs == 0 || jobs > 64)
    return usage("--jobs=" + std::to_string(jobs) + " must be in [1, 64]");
  if (!(illegalFraction >= 0.0 && illegalFraction <= 1.0))
    return usage("--illegal=" + std::to_string(illegalFraction) + " must be in [0, 1]");
  if (cap != "bitwise" && cap != "tolerance" && cap != "mathematical")
    return usage("--cap='" + cap + "' (expected bitwise, tolerance or mathematical)");
  std::optional<Defect> defect = parseDefect(defectName);
  if (!defect)
    return usage("--defect='" + defectName + "' is not a defect");

  llvm::InitializeAllTargets();
  llvm::InitializeAllTargetMCs();
  llvm::InitializeAllAsmPrinters();
  registerAllPasses();
  OracleOptions options = oracleOptions();

  if (mode == "run") {
    if (!files.empty())
      return usage("run takes no files");
    return pool("run", [&](uint64_t i) {
      static std::unique_ptr<MLIRContext> ctx = makeContext();
      static Oracle oracle(*ctx, options);
      std::mt19937_64 pick(programSeed(seed ^ 0x70696b, i));
      return runOne(oracle, i, pick);
    });
  }
  if (mode == "mutate") {
    if (files.empty())
      return usage("mutate needs input files");
    std::vector<std::string> corpus;
    for (const std::string &f : files) {
      auto buf = llvm::MemoryBuffer::getFile(f);
      if (!buf)
        return usage("cannot read '" + f + "'");
      // Split-input files: one program per chunk.
      SmallVector<StringRef> chunks;
      (*buf)->getBuffer().split(chunks, "// -----");
      for (StringRef c : chunks)
        if (c.contains("func.func"))
          corpus.push_back(c.str());
    }
    if (corpus.empty())
      return usage("no program in the input files");
    return pool("mutate", [&](uint64_t i) {
      static std::unique_ptr<MLIRContext> ctx = makeContext();
      static Oracle oracle(*ctx, options);
      return mutateOne(oracle, i, corpus);
    });
  }
  auto ctx = makeContext();
  Oracle oracle(*ctx, options);
  if (mode == "one") {
    if (!oneSeed.getNumOccurrences())
      return usage("one needs --program-seed");
    Spec spec = generate(oneSeed);
    if (printForm == "unfused") {
      llvm::outs() << printUnfused(spec);
      return 0;
    }
    if (printForm == "json") {
      llvm::outs() << printJson(spec);
      return 0;
    }
    if (printForm == "hand") {
      llvm::outs() << handFusedText(*ctx, spec);
      return 0;
    }
    if (!printForm.empty())
      return usage("--print='" + printForm + "' (expected unfused, hand or json)");
    Outcome o = oracle.isolated([&] {
      return *defect == Defect::None ? oracle.checkLegal(spec) : oracle.checkIllegal(spec, *defect);
    });
    llvm::outs() << describe(spec) << " (" << stringifyDefect(*defect) << "): "
                 << stringifyOutcome(o.kind) << (o.detail.empty() ? "" : ": ") << o.detail
                 << "\n";
    if (verbose)
      llvm::outs() << o.program;
    return o.isBug(*defect != Defect::None) ? 1 : 0;
  }
  if (mode == "check") {
    if (files.size() != 1)
      return usage("check takes one file");
    auto buf = llvm::MemoryBuffer::getFile(files[0]);
    if (!buf)
      return usage("cannot read '" + files[0] + "'");
    std::string text = (*buf)->getBuffer().str();
    Outcome o = oracle.isolated(
        [&] { return oracle.checkText(text, files[0], expectRefusal); });
    llvm::outs() << files[0] << ": " << stringifyOutcome(o.kind)
                 << (o.detail.empty() ? "" : ": ") << o.detail << "\n";
    bool ok = expectRefusal ? o.kind == Outcome::Kind::Refused
                            : o.kind == Outcome::Kind::Pass || o.kind == Outcome::Kind::Skipped;
    return ok ? 0 : 1;
  }
  if (mode == "gen") {
    if (outputDir.empty())
      return usage("gen needs -o DIR");
    if (std::error_code ec = llvm::sys::fs::create_directories(outputDir))
      return usage("cannot create '" + outputDir + "': " + ec.message());
    // Per program: the unfused, fused and hand-fused forms (.mlir), the
    // JSON spec, the class the pass declared, and (--compile) each form
    // compiled by motif-compile's driver (cubin + manifest) for the GPU run.
    return pool("gen", [&](uint64_t i) {
      static std::unique_ptr<MLIRContext> gctx = makeContext();
      Result r;
      r.index = i;
      r.programSeed = programSeed(seed, i);
      r.mode = "gen";
      Spec spec = generate(r.programSeed);
      r.half = spec.half;
      std::string dir = (Twine(outputDir) + "/p" + Twine(i)).str();
      llvm::sys::fs::create_directories(dir);
      std::string eq;
      std::string fused = fuseForGpu(*gctx, printUnfused(spec), fuseOptionsOf(spec), eq);
      std::map<std::string, std::string> forms{{"unfused", printUnfused(spec)},
                                               {"hand", handFusedText(*gctx, spec)}};
      if (!fused.empty())
        forms["fused"] = fused;
      std::error_code ec;
      llvm::raw_fd_ostream(dir + "/spec.json", ec) << printJson(spec);
      // The hand-fused form runs every motif at the program's block size
      // (a motif whose tile nests split its own keeps it): bitwise when the
      // unfused kernels use those too.
      bool sameBlocks = llvm::all_of(spec.nodes, [&](const Node &n) {
        return n.kind == Node::Kind::Argument || n.threads == handThreads(spec, n);
      });
      llvm::raw_fd_ostream(dir + "/meta.json", ec)
          << "{\"program_seed\": " << r.programSeed << ", \"fused_class\": \""
          << (eq.empty() ? "none" : eq) << "\", \"hand_class\": \""
          << (sameBlocks ? "bitwise" : "tolerance") << "\"}\n";
      for (auto &[form, text] : forms) {
        if (text.empty())
          continue;
        std::string src = dir + "/" + form + ".mlir";
        llvm::raw_fd_ostream(src, ec) << text;
        if (!compileForGpu)
          continue;
        driver::CompileOptions copts;
        copts.inputPath = src;
        copts.outputDir = dir + "/" + form;
        copts.runNvdisasm = false;
        std::string log;
        llvm::raw_string_ostream logs(log);
        if (failed(driver::compile(copts, logs))) {
          r.kind = Outcome::Kind::LegalRefused;
          r.bug = true;
          r.detail = form + ": " + log.substr(0, 300);
          return r;
        }
        // The GPU loads the cubin; the rest stays here.
        std::error_code dirEc;
        for (llvm::sys::fs::directory_iterator it(copts.outputDir, dirEc), end;
             it != end && !dirEc; it.increment(dirEc)) {
          StringRef ext = llvm::sys::path::extension(it->path());
          if (ext == ".ptx" || ext == ".h" || ext == ".sass")
            llvm::sys::fs::remove(it->path());
        }
      }
      return r;
    });
  }
  return usage("unknown mode '" + mode + "'");
}
