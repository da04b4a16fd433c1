//===- RowBlocks.cpp - block sizes of row kernels -------------------------===//
//
// A row kernel (softmax, a norm, a row reduction) maps each row to a block, or
// to a warp, and the row's elements over the block's threads. The program
// states the block (`threads(256)`), and for short rows it is too large: a
// row of 1024 f32 over 256 threads gives each thread one 128-bit load, so
// every thread waits on one load at a time and the block's reduction spends
// two barriers on 4 KiB. Measured on the H200 (docs/results/README.md,
// "2026-12-03 (night)"): 16384x1024 f32 softmax 0.0380 ms at threads(256),
// 0.0355 at threads(64); bf16 16384x1024 0.0281 and 0.0207; a warp-per-row
// softmax of 32768x256 f32 0.0218 at 8 rows a block, 0.0207 at 4.
//
// So, before the fusion decides residencies (which depend on the elements
// each thread holds):
//
//   [block, thread]     threads = N / 16, to a power of two, at least 64:
//                       each thread walks 16 elements of its row (four
//                       128-bit loads of f32 in flight, two of bf16). A sum
//                       or product over the row then combines in another
//                       tree (class `tolerance`): only where the cap admits
//                       it. A max or min is the same in any tree: bitwise.
//   [block.warp, lane]  threads = 128: four rows a block instead of eight; a
//                       block retires with its slowest row, and smaller blocks
//                       fill the last wave more evenly. Each row keeps its
//                       warp and lanes: bitwise.
//
// And the other way: a `[block, thread]` row longer than the register budget
// (64 values a thread) times the written block does not stay in registers: the
// fusion keeps the rest in a shared tail, and with 256 threads and ~190 KiB
// of tail one block of 8 warps holds the SM. More threads keep more loads in
// flight: threads = N / budget to a power of two, at most 512. Measured on the
// H200 (docs/results/softmax-threads-grow.txt, softmax-bf16-65536-*.txt):
// 2048x65536 bf16 0.223 ms at threads(256), 0.188 at 512, 0.179 at 1024
// (Triton 0.220); f32 0.321, 0.275, 0.289 (1024 spills 32 B; Triton 0.405).
// A row that fits does not grow: 4096x16384 bf16 0.068 at 256, 0.072 at 512,
// 0.120 at 1024.
//
// Then rows a block: a `[block, thread]` group with many short rows (at
// least 2048 blocks left, R x N <= 4096) takes R <= 4 rows a block, a grid
// dim (the innermost R divides) as `block x seq(R)`: bitwise, and each block
// costs time to launch whatever its work (an empty kernel of 16384 blocks
// takes 13.6 us on an H100): 16384x1024 bf16 softmax 26.66 us at 4 rows a
// block, 27.12 at one
// (docs/results/rows-a-block-16384x1024-h100-session17.txt). A runtime row
// count (the outermost grid dim `?`) never takes the rows -- a block of
// several would need a masked last block -- but a static inner grid dim may,
// its blocks counted as if the count were 1.
//
// A kernel whose block is already what its row asks for is left as written,
// as is every kernel with another shape: tiles, contractions,
// general combiners (their tree is the combiner's business), a row dim of
// runtime extent. Kernels that exchange values are re-blocked together or not
// at all: the fusion merges kernels of one block size only, and re-blocking a
// reduction at a merge is another class. The verifier must accept every new
// block, else the group keeps its own.
//
//===----------------------------------------------------------------------===//

#include "RowBlocks.h"

#include "motif/Analysis/ExecutionScope.h"
#include "motif/Support/ThreadDiagnostics.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::motif;

namespace {

enum class RowForm { Block, Warp };

struct RowKernel {
  RowForm form;
  int64_t rowExtent;
  /// A reduction over the row whose result depends on its tree (a sum or a
  /// product: f32 rounding).
  bool reducesRow;
  /// A max or min over the row: exact, the same in any tree.
  bool reducesExactly = false;
};

/// Whether a reduction with `kind` computes the same bits in any tree:
/// maximumf and minimumf round nothing, are associative and commutative, order
/// -0 below +0 and propagate NaN (the schedule model's maximumOf/minimumOf;
/// PTX max.NaN/min.NaN).
bool anyTreeIsExact(CombinerKind kind) {
  return kind == CombinerKind::Max || kind == CombinerKind::Min;
}

/// The row form of `kernel` when every motif in it is a map or a built-in
/// reduction that maps one dim (the same extent in all) over `thread` with
/// the others over `block`, or over `lane` with one `block.warp`. A map of
/// per-row values, every dim over `block` (a row's mean from its sum, as the
/// linalg importer writes a norm), goes with the `[block, thread]` form: it
/// names no row and reduces nothing.
std::optional<RowKernel> rowKernelOf(KernelOp kernel) {
  std::optional<RowKernel> row;
  bool perRowMaps = false;
  for (Operation &op : kernel.getBodyBlock()) {
    auto motif = dyn_cast<ComputeOpInterface>(op);
    if (!motif)
      continue;
    auto reduce = dyn_cast<ReduceOp>(op);
    if (!isa<MapOp>(op) && !(reduce && reduce.getKind()))
      return std::nullopt;
    if (motif.isTiled())
      return std::nullopt;
    SmallVector<int64_t> extents = motif.getIterationExtents();
    std::optional<unsigned> rowDim;
    int64_t warpDims = 0;
    RowForm form = RowForm::Block;
    for (unsigned d = 0, e = extents.size(); d < e; ++d) {
      switch (motif.getLevel(d)) {
      case Level::Thread:
      case Level::Lane:
        if (rowDim)
          return std::nullopt;
        rowDim = d;
        form =
            motif.getLevel(d) == Level::Thread ? RowForm::Block : RowForm::Warp;
        break;
      case Level::Block:
        break;
      case Level::BlockWarp:
        ++warpDims;
        break;
      default:
        return std::nullopt;
      }
    }
    // (At least one grid dim: a map over `[]` is no per-row value. A grid dim
    // may be the runtime row count.)
    if (!rowDim && isa<MapOp>(op) && warpDims == 0 && !extents.empty()) {
      perRowMaps = true;
      continue;
    }
    if (!rowDim || extents[*rowDim] <= 0)
      return std::nullopt;
    if ((form == RowForm::Block && warpDims != 0) ||
        (form == RowForm::Warp && warpDims != 1))
      return std::nullopt;
    // Only the row may be reduced.
    for (int64_t d : motif.getReductionIterationDims())
      if (d != static_cast<int64_t>(*rowDim))
        return std::nullopt;
    bool exact = reduce && anyTreeIsExact(*reduce.getKind());
    if (row && (row->form != form || row->rowExtent != extents[*rowDim]))
      return std::nullopt;
    if (!row)
      row = RowKernel{form, extents[*rowDim], false};
    row->reducesRow |= reduce && !exact;
    row->reducesExactly |= exact;
  }
  if (row && perRowMaps && row->form != RowForm::Block)
    return std::nullopt;
  // A kernel of per-row maps only: it goes with the rows of the kernels it
  // exchanges values with (row extent 0: any).
  if (!row && perRowMaps)
    return RowKernel{RowForm::Block, 0, false};
  return row;
}

/// Whether `kernel` verifies, its diagnostics kept from the user (a trial).
bool verifiesQuietly(KernelOp kernel) {
  ThreadDiagnosticHandler quiet(kernel.getContext());
  return succeeded(verify(kernel));
}

/// Sets the kernel's block and cluster (> 1: that cluster; 1: none; 0: the
/// one it has); undone (false) when the verifier refuses it.
bool trySetThreads(KernelOp kernel, int64_t threads, int64_t cluster = 0) {
  IntegerAttr old = kernel.getThreadsAttr();
  IntegerAttr oldCluster = kernel.getClusterAttr();
  auto i64 = IntegerType::get(kernel.getContext(), 64);
  kernel.setThreadsAttr(IntegerAttr::get(i64, threads));
  if (cluster > 1)
    kernel.setClusterAttr(IntegerAttr::get(i64, cluster));
  else if (cluster == 1)
    kernel.removeClusterAttr();
  bool ok = verifiesQuietly(kernel);
  if (!ok) {
    kernel.setThreadsAttr(old);
    if (oldCluster)
      kernel.setClusterAttr(oldCluster);
    else
      kernel.removeClusterAttr();
  }
  return ok;
}

/// Gives the `[block, thread]` row group `ks` (rows of `rowExtent`) R rows a
/// block (RowBlocks.h, kMaxRowsPerBlock): one of its grid dims, the innermost
/// that R divides, becomes `block x seq(R)` in every motif. Returns R (1: the
/// group as it was, with `why` set when a larger R was refused); `where`
/// names the grid dim taken.
int64_t applyRowsPerBlock(ArrayRef<KernelOp> ks, int64_t rowExtent,
                          int64_t registerBudget, int64_t minGrid,
                          std::string &why, std::string &where) {
  if (minGrid <= 0)
    return 1;
  // The grid dims of every motif, in iteration order: one list of extents
  // (the lowering numbers grid dims by that order).
  SmallVector<std::pair<Operation *, SmallVector<unsigned>>> gridDims;
  SmallVector<int64_t> grid;
  for (KernelOp k : ks)
    for (Operation &op : k.getBodyBlock()) {
      auto motif = dyn_cast<ComputeOpInterface>(op);
      if (!motif)
        continue;
      SmallVector<int64_t> extents = motif.getIterationExtents();
      SmallVector<unsigned> dims;
      SmallVector<int64_t> ofThis;
      for (unsigned d = 0, e = extents.size(); d < e; ++d)
        if (motif.getLevel(d) == Level::Block) {
          dims.push_back(d);
          ofThis.push_back(extents[d]);
        }
      if (dims.empty() ||
          llvm::any_of(ofThis, [](int64_t e) { return e == 0; }))
        return 1;
      if (!gridDims.empty() && ofThis != grid) {
        why = "the motifs' grids differ";
        return 1;
      }
      grid = ofThis;
      gridDims.push_back({&op, std::move(dims)});
    }
  if (gridDims.empty())
    return 1;
  // The blocks of the grid; with a runtime row count (a dynamic grid dim, the
  // outermost) those of its static dims: the fewest it can have.
  int64_t blocks = 1;
  bool rowCount = false;
  for (int64_t e : grid) {
    if (ShapedType::isDynamic(e))
      rowCount = true;
    else
      blocks *= e;
  }
  // The innermost static grid dim that `r` rows a block divide (-1: none):
  // the row count's dim would need a masked last block.
  auto dimFor = [&](int64_t r) {
    for (int64_t g = static_cast<int64_t>(grid.size()) - 1; g >= 0; --g)
      if (!ShapedType::isDynamic(grid[g]) && grid[g] % r == 0)
        return g;
    return int64_t(-1);
  };
  // Each thread holds its elements of every row of its block: at most
  // kRowElementsPerThread of them (more rows a block raise the registers and
  // cut the loads in flight: docs/residency.md, "Row blocks") and within the
  // register budget.
  int64_t threads = KernelOp(ks.front()).getThreads();
  int64_t perThread = llvm::divideCeil(rowExtent, threads);
  int64_t perThreadCap = registerBudget > 0
                             ? std::min(kRowElementsPerThread, registerBudget)
                             : kRowElementsPerThread;
  auto withinThread = [&](int64_t r) { return r * perThread <= perThreadCap; };
  int64_t r = 1;
  while (2 * r <= kMaxRowsPerBlock && withinThread(2 * r) &&
         2 * r * rowExtent <= kRowsPerBlockElements && dimFor(2 * r) >= 0 &&
         blocks / (2 * r) >= minGrid)
    r *= 2;
  if (r == 1) {
    if (!withinThread(2) && 2 * rowExtent <= kRowsPerBlockElements &&
        dimFor(2) >= 0 && blocks / 2 >= minGrid)
      why = "each of its " + std::to_string(threads) + " threads walks " +
            std::to_string(perThread) + " element(s) of its row; two rows " +
            "would make " + std::to_string(2 * perThread) + ", over " +
            std::to_string(perThreadCap) + " a thread";
    else if (rowCount && grid.size() == 1)
      why = "its grid dim is the row count, known only at launch (a block of "
            "several rows would need a masked last block)";
    else if (rowCount && dimFor(2) >= 0 && blocks / 2 < minGrid)
      why = "the grid's row count is known only at launch, and its static "
            "dims give " +
            std::to_string(blocks) + " block(s), under twice " +
            std::to_string(minGrid) + " (row-block-min-grid)";
    return 1;
  }
  // A cluster's CTAs split the grid dim (docs/lowering.md, "Clusters").
  if (llvm::any_of(ks, [](KernelOp k) { return k.getClusterSize() > 1; })) {
    why = "its cluster's CTAs split the grid";
    return 1;
  }
  int64_t g = dimFor(r);
  MLIRContext *ctx = gridDims.front().first->getContext();
  Attribute nest = TileAttr::get(ctx, {Level::Block, Level::Seq}, {0, r});
  SmallVector<std::pair<Operation *, ArrayAttr>> old;
  for (auto &[op, dims] : gridDims) {
    ArrayAttr mapping = cast<ComputeOpInterface>(op).getMapping();
    old.push_back({op, mapping});
    SmallVector<Attribute> levels(mapping.begin(), mapping.end());
    levels[dims[g]] = nest;
    op->setAttr("mapping", ArrayAttr::get(ctx, levels));
  }
  if (!llvm::all_of(ks, [](KernelOp k) { return verifiesQuietly(k); })) {
    for (auto [op, mapping] : old)
      op->setAttr("mapping", mapping);
    why = "the verifier refuses " + std::to_string(r) + " rows a block";
    return 1;
  }
  where = grid.size() == 1 ? std::string("the grid dim")
                           : "grid dim " + std::to_string(g + 1) + " of " +
                                 std::to_string(grid.size()) + ", " +
                                 std::to_string(grid[g]) + " rows,";
  return r;
}

} // namespace

/// The threads `row` asks for, or 0 when its kernel's `written` block is what
/// it asks for: fewer for a short row, more for a row longer than
/// `registerBudget` elements a thread of the written block.
static int64_t rowThreads(const RowKernel &row, int64_t written,
                          int64_t registerBudget, int64_t maxThreads) {
  if (row.form == RowForm::Block && registerBudget > 0 &&
      written < maxThreads && row.rowExtent > registerBudget * written) {
    int64_t grown = std::min<int64_t>(
        maxThreads, static_cast<int64_t>(llvm::PowerOf2Ceil(
                        llvm::divideCeil(row.rowExtent, registerBudget))));
    return grown > written ? grown : 0;
  }
  int64_t threads =
      row.form == RowForm::Warp
          ? kWarpRowThreads
          : std::max<int64_t>(
                kRowMinThreads,
                static_cast<int64_t>(llvm::PowerOf2Ceil(
                    llvm::divideCeil(row.rowExtent, kRowElementsPerThread))));
  return threads < written ? threads : 0;
}

int64_t mlir::motif::applyRowBlocks(
    func::FuncOp func, Equivalence cap, int64_t registerBudget,
    Equivalence &applied, int64_t clusterThreads, int64_t maxCluster,
    llvm::function_ref<std::string(ArrayRef<KernelOp>)> declineCluster,
    int64_t rowsPerBlockMinGrid) {
  bool clusters = clusterThreads > 0 && maxCluster > 1;
  SmallVector<KernelOp> kernels =
      llvm::to_vector(func.getBody().front().getOps<KernelOp>());
  // Kernels that exchange values, as groups.
  llvm::EquivalenceClasses<Operation *> groups;
  for (KernelOp k : kernels)
    groups.insert(k.getOperation());
  for (KernelOp k : kernels)
    for (Value result : k.getResults())
      for (Operation *user : result.getUsers())
        if (auto reader = user->getParentOfType<KernelOp>())
          groups.unionSets(k.getOperation(), reader.getOperation());
  llvm::MapVector<Operation *, SmallVector<KernelOp>> members;
  for (KernelOp k : kernels)
    members[groups.getLeaderValue(k.getOperation())].push_back(k);

  int64_t count = 0;
  // The threads of a row group (RowBlocks.h); the kernels re-blocked.
  auto reblock = [&](ArrayRef<KernelOp> ks, RowKernel row,
                     int64_t written) -> int64_t {
    int64_t threads =
        rowThreads(row, written, registerBudget,
                   clusters ? kMaxThreadsPerBlock : kRowMaxThreads);
    if (!threads)
      return 0;
    bool blockRows = row.form == RowForm::Block;
    // A grown block of more threads than a cluster's CTA takes: its CTAs.
    int64_t cluster = 1;
    if (clusters && blockRows && threads > written && threads > clusterThreads)
      cluster = std::min(threads / clusterThreads, maxCluster);
    auto describe = [&] {
      return std::string(blockRows ? "one row a block" : "one row a warp") +
             ", rows of " + std::to_string(row.rowExtent) +
             " element(s): threads(" + std::to_string(written) +
             ") -> threads(" + std::to_string(threads) + ")" +
             (cluster > 1 ? " cluster(" + std::to_string(cluster) + ")"
                          : std::string());
    };
    std::string what = describe();
    // The one-CTA growth instead of the cluster (false: none at all).
    auto withoutCluster = [&] {
      cluster = 1;
      threads = rowThreads(row, written, registerBudget, kRowMaxThreads);
      what = describe();
      return threads != 0;
    };
    auto remarkAll = [&](const std::string &text) {
      for (KernelOp k : ks)
        k.emitRemark() << "row blocks: kernel '" << k.getSymName() << "' ("
                       << what << ")"
                       << (rowKernelOf(k)->rowExtent == 0
                               ? ": maps of per-row values, with the rows of "
                                 "the kernels it exchanges values with"
                               : text);
    };
    // [block, thread]: the row's reduction tree changes, which only a sum or
    // a product notices: under a cap below `tolerance` only a group whose
    // reductions are max or min takes the new block. (A group of maps alone
    // keeps its written block there, as before session 27: the table was
    // measured on reductions.) One remark for a declined group, on its first
    // sum's kernel.
    if (blockRows && cap < Equivalence::Tolerance && !row.reducesRow &&
        !row.reducesExactly)
      return 0;
    if (blockRows && cap < Equivalence::Tolerance && row.reducesRow) {
      // Whether a cluster would pay is only asked of a growth the cap
      // admits: the one-CTA growth is named here.
      if (cluster > 1 && declineCluster && !withoutCluster())
        return 0;
      KernelOp first = *llvm::find_if(
          ks, [](KernelOp k) { return rowKernelOf(k)->reducesRow; });
      first.emitRemark()
          << "row blocks: kernel '" << first.getSymName() << "' (" << what
          << (ks.size() > 1 ? ", with the " + std::to_string(ks.size() - 1) +
                                  " kernel(s) it exchanges values with"
                            : std::string())
          << "): declined: the reduction over the row would combine in "
             "another tree (class 'tolerance', above the cap '"
          << stringifyEquivalence(cap) << "')";
      return 0;
    }
    if (cluster > 1 && declineCluster) {
      if (std::string why = declineCluster(ks); !why.empty()) {
        KernelOp first = ks.front();
        first.emitRemark() << "row blocks: kernel '" << first.getSymName()
                           << "'"
                           << (ks.size() > 1
                                   ? " (with the " +
                                         std::to_string(ks.size() - 1) +
                                         " kernel(s) it exchanges values with)"
                                   : std::string())
                           << ": no cluster(" << cluster << ") of CTAs of "
                           << threads / cluster << " threads: " << why;
        if (!withoutCluster())
          return 0;
      }
    }
    SmallVector<KernelOp> done;
    for (KernelOp k : ks) {
      // A cluster the program states stays where the new block still splits
      // into it; else the block runs as one CTA (the same schedule).
      int64_t keep = cluster;
      std::optional<uint64_t> stated = k.getCluster();
      if (keep == 1 && stated)
        keep = clusterShapeError(threads, stated) ? 1 : 0;
      if (!trySetThreads(k, threads, keep))
        break;
      if (stated && keep == 1)
        k.emitRemark() << "row blocks: kernel '" << k.getSymName()
                       << "': its cluster(" << *stated << ") dropped: threads("
                       << threads
                       << ") do not split into that many CTAs of whole "
                          "warps; the block runs as one CTA";
      done.push_back(k);
    }
    if (done.size() != ks.size()) {
      for (KernelOp k : done)
        (void)trySetThreads(k, written, /*cluster=*/1);
      remarkAll(std::string(": declined: the verifier refuses the ") +
                (threads < written ? "smaller" : "larger") + " block");
      return 0;
    }
    if (blockRows)
      remarkAll(": each thread walks " +
                std::to_string(llvm::divideCeil(row.rowExtent, threads)) +
                " element(s) of its row" +
                (cluster > 1
                     ? "; the block runs as a cluster of " +
                           std::to_string(cluster) + " CTAs of " +
                           std::to_string(threads / cluster) +
                           " threads (the same schedule: bitwise to one CTA)"
                     : std::string()) +
                (row.reducesRow ? "; class 'tolerance': the reductions over "
                                  "the rows of these kernels combine in "
                                  "another tree"
                 : row.reducesExactly
                     ? "; bitwise (its reductions are max or min: the same "
                       "in any tree)"
                     : "; bitwise (element-wise only)"));
    else
      remarkAll(": " + std::to_string(threads / kWarpSize) +
                " rows a block; bitwise (each row keeps its warp and lanes)");
    if (blockRows && row.reducesRow && applied < Equivalence::Tolerance)
      applied = Equivalence::Tolerance;
    return static_cast<int64_t>(ks.size());
  };
  for (auto &[leader, ks] : members) {
    // Every member a row kernel of one form and row length, one block size.
    SmallVector<RowKernel> rows;
    for (KernelOp k : ks) {
      std::optional<RowKernel> row = rowKernelOf(k);
      if (!row)
        break;
      rows.push_back(*row);
    }
    if (rows.size() != ks.size())
      continue;
    // The group's row: a member's that names one (a kernel of per-row maps
    // only names none).
    const RowKernel *named =
        llvm::find_if(rows, [](const RowKernel &r) { return r.rowExtent > 0; });
    if (named == rows.end())
      continue;
    int64_t written = ks.front().getThreads();
    if (llvm::any_of(llvm::zip(ks, rows), [&](auto kr) {
          auto [k, r] = kr;
          return static_cast<int64_t>(k.getThreads()) != written ||
                 r.form != named->form ||
                 (r.rowExtent != 0 && r.rowExtent != named->rowExtent);
        }))
      continue;
    RowKernel row = *named;
    for (const RowKernel &r : rows) {
      row.reducesRow |= r.reducesRow;
      row.reducesExactly |= r.reducesExactly;
    }
    int64_t changed = reblock(ks, row, written);
    count += changed;
    if (row.form != RowForm::Block)
      continue;
    // Rows a block, for the group as it now is (bitwise: each row keeps its
    // threads and tree).
    std::string why, where;
    int64_t perBlock = applyRowsPerBlock(ks, row.rowExtent, registerBudget,
                                         rowsPerBlockMinGrid, why, where);
    for (KernelOp k : ks) {
      if (perBlock > 1)
        k.emitRemark() << "row blocks: kernel '" << k.getSymName()
                       << "': " << perBlock << " rows a block (" << where
                       << " as `block x seq(" << perBlock
                       << ")`): " << k.getThreads() << " threads walk "
                       << perBlock << " rows of " << row.rowExtent
                       << " element(s); bitwise (each row keeps its threads "
                          "and tree)";
      else if (!why.empty())
        k.emitRemark() << "row blocks: kernel '" << k.getSymName()
                       << "': one row a block: " << why;
    }
    if (perBlock > 1)
      count += static_cast<int64_t>(ks.size()) - changed;
  }
  return count;
}

int64_t mlir::motif::settleClusters(func::FuncOp func) {
  int64_t kept = 0;
  for (KernelOp k : func.getBody().front().getOps<KernelOp>()) {
    if (!k.getCluster())
      continue;
    auto [op, why] = clusterBlocker(k);
    if (!op) {
      ++kept;
      continue;
    }
    k.emitRemark() << "cluster(" << *k.getCluster() << ") of kernel '"
                   << k.getSymName() << "' dropped: " << why
                   << "; the block runs as one CTA of " << k.getThreads()
                   << " threads (the same schedule)";
    k.removeClusterAttr();
  }
  return kept;
}
