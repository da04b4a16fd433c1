//===- StageOperands.cpp - operand tiles as a residency decision ----------===//
//
// Rule 3 applied to the operands of tiled motifs: a tile of an input that
// the threads of a block read many times is loaded once into shared memory
// by the whole block (docs/residency.md, "Operand tiles"). The meaning of a
// staged tile -- which box each block holds, one step of a reduction loop at
// a time for a register-blocked contraction -- is the schedule model's
// (stagedLayoutOf); this file only decides.
//
//===----------------------------------------------------------------------===//
#include "StageOperands.h"

#include "motif/Analysis/Schedule.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::motif;

/// Instances of `s` one block runs: each reads one element of every operand.
static int64_t instancesPerBlock(const MotifSchedule &s) {
  int64_t n = 1;
  for (const DimSchedule &d : s.getDims()) {
    int64_t e = d.extent;
    if (d.blockTile())
      e = d.blockTile();
    else if (d.isGrid())
      e = d.level == Level::BlockWarp ? s.getBlock().warps : 1;
    n = std::min<int64_t>(n * e, kMaxIterationInstances);
  }
  return n;
}

/// Whether consecutive threads of the reader walk the operand's innermost
/// dim (global reads along rows, coalesced).
static bool readsAlongRows(const MotifSchedule &s, unsigned operand) {
  ArrayRef<int64_t> dims = s.getOperandDims(operand);
  if (dims.empty())
    return true;
  const DimSchedule &inner = s.getDim(dims.back());
  if (!inner.isTiled())
    return inner.level == Level::Thread || inner.level == Level::Lane;
  for (const SubLevel &l : inner.nest)
    if (l.level == Level::Thread && l.digitStride == 1 && l.size > 1)
      return true;
  // No thread walks the innermost dim fast; reads along it are still
  // along rows when no thread level of the motif varies faster elsewhere.
  for (unsigned d = 0, e = s.getDims().size(); d < e; ++d)
    for (const SubLevel &l : s.getDim(d).nest)
      if (l.level == Level::Thread && l.digitStride == 1 && l.size > 1)
        return false;
  return true;
}

static std::string shapeText(ArrayRef<int64_t> shape) {
  std::string s;
  for (auto [i, e] : llvm::enumerate(shape))
    s += (i ? "x" : "") + std::to_string(e);
  return s.empty() ? "1" : s;
}

/// Shared bytes the kernel keeps already: shared materializations (values
/// and staged tiles) and cross-warp scratch.
static int64_t sharedBytesOf(KernelOp kernel) {
  int64_t bytes = 0;
  for (Operation &op : kernel.getBodyBlock()) {
    if (auto motif = dyn_cast<ComputeOpInterface>(op)) {
      bytes += scratchBytesOf(MotifSchedule(motif));
      continue;
    }
    auto mat = dyn_cast<MaterializeOp>(op);
    if (!mat || mat.getResidency() != Residency::Shared)
      continue;
    std::string why;
    if (ComputeOpInterface producer = producerOf(mat)) {
      bytes += sharedLayoutOf(MotifSchedule(producer),
                              mat.getType().getElementType())
                   .bytes;
    } else if (FailureOr<SharedLayout> tile = stagedLayoutOf(mat, why);
               succeeded(tile)) {
      bytes += tile->bytes;
    }
  }
  return bytes;
}

llvm::MapVector<Value, SmallVector<OpOperand *>>
mlir::motif::readsFromOutside(KernelOp kernel) {
  llvm::MapVector<Value, SmallVector<OpOperand *>> reads;
  for (Operation &op : kernel.getBodyBlock())
    if (isa<ComputeOpInterface>(op))
      for (OpOperand &use : op.getOpOperands())
        if (!kernel->isAncestor(use.get().getParentBlock()->getParentOp()))
          reads[use.get()].push_back(&use);
  return reads;
}

std::string mlir::motif::nameOfKernelInput(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return "argument #" + std::to_string(arg.getArgNumber());
  if (auto producer = value.getDefiningOp<KernelOp>())
    return "'" + producer.getSymName().str() + "'#" +
           std::to_string(cast<OpResult>(value).getResultNumber());
  return "a value";
}

int64_t mlir::motif::stageOperandTiles(KernelOp kernel, RewriterBase &rewriter,
                                       int64_t sharedBudget) {
  MLIRContext *ctx = kernel.getContext();
  llvm::MapVector<Value, SmallVector<OpOperand *>> reads =
      readsFromOutside(kernel);
  int64_t staged = 0;
  for (auto &[value, uses] : reads) {
    // Operand tiles belong to tiled motifs; untiled ones read global memory
    // as their mapping says.
    if (!llvm::all_of(uses, [](OpOperand *u) {
          return cast<ComputeOpInterface>(u->getOwner()).isTiled();
        }))
      continue;
    // The online contraction stages its query, key and value tiles itself
    // (its lowering owns that loop); a staged operand would be a second copy.
    if (llvm::any_of(uses, [](OpOperand *u) {
          return isa<OnlineContractOp>(u->getOwner());
        }))
      continue;
    auto type = cast<RankedTensorType>(value.getType());
    std::string name = nameOfKernelInput(value);
    std::string head;
    llvm::raw_string_ostream hs(head);
    hs << "kernel '" << kernel.getSymName() << "': " << name << " (" << type
       << ")";
    auto decline = [&](const Twine &why) {
      kernel.emitRemark() << head << " stays global (operand tile not "
                                     "staged: "
                          << why << ")";
    };

    auto reader = cast<ComputeOpInterface>(uses.front()->getOwner());
    MotifSchedule first(reader);
    bool steps = uses.size() == 1 && isRegisterBlocked(first);
    std::string why;
    FailureOr<SharedLayout> layout =
        stagedLayoutOf(first, uses.front()->getOperandNumber(),
                       type.getElementType(), why, steps);
    if (failed(layout)) {
      decline(why);
      continue;
    }
    bool same = true;
    for (OpOperand *use : ArrayRef<OpOperand *>(uses).drop_front()) {
      FailureOr<SharedLayout> other = stagedLayoutOf(
          MotifSchedule(cast<ComputeOpInterface>(use->getOwner())),
          use->getOperandNumber(), type.getElementType(), why, false);
      same &= succeeded(other) && sameStagedBox(*layout, *other);
    }
    if (!same) {
      decline("its readers read different tiles of it per block");
      continue;
    }
    // Reads of the tile per block over its elements (per step alike).
    int64_t boxElements = 1;
    for (int64_t e : layout->shape)
      boxElements *= e;
    int64_t reads = 0;
    for (OpOperand *use : uses)
      reads += instancesPerBlock(
          MotifSchedule(cast<ComputeOpInterface>(use->getOwner())));
    int64_t steppedBy = 1;
    if (layout->steppedDim >= 0) {
      int64_t d = first.getOperandDims(uses.front()->getOperandNumber())
                      [layout->steppedDim];
      steppedBy = first.getDim(d).nest.front().size;
    }
    int64_t reuse = reads / std::max<int64_t>(1, boxElements * steppedBy);
    bool alongRows = readsAlongRows(first, uses.front()->getOperandNumber());
    // Threads that read one element: the thread levels of dims that do not
    // index the operand (the readers' sized thread levels split the block).
    int64_t readersPerElement = 1;
    for (OpOperand *use : uses) {
      auto op = cast<ComputeOpInterface>(use->getOwner());
      SmallVector<int64_t> dims = op.getOperandIterationDims(
          use->getOperandNumber());
      MotifSchedule s(op);
      int64_t n = 1;
      for (unsigned d = 0, e = s.getDims().size(); d < e; ++d)
        if (!llvm::is_contained(dims, static_cast<int64_t>(d)))
          for (const SubLevel &l : s.getDim(d).nest)
            if (l.level == Level::Thread)
              n *= l.size;
      readersPerElement = std::max(readersPerElement, n);
    }
    bool coalesce = !alongRows && type.getRank() >= 2;
    if (readersPerElement <= 1 && !coalesce) {
      if (reuse > 1)
        decline(Twine("one thread reads each element, ") + Twine(reuse) +
                " times: it keeps it in registers across its run (register "
                "blocking), no other thread needs it");
      else
        decline("the block reads each element once, by consecutive threads "
                "along its rows: nothing to reuse or coalesce");
      continue;
    }
    int64_t used = sharedBytesOf(kernel);
    if (used + layout->bytes > sharedBudget) {
      decline(Twine("rule 5: its ") + shapeText(layout->shape) +
              " tile takes " + Twine(layout->bytes) +
              " shared bytes per block, over the budget (" +
              Twine(sharedBudget) + ", " + Twine(used) +
              " in use); the mapping fixes the tile, a smaller tile nest "
              "would fit");
      continue;
    }

    std::string rule;
    llvm::raw_string_ostream rs(rule);
    rs << "operand tile " << shapeText(layout->shape) << " per block";
    if (layout->steppedDim >= 0)
      rs << " per step of the reduction loop (" << steppedBy << " steps)";
    rs << ", " << layout->bytes << " B; ";
    if (readersPerElement > 1)
      rs << "each element read by " << readersPerElement << " threads, "
         << reuse << " times in all";
    else
      rs << "the block's threads read it down its columns; staged along its "
            "rows (coalesced)";
    rs << "; ";
    if (layout->stages > 1 && layout->xorChunks)
      rs << layout->stages << " stages (cp.async pipeline), 16-byte chunks "
         << "XOR-swizzled within each 128-byte line (tensor cores: each "
            "ldmatrix row in its own banks)";
    else if (layout->stages > 1 && layout->pad)
      rs << layout->stages << " stages (cp.async pipeline), rows padded by "
         << layout->pad * layout->elementBytes
         << " bytes (tensor cores: each ldmatrix row in its own banks)";
    else if (layout->stages > 1)
      rs << layout->stages << " stages (cp.async pipeline), rows of an odd "
         << "number of 16-byte chunks, unpadded (tensor cores: each ldmatrix "
            "row in its own banks)";
    else
      rs << (layout->pad ? "rows padded by one word (the readers walk a "
                           "column: no bank conflicts)"
                         : "no padding (the readers walk its rows)");
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&kernel.getBodyBlock());
    auto mat = MaterializeOp::create(rewriter, kernel.getLoc(), type, value,
                                     Residency::Shared, /*observable=*/false);
    mat->setAttr("motif.was", ResidencyAttr::get(ctx, Residency::Global));
    mat->setAttr("motif.rule", StringAttr::get(ctx, "rule 3: " + rule));
    mat->setAttr("motif.producer", StringAttr::get(ctx, "input " + name));
    // Global reads saved, every block: every read but the staging copy's.
    int64_t blocks = 1;
    for (int64_t g : first.getGridExtents())
      blocks *= ShapedType::isDynamic(g) ? 1 : g; // per row of a row count
    int64_t saved = (reads - boxElements * steppedBy) * blocks *
                    llvm::divideCeil(type.getElementTypeBitWidth(), 8);
    mat->setAttr("motif.saved_bytes",
                 IntegerAttr::get(IntegerType::get(ctx, 64),
                                  std::max<int64_t>(saved, 0)));
    for (OpOperand *use : uses)
      rewriter.modifyOpInPlace(use->getOwner(),
                               [&] { use->set(mat.getResult()); });
    kernel.emitRemark() << head << ": global -> shared (rule 3: " << rule
                        << ")";
    ++staged;
  }
  return staged;
}
