//===- PtxL2LoadPolicy.cpp - an L2 eviction policy on read-only loads -----===//
//
// motif-ptx-l2-load-policy (include/motif/Conversion/Passes.td): after
// gpu-module-to-binary, the PTX of every #gpu.object gets an L2 cache policy
// on its read-only global loads (`ld.global.nc`), created once per function.
// LLVM 22's NVPTX back end forms the 128-bit loads itself and has no way to
// carry a cache policy on them, and MLIR 22's NVVM dialect has no load with
// one, so the policy is applied to the PTX text, instruction by instruction,
// with nothing else changed.
//
//===----------------------------------------------------------------------===//

#include "motif/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Regex.h"

namespace mlir::motif {
#define GEN_PASS_DEF_PTXL2LOADPOLICY
#include "motif/Conversion/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;

ArrayRef<StringRef> mlir::motif::l2LoadPolicies() {
  static constexpr StringRef kPolicies[] = {"evict_last", "evict_first",
                                            "evict_normal", "none"};
  return kPolicies;
}

std::string mlir::motif::l2LoadPolicyList() {
  return llvm::join(l2LoadPolicies(), ", ");
}

namespace {

constexpr llvm::StringLiteral kPolicyRegister = "%motif_l2_policy";

/// What the rewrite did to one function of the PTX.
struct FunctionLoads {
  std::string name;
  unsigned loads = 0;
};

/// The sm_XY number of the PTX's `.target`, or 0 when there is none.
unsigned targetNumber(StringRef ptx) {
  llvm::Regex target("^\\.target[ \t]+sm_([0-9]+)");
  SmallVector<StringRef> m;
  for (StringRef line : llvm::split(ptx, '\n'))
    if (target.match(line, &m)) {
      unsigned n = 0;
      return m[1].getAsInteger(10, n) ? 0 : n;
    }
  return 0;
}

/// The PTX ISA version as major * 10 + minor (7.8 -> 78), 0 when unknown.
unsigned isaVersion(StringRef ptx) {
  llvm::Regex version("^\\.version[ \t]+([0-9]+)\\.([0-9]+)");
  SmallVector<StringRef> m;
  for (StringRef line : llvm::split(ptx, '\n'))
    if (version.match(line, &m)) {
      unsigned major = 0, minor = 0;
      if (m[1].getAsInteger(10, major) || m[2].getAsInteger(10, minor))
        return 0;
      return major * 10 + minor;
    }
  return 0;
}

/// Rewrites every `ld.global.nc` of `ptx` to carry the policy register and
/// creates the policy at the top of each function body that has one.
std::string rewrite(StringRef ptx, StringRef policy,
                    SmallVectorImpl<FunctionLoads> &functions) {
  // [indent][@pred ]ld.global.nc[.L1::x][.vN].type dest, [addr];[rest]
  llvm::Regex load("^([ \t]*)(@!?%[a-z0-9_]+[ \t]+)?ld\\.global\\.nc"
                   "(\\.L1::[a-z_]+)?((\\.v[248])?\\.[bfsu][0-9]+)[ \t]+"
                   "(\\{[^}]*\\}|%[A-Za-z0-9_$]+),[ \t]*(\\[[^]]*\\]);(.*)$");
  llvm::Regex entry("\\.(entry|func)[ \t]+(\\([^)]*\\)[ \t]*)?([A-Za-z_$][A-Za-z0-9_$]*)");
  SmallVector<StringRef> lines;
  StringRef(ptx).split(lines, '\n');
  std::string out;
  out.reserve(ptx.size() + 1024);
  int depth = 0;
  std::string header;      // the name of the function being read
  size_t bodyStart = 0;    // where its body starts in `out`
  unsigned loads = 0;
  SmallVector<StringRef> m;
  for (auto [i, line] : llvm::enumerate(lines)) {
    StringRef trimmed = line.trim();
    if (depth == 0 && entry.match(line, &m))
      header = m[3].str();
    if (depth > 0 && load.match(line, &m)) {
      out += (m[1] + m[2] + "ld.global.nc" + m[3] + ".L2::cache_hint" + m[4] +
              " \t" + m[6] + ", " + m[7] + ", " + kPolicyRegister + ";" + m[8])
                 .str();
      ++loads;
    } else {
      out += line.str();
    }
    if (i + 1 != lines.size())
      out += '\n';
    if (trimmed == "{") {
      if (depth++ == 0) {
        bodyStart = out.size();
        loads = 0;
      }
    } else if (trimmed == "}" && depth > 0 && --depth == 0) {
      functions.push_back({header, loads});
      if (loads) {
        std::string create =
            ("\t.reg .b64 \t" + kPolicyRegister + ";\n\tcreatepolicy.fractional.L2::" +
             policy + ".b64 \t" + kPolicyRegister + ", 1.0;\n")
                .str();
        out.insert(bodyStart, create);
      }
      header.clear();
    }
  }
  return out;
}

struct PtxL2LoadPolicyPass
    : public motif::impl::PtxL2LoadPolicyBase<PtxL2LoadPolicyPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    if (!llvm::is_contained(motif::l2LoadPolicies(), policy.getValue()))
      return emitError(UnknownLoc::get(ctx))
             << "motif-ptx-l2-load-policy: policy='" << policy.getValue()
             << "' is not one of " << motif::l2LoadPolicyList();
    return success();
  }

  void runOnOperation() override {
    if (policy == "none")
      return;
    getOperation().walk([&](gpu::BinaryOp binary) {
      SmallVector<Attribute> objects;
      bool changed = false;
      for (Attribute a : binary.getObjects()) {
        auto object = dyn_cast<gpu::ObjectAttr>(a);
        if (!object || object.getFormat() != gpu::CompilationTarget::Assembly) {
          binary.emitRemark()
              << "L2 load policy not applied: an object of @"
              << binary.getSymName() << " is not PTX (format isa)";
          objects.push_back(a);
          continue;
        }
        StringRef ptx = object.getObject().getValue();
        unsigned sm = targetNumber(ptx), isa = isaVersion(ptx);
        if (sm < 80 || isa < 74) {
          binary.emitRemark()
              << "L2 load policy not applied to @" << binary.getSymName()
              << ": createpolicy needs sm_80 and PTX ISA 7.4 (the PTX targets sm_"
              << sm << ", ISA " << isa / 10 << "." << isa % 10 << ")";
          objects.push_back(a);
          continue;
        }
        SmallVector<FunctionLoads> functions;
        std::string text = rewrite(ptx, policy, functions);
        for (const FunctionLoads &f : functions) {
          if (f.loads)
            binary.emitRemark() << "kernel " << f.name << ": L2::" << policy
                                << " cache policy on " << f.loads
                                << " read-only global load(s)";
          else if (!f.name.empty())
            binary.emitRemark() << "kernel " << f.name
                                << ": no read-only global load (ld.global.nc) "
                                   "to give the L2 policy";
        }
        if (text == ptx) {
          objects.push_back(a);
          continue;
        }
        changed = true;
        objects.push_back(gpu::ObjectAttr::get(
            &getContext(), object.getTarget(), object.getFormat(),
            StringAttr::get(&getContext(), text), object.getProperties(),
            object.getKernels()));
      }
      if (changed)
        binary.setObjectsAttr(ArrayAttr::get(&getContext(), objects));
    });
  }
};

} // namespace
