//===- ResidencyReport.cpp - a table of every intermediate's residency ----===//
#include "motif/Analysis/ExecutionScope.h"
#include "motif/Dialect/Motif/Transforms/Passes.h"

#include "llvm/Support/CheckedArithmetic.h"
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

/// The table of one function, or failure (a located error) when a size
/// overflows.
LogicalResult writeTable(func::FuncOp func, llvm::raw_ostream &out) {
  SmallVector<Row> rows;
  WalkResult walked = func.walk([&](MaterializeOp mat) {
    auto kernel = mat->getParentOfType<KernelOp>();
    Row row;
    auto producer = mat.getInput().getDefiningOp<ComputeOpInterface>();
    // Name it by the kernel result it was before fusion, when known.
    auto origin = mat->getAttrOfType<StringAttr>("motif.producer");
    bool tile = !producer && mat.getResidency() == Residency::Shared;
    row.name = ((origin ? origin.getValue() : kernel.getSymName()) + " (" +
                (producer ? producer->getName().stripDialect()
                          : (tile ? "operand tile" : "copy")) +
                ")")
                   .str();
    std::string type;
    llvm::raw_string_ostream os(type);
    os << mat.getType();
    row.name += " " + type;
    auto was = mat->getAttrOfType<ResidencyAttr>("motif.was");
    row.before = was ? stringifyResidency(was.getValue()).str() : "-";
    row.after = stringifyResidency(mat.getResidency()).str();
    // No slots: its readers compute it again (rule 6).
    if (isRecomputed(mat))
      row.after = "recompute";
    if (auto rule = mat->getAttrOfType<StringAttr>("motif.rule"))
      row.rule = rule.getValue().str();
    if (auto saved = mat->getAttrOfType<IntegerAttr>("motif.saved_bytes"))
      row.savedBytes = saved.getInt();
    if (std::optional<int64_t> tail = mat.getSharedTail();
        tail && producer && mat.getResidency() == Residency::Register) {
      // Registers and a shared tail (no barrier: each thread's own region).
      row.after = "reg+tail";
      int64_t slots =
          registerLayoutOf(MotifSchedule(producer, kernel.getThreads())).slots;
      row.sharedBytes =
          tailLayoutOf(slots, *tail, kernel.getCtaThreads(),
                       llvm::divideCeil(mat.getType().getElementTypeBitWidth(),
                                        8))
              .bytes();
      // A tail in an operand's region adds no bytes (the lowering reuses it).
      if (Value donor = tailDonorOf(mat)) {
        row.sharedBytes = 0;
        std::string from = "its operand's";
        if (auto m = donor.getDefiningOp<MaterializeOp>())
          if (auto was = m->getAttrOfType<StringAttr>("motif.producer"))
            from = "the region of " + was.getValue().str();
        row.rule += " [shared tail in " + from + "]";
      }
    }
    if (mat.getResidency() == Residency::Shared) {
      std::string why;
      FailureOr<SharedLayout> tileLayout =
          tile ? stagedLayoutOf(mat, why) : FailureOr<SharedLayout>(failure());
      if (succeeded(tileLayout)) {
        row.sharedBytes = tileLayout->bytes; // a staged operand tile
      } else if (producer) {
        row.sharedBytes = bytesPerBlock(producer, mat.getInput());
      } else {
        // Checked: a wrapped size would print as a wrong (even negative)
        // number.
        auto tensor = cast<RankedTensorType>(mat.getType());
        std::optional<int64_t> bytes =
            llvm::divideCeil(tensor.getElementTypeBitWidth(), 8);
        for (int64_t extent : tensor.getShape())
          if (bytes)
            bytes = llvm::checkedMul(
                *bytes, ShapedType::isDynamic(extent) ? 1 : extent);
        if (!bytes) {
          mat.emitError() << "size of " << mat.getType()
                          << " in bytes overflows a 64-bit integer";
          return WalkResult::interrupt();
        }
        row.sharedBytes = *bytes;
      }
      row.barriers = 1;
    }
    rows.push_back(row);
    return WalkResult::advance();
  });
  if (walked.wasInterrupted())
    return failure();
  // The online contraction stages its own tiles (no materialization says
  // so) and keeps the scores and probabilities in registers.
  func.walk([&](OnlineContractOp op) {
    auto kernel = op->getParentOfType<KernelOp>();
    auto operandName = [&](unsigned k) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << op->getOperand(k).getType();
      return text;
    };
    unsigned k = 0;
    bool mma = op.usesTensorCores();
    for (const OnlineStagedTile &t : op.getStagedTiles()) {
      Row row;
      // The tiles of the three operands, then (with key groups) the
      // partial states that group 0 merges.
      bool ofOperand = k < op->getNumOperands();
      row.name = (kernel.getSymName() + " (online_contract " + t.what + ")" +
                  (ofOperand ? " " + operandName(k++) : std::string()))
                     .str();
      if (!ofOperand) {
        row.before = "register";
        row.after = "shared";
        row.sharedBytes = t.bytes();
        row.barriers = 1;
        row.rule = ("rule 4: the keys split over " +
                    Twine(op.getKeyGroups()) +
                    " groups of threads; groups 1.. leave (acc, m, l) of " +
                    Twine(op.getRowsPerBlock()) +
                    " rows here, " + Twine(t.rowElements - t.pad) +
                    " floats a row padded by " + Twine(t.pad) +
                    " (m and l in the padding), for group 0 to merge")
                       .str();
        rows.push_back(row);
        continue;
      }
      row.before = "global";
      row.after = "shared";
      row.sharedBytes = t.bytes();
      row.barriers = 1;
      std::string stages =
          t.stages == 2
              ? ", 2 stages (cp.async: the next tile lands while this one is "
                "used)"
          : t.stages > 2 ? ", " + std::to_string(t.stages) +
                               " stages (cp.async: the next " +
                               std::to_string(t.stages - 1) +
                               " tiles land while this one is used)"
                         : "";
      std::string perGroup =
          op.getKeyGroups() > 1 && k > 1
              ? " (a tile of " + std::to_string(t.rows / op.getKeyGroups()) +
                    " keys for each of the " +
                    std::to_string(op.getKeyGroups()) + " key groups)"
              : "";
      row.rule = ("rule 4: staged by the flash lowering, " + Twine(t.rows) +
                  " rows" + perGroup + " of " + Twine(t.rowElements - t.pad) +
                  (mma ? " elements per block" : " floats per block") +
                  stages + ", padded by " + Twine(t.pad) +
                  (mma ? " (the eight row addresses of an ldmatrix fall in "
                         "distinct banks)"
                       : " (the quad's 128-bit reads fall in distinct banks)"))
                     .str();
      rows.push_back(row);
    }
    // S and P: per batch index and row, a score and a probability per key.
    SmallVector<int64_t> extents = op.getIterationExtents();
    int64_t rank = cast<RankedTensorType>(op.getResult().getType()).getRank();
    // S in f32, P in f32 or (on tensor cores) the operands' type.
    int64_t pBytes =
        mma ? op.getLhs().getType().getElementType().getIntOrFloatBitWidth() /
                  8
            : 4;
    std::optional<int64_t> bytes = 4 + pBytes;
    for (int64_t d = 0; d < rank; ++d)
      if (d != op.getValueDim() && bytes)
        bytes = llvm::checkedMul(*bytes, extents[d]);
    if (bytes)
      bytes = llvm::checkedMul(*bytes, extents[op.getKeyDim()]);
    Row row;
    row.name = (kernel.getSymName() + " (online_contract scores S, probabilities P)").str();
    row.before = "global";
    row.after = "register";
    row.savedBytes = bytes.value_or(0);
    row.rule = mma ? "rule 4: never stored; S of the current key tile is an "
                     "mma.sync accumulator fragment (a row in the 4 lanes of a "
                     "quad: max and sum by 2 shuffles), P is rounded and "
                     "repacked in place as the A fragment of the P.V mma"
                   : "rule 4: never stored; each thread keeps its rows' "
                     "scores of the current key tile, P reaches the threads "
                     "that multiply it with V by shuffles";
    rows.push_back(row);
  });

  size_t width = 12;
  for (Row &r : rows)
    width = std::max(width, r.name.size());
  out << "residency report: @" << func.getSymName() << "\n";
  out << llvm::left_justify("intermediate", width)
      << "  before    after     global B saved  shared B/block  barriers  rule\n";
  std::optional<int64_t> saved = 0, shared = 0;
  int64_t barriers = 0, kernels = 0;
  for (Row &r : rows) {
    out << llvm::left_justify(r.name, width) << "  "
        << llvm::left_justify(r.before, 8) << "  "
        << llvm::left_justify(r.after, 8) << "  "
        << llvm::right_justify(std::to_string(r.savedBytes), 14) << "  "
        << llvm::right_justify(std::to_string(r.sharedBytes), 14) << "  "
        << llvm::right_justify(std::to_string(r.barriers), 8) << "  "
        << r.rule << "\n";
    if (saved)
      saved = llvm::checkedAdd(*saved, r.savedBytes);
    if (shared)
      shared = llvm::checkedAdd(*shared, r.sharedBytes);
    barriers += r.barriers;
  }
  if (!saved || !shared)
    return func.emitError() << "residency report of @" << func.getSymName()
                            << ": the byte totals overflow a 64-bit integer";
  func.walk([&](KernelOp) { ++kernels; });
  // With a runtime row count the global figures are per row.
  FunctionType type = func.getFunctionType();
  bool perRow = llvm::any_of(
      llvm::concat<const Type>(type.getInputs(), type.getResults()),
      hasDynamicRows);
  out << "total: " << kernels << " kernel(s), " << *saved
      << (perRow ? " global bytes saved per row (the row count is known at "
                   "launch), "
                 : " global bytes saved, ")
      << *shared << " shared bytes, " << barriers << " barrier(s)\n";
  // Rewrites that changed the program's reductions (rule 4), in order.
  func.walk([&](Operation *op) {
    if (auto text = op->getAttrOfType<StringAttr>("motif.rewrite"))
      out << "rewrite: " << text.getValue() << "\n";
  });
  return success();
}

/// A module pass: the tables of all functions are built in program order on
/// one thread and written in one piece (as a func.func pass, functions ran
/// in parallel and their tables interleaved on the shared stream).
struct ResidencyReportPass
    : public motif::impl::MotifResidencyReportBase<ResidencyReportPass> {
  using MotifResidencyReportBase::MotifResidencyReportBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string tables;
    llvm::raw_string_ostream tablesStream(tables);
    WalkResult walked = module.walk([&](func::FuncOp func) {
      return failed(writeTable(func, tablesStream)) ? WalkResult::interrupt()
                                                    : WalkResult::advance();
    });
    if (walked.wasInterrupted())
      return signalPassFailure();

    if (output == "-") {
      llvm::outs() << tables;
      llvm::outs().flush();
    } else {
      std::error_code ec;
      llvm::raw_fd_ostream file(output, ec, llvm::sys::fs::OF_Append);
      if (ec) {
        module.emitError() << "motif-residency-report: cannot open output='"
                           << output << "': " << ec.message();
        return signalPassFailure();
      }
      file << tables;
      file.close();
      if (file.has_error()) {
        module.emitError() << "motif-residency-report: cannot write output='"
                           << output << "': " << file.error().message();
        file.clear_error();
        return signalPassFailure();
      }
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
