//===- RaisePtxIsa.cpp - the PTX ISA a module's inline PTX needs ----------===//
//
// motif-raise-ptx-isa (include/motif/Conversion/Passes.td): after
// nvvm-attach-target, a gpu.module whose inline PTX needs a later PTX ISA than
// its #nvvm.target gives gets that target's `+ptxNN` raised; other modules are
// left as they are.
//
//===----------------------------------------------------------------------===//

#include "motif/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::motif {
#define GEN_PASS_DEF_RAISEPTXISA
#include "motif/Conversion/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;

namespace {

/// An instruction convert-motif-to-gpu writes as inline PTX, with the PTX ISA
/// (major * 10 + minor) and the chip (sm_XY as XY) it needs.
struct AsmNeed {
  StringLiteral mnemonic;
  unsigned isa;
  unsigned sm;
};

constexpr AsmNeed kNeeds[] = {
    {"st.async", 81, 90}, // cluster-mbarrier's exchange (PTX ISA 8.1)
};

/// The sm_XY number of a chip name ("sm_90a" -> 90), 0 when it is not one.
unsigned chipNumber(StringRef chip) {
  unsigned n = 0;
  if (!chip.consume_front("sm_"))
    return 0;
  StringRef digits = chip.take_while(llvm::isDigit);
  return digits.getAsInteger(10, n) ? 0 : n;
}

/// The PTX ISA the NVPTX back end writes for `target`: its `+ptxNN` feature,
/// else the least its chip needs (LLVM 22's NVPTX.td: sm_90 7.8, sm_90a 8.0,
/// sm_100 and later 8.6 or more), 0 below sm_90 (no instruction here runs
/// there).
unsigned targetIsa(NVVM::NVVMTargetAttr target) {
  for (StringRef f : llvm::split(target.getFeatures(), ',')) {
    unsigned n = 0;
    StringRef t = f.trim();
    if (t.consume_front("+ptx") && !t.getAsInteger(10, n))
      return n;
  }
  StringRef chip = target.getChip();
  unsigned sm = chipNumber(chip);
  if (sm >= 100)
    return 86;
  if (sm >= 90)
    return chip.ends_with("a") ? 80 : 78;
  return 0;
}

/// `features` with its `+ptxNN` replaced by (or extended with) `+ptx<isa>`.
std::string withIsa(StringRef features, unsigned isa) {
  SmallVector<std::string> kept;
  for (StringRef f : llvm::split(features, ','))
    if (!f.trim().empty() && !f.trim().starts_with("+ptx"))
      kept.push_back(f.trim().str());
  kept.push_back("+ptx" + std::to_string(isa));
  return llvm::join(kept, ",");
}

struct RaisePtxIsaPass
    : public motif::impl::RaisePtxIsaBase<RaisePtxIsaPass> {
  void runOnOperation() override {
    bool failed = false;
    getOperation()->walk([&](gpu::GPUModuleOp module) {
      // The latest ISA an inline asm of the module needs, and that asm.
      unsigned need = 0, needSm = 0;
      Operation *needer = nullptr;
      module.walk([&](LLVM::InlineAsmOp op) {
        for (const AsmNeed &n : kNeeds)
          if (op.getAsmString().contains(n.mnemonic) && n.isa > need) {
            need = n.isa;
            needSm = n.sm;
            needer = op;
          }
      });
      std::optional<ArrayAttr> targets = module.getTargets();
      if (!needer || !targets)
        return;
      SmallVector<Attribute> raised;
      bool changed = false;
      for (Attribute a : *targets) {
        auto target = dyn_cast<NVVM::NVVMTargetAttr>(a);
        if (!target) {
          raised.push_back(a);
          continue;
        }
        if (chipNumber(target.getChip()) < needSm) {
          needer->emitError()
              << "this inline PTX needs sm_" << needSm << " or later; the "
              << "module's target is " << target.getChip();
          failed = true;
          return;
        }
        unsigned isa = targetIsa(target);
        if (isa >= need) {
          raised.push_back(a);
          continue;
        }
        raised.push_back(NVVM::NVVMTargetAttr::get(
            &getContext(), target.getO(), target.getTriple(),
            target.getChip(), withIsa(target.getFeatures(), need),
            target.getFlags(), target.getLink(), target.getVerifyTarget()));
        changed = true;
        module.emitRemark()
            << "PTX ISA raised from " << isa / 10 << "." << isa % 10 << " to "
            << need / 10 << "." << need % 10 << " for " << target.getChip()
            << ": its inline PTX has "
            << cast<LLVM::InlineAsmOp>(needer).getAsmString().take_until(
                   [](char c) { return c == ' '; });
      }
      if (changed)
        module.setTargetsAttr(ArrayAttr::get(&getContext(), raised));
    });
    if (failed)
      signalPassFailure();
  }
};

} // namespace
