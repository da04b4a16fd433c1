//===- ResidencyReport.cpp - a table of every intermediate's residency ----===//
#include "motif/Analysis/ExecutionScope.h"
#include "motif/Dialect/Motif/Transforms/Passes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#define DEBUG_TYPE "motif-residency-report"

namespace mlir::motif {
#define GEN_PASS_DEF_MOTIFRESIDENCYREPORT
#include "motif/Dialect/Motif/Transforms/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;
using namespace mlir::motif;

namespace {
struct Row {
  std::string name, before, after, rule;
  int64_t savedBytes = 0, sharedBytes = 0, barriers = 0;
};

struct ResidencyReportPass
    : public motif::impl::MotifResidencyReportBase<ResidencyReportPass> {
  using MotifResidencyReportBase::MotifResidencyReportBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<Row> rows;
    func.walk([&](MaterializeOp mat) {
      auto kernel = mat->getParentOfType<KernelOp>();
      Row row;
      auto producer = mat.getInput().getDefiningOp<ComputeOpInterface>();
      // Name it by the kernel result it was before fusion, when known.
      auto origin = mat->getAttrOfType<StringAttr>("motif.producer");
      row.name = ((origin ? origin.getValue() : kernel.getSymName()) + " (" +
                  (producer ? producer->getName().stripDialect() : "copy") +
                  ")")
                     .str();
      std::string type;
      llvm::raw_string_ostream os(type);
      os << mat.getType();
      row.name += " " + type;
      auto was = mat->getAttrOfType<ResidencyAttr>("motif.was");
      row.before = was ? stringifyResidency(was.getValue()).str() : "-";
      row.after = stringifyResidency(mat.getResidency()).str();
      if (auto rule = mat->getAttrOfType<StringAttr>("motif.rule"))
        row.rule = rule.getValue().str();
      auto tensor = cast<RankedTensorType>(mat.getType());
      int64_t bytes = tensor.getNumElements() *
                      llvm::divideCeil(tensor.getElementTypeBitWidth(), 8);
      if (auto saved = mat->getAttrOfType<IntegerAttr>("motif.saved_bytes"))
        row.savedBytes = saved.getInt();
      if (mat.getResidency() == Residency::Shared) {
        row.sharedBytes = producer ? bytesPerBlock(producer, mat.getInput()) : bytes;
        row.barriers = 1;
      }
      rows.push_back(row);
    });

    std::error_code ec;
    std::unique_ptr<llvm::raw_fd_ostream> file;
    llvm::raw_ostream *out = &llvm::outs();
    if (output != "-") {
      file = std::make_unique<llvm::raw_fd_ostream>(output, ec,
                                                    llvm::sys::fs::OF_Append);
      if (ec) {
        func.emitError() << "cannot open '" << output << "': " << ec.message();
        return signalPassFailure();
      }
      out = file.get();
    }
    size_t width = 12;
    for (Row &r : rows)
      width = std::max(width, r.name.size());
    *out << "residency report: @" << func.getSymName() << "\n";
    *out << llvm::left_justify("intermediate", width)
         << "  before    after     global B saved  shared B/block  barriers  rule\n";
    int64_t saved = 0, shared = 0, barriers = 0, kernels = 0;
    for (Row &r : rows) {
      *out << llvm::left_justify(r.name, width) << "  "
           << llvm::left_justify(r.before, 8) << "  "
           << llvm::left_justify(r.after, 8) << "  "
           << llvm::right_justify(std::to_string(r.savedBytes), 14) << "  "
           << llvm::right_justify(std::to_string(r.sharedBytes), 14) << "  "
           << llvm::right_justify(std::to_string(r.barriers), 8) << "  "
           << r.rule << "\n";
      saved += r.savedBytes;
      shared += r.sharedBytes;
      barriers += r.barriers;
    }
    func.walk([&](KernelOp) { ++kernels; });
    *out << "total: " << kernels << " kernel(s), " << saved
         << " global bytes saved, " << shared << " shared bytes, " << barriers
         << " barrier(s)\n";
    markAllAnalysesPreserved();
  }
};
} // namespace
