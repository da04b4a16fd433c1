//===- ScheduleEvaluator.cpp - execute a motif program's mapping ----------===//
//
// The schedule-faithful model (docs/evaluator.md): a function runs kernel by
// kernel and block by block; inside a block every thread walks the instances
// the schedule model (motif/Analysis/Schedule.h) gives it, keeps register
// values in its own slots, reads and writes the block's shared buffers in the
// producer's layout, and stores to global memory only where it owns the
// element. Reductions fold in the thread's instance order, then combine
// across lanes by the butterfly and across warps in warp order, each lane
// computing combine(own, other), exactly the tree the lowering emits.
//
// So an illegal residency (a register slot another thread computed, a shared
// buffer another block wrote, an element nobody stored) computes what the
// GPU would, and a re-blocked reduction changes its bits here as it does
// there. Threads whose used coordinates agree compute the same values and
// are simulated once (ThreadCoords::representative).
//
//===----------------------------------------------------------------------===//

#include "motif/Analysis/Schedule.h"
#include "motif/Dialect/Motif/IR/TensorCore.h"
#include "motif/Evaluator/Evaluator.h"
#include "motif/Evaluator/ScalarProgram.h"
#include "OnlineContract.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <functional>
#include <limits>
#include <memory>

using namespace mlir;
using namespace mlir::motif;

namespace {

constexpr double kUnset = std::numeric_limits<double>::quiet_NaN();

/// Row-major strides of `shape`.
SmallVector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> s(shape.size(), 1);
  for (int64_t k = static_cast<int64_t>(shape.size()) - 2; k >= 0; --k)
    s[k] = s[k + 1] * shape[k + 1];
  return s;
}

int64_t linearize(ArrayRef<int64_t> idx, ArrayRef<int64_t> strides) {
  int64_t l = 0;
  for (auto [i, s] : llvm::zip(idx, strides))
    l += i * s;
  return l;
}

/// One kernel output in global memory, with the elements stored so far.
struct GlobalOut {
  Buffer buffer;
  std::vector<bool> written;
  SmallVector<int64_t> strides;
};

/// A register value of one block: slots per representative thread.
struct RegisterFile {
  ThreadCoords key;
  RegisterLayout layout;
  /// Representative tid -> index into `slots` (in units of layout.slots).
  DenseMap<int64_t, int64_t> repIndex;
  std::vector<double> slots;

  double *at(int64_t tid, int64_t slot) {
    auto it = repIndex.find(key.representative(tid));
    if (it == repIndex.end() || slot < 0 || slot >= layout.slots)
      return nullptr;
    return &slots[it->second * layout.slots + slot];
  }
};

/// A shared buffer of one block.
struct SharedBuffer {
  SharedLayout layout;
  SmallVector<int64_t> strides;
  std::vector<double> data;

  double *at(ArrayRef<int64_t> bufferIndex) {
    for (auto [i, e] : llvm::zip(bufferIndex, layout.shape))
      if (i < 0 || i >= e)
        return nullptr;
    return &data[linearize(bufferIndex, strides)];
  }
};

/// A partial of a reduction: the state, and whether it folded an element.
struct Partial {
  SmallVector<double, 2> values;
  bool valid = false;
};

class ScheduleEvaluator {
public:
  ScheduleEvaluator(NumericMode mode, int64_t workLimit)
      : mode(mode), workLimit(workLimit) {}

  FailureOr<SmallVector<Buffer>> run(func::FuncOp func, ArrayRef<Buffer> inputs,
                                     SmallVectorImpl<int64_t> *unwritten);

private:
  LogicalResult evalKernel(KernelOp kernel);
  LogicalResult evalMotif(ComputeOpInterface op);
  LogicalResult prepare(ComputeOpInterface op);
  /// A tensor from outside the kernel staged in shared memory: this block's
  /// box of it (stagedLayoutOf), loaded before its readers run.
  LogicalResult stage(MaterializeOp mat);

  /// Operand `i` of the motif being simulated, for thread `tid` at `point`
  /// (per iteration dim) with instance numbers `k`.
  double load(unsigned i, int64_t tid, ArrayRef<int64_t> point,
              ArrayRef<int64_t> k);
  void store(unsigned result, int64_t tid, ArrayRef<int64_t> point,
             ArrayRef<int64_t> k, bool active, double value);
  SmallVector<double, 2> combine(ArrayRef<double> a, ArrayRef<double> b);
  Partial treeCombine(const Partial &a, const Partial &b, bool flagged);

  NumericMode mode;
  int64_t workLimit;
  int64_t work = 0;
  DenseMap<Value, std::shared_ptr<const Buffer>> globals;

  // The kernel being run.
  KernelOp kernel;
  BlockShape block;
  SmallVector<int64_t> grid, blockCoords;
  DenseMap<Value, std::unique_ptr<GlobalOut>> outputs; // global mat -> out
  DenseMap<Value, RegisterFile> registers;             // per block
  DenseMap<Value, SharedBuffer> shared;                // per block
  DenseMap<Operation *, std::unique_ptr<ScalarProgram>> programs;

  // The motif being simulated.
  std::optional<MotifSchedule> schedule;
  Operation *current = nullptr;
  /// Per result: its materializations (chains included).
  SmallVector<SmallVector<MaterializeOp>> destinations;
};

} // namespace

static void collectMaterializations(Value v, SmallVectorImpl<MaterializeOp> &out) {
  for (Operation *user : v.getUsers())
    if (auto mat = dyn_cast<MaterializeOp>(user)) {
      out.push_back(mat);
      collectMaterializations(mat.getResult(), out);
    }
}

static LogicalResult checkStatic(Operation *op, Type t, StringRef what) {
  auto tensor = dyn_cast<RankedTensorType>(t);
  Type element = tensor ? tensor.getElementType() : Type();
  if (!tensor || !tensor.hasStaticShape() ||
      !isTensorElementType(element))
    return op->emitOpError() << what << " has type " << t
                             << "; the evaluator supports static f32, f16 "
                                "and bf16 tensors only";
  return success();
}

FailureOr<SmallVector<Buffer>>
ScheduleEvaluator::run(func::FuncOp func, ArrayRef<Buffer> inputs,
                       SmallVectorImpl<int64_t> *unwritten) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return func.emitOpError() << "has no straight-line body to evaluate";
  if (inputs.size() != func.getNumArguments())
    return func.emitOpError() << "takes " << func.getNumArguments()
                              << " arguments but the evaluator was given "
                              << inputs.size();
  for (auto [i, arg] : llvm::enumerate(func.getArguments())) {
    if (failed(checkStatic(func, arg.getType(),
                           "argument #" + std::to_string(i))))
      return failure();
    auto bound = std::make_shared<Buffer>(inputs[i]);
    Type element = cast<RankedTensorType>(arg.getType()).getElementType();
    for (double &v : bound->data)
      v = roundInput(v, mode, element);
    globals[arg] = std::move(bound);
  }
  DenseMap<Value, int64_t> unwrittenOf;
  for (Operation &op : func.getBody().front()) {
    if (auto k = dyn_cast<KernelOp>(op)) {
      if (failed(evalKernel(k)))
        return failure();
      for (auto [r, v] : llvm::zip(k.getResults(), k.getYield().getValues())) {
        std::unique_ptr<GlobalOut> &out = outputs[v];
        int64_t missing = llvm::count(out->written, false);
        unwrittenOf[r] = missing;
        globals[r] = std::make_shared<Buffer>(std::move(out->buffer));
      }
      outputs.clear();
      continue;
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      SmallVector<Buffer> results;
      for (Value v : ret.getOperands()) {
        if (!globals.count(v))
          return ret.emitOpError()
                 << "returns a value no kernel computes (the evaluator "
                    "returns kernel results)";
        results.push_back(*globals.lookup(v));
        if (unwritten)
          unwritten->push_back(unwrittenOf.lookup(v));
      }
      return results;
    }
    return op.emitOpError() << "is not supported at function level by the "
                               "motif evaluator (only motif.kernel and "
                               "func.return)";
  }
  return func.emitOpError() << "has no func.return";
}

LogicalResult ScheduleEvaluator::evalKernel(KernelOp k) {
  kernel = k;
  block = BlockShape::of(k.getThreads());
  grid.clear();
  for (Operation &op : k.getBodyBlock())
    if (auto motif = dyn_cast<ComputeOpInterface>(op)) {
      grid = MotifSchedule(motif, k.getThreads()).getGridExtents();
      break;
    }
  for (Value v : k.getYield().getValues()) {
    auto out = std::make_unique<GlobalOut>();
    out->buffer.shape = llvm::to_vector(cast<RankedTensorType>(v.getType()).getShape());
    out->buffer.data.assign(out->buffer.getNumElements(), kUnset);
    out->written.assign(out->buffer.data.size(), false);
    out->strides = stridesOf(out->buffer.shape);
    outputs[v] = std::move(out);
  }
  for (Operation &op : k.getBodyBlock()) {
    if (isa<MaterializeOp, YieldOp>(op))
      continue;
    if (!isa<ComputeOpInterface>(op))
      return op.emitOpError()
             << "is not supported inside motif.kernel by the motif evaluator";
    for (auto [i, v] : llvm::enumerate(op.getOperands()))
      if (failed(checkStatic(&op, v.getType(), "operand #" + std::to_string(i))))
        return failure();
    for (auto [i, v] : llvm::enumerate(op.getResults()))
      if (failed(checkStatic(&op, v.getType(), "result #" + std::to_string(i))))
        return failure();
    Region *body = nullptr;
    if (auto map = dyn_cast<MapOp>(op))
      body = &map.getBody();
    if (auto red = dyn_cast<ReduceOp>(op))
      if (!red.getKind())
        body = &red.getCombiner();
    if (body) {
      FailureOr<ScalarProgram> p = ScalarProgram::compile(*body, mode);
      if (failed(p))
        return failure();
      programs[&op] = std::make_unique<ScalarProgram>(std::move(*p));
    }
  }

  // Copies of values from outside the kernel: every element once.
  for (Operation &op : k.getBodyBlock())
    if (auto mat = dyn_cast<MaterializeOp>(op))
      if (mat.getResidency() == Residency::Global && !producerOf(mat)) {
        auto it = globals.find(mat.getInput());
        if (it == globals.end())
          return mat.emitOpError() << "copies a value the evaluator does not "
                                      "have";
        GlobalOut &out = *outputs[mat.getResult()];
        out.buffer.data = it->second->data;
        out.written.assign(out.written.size(), true);
      }

  int64_t blocks = 1;
  for (int64_t g : grid)
    blocks *= g;
  blockCoords.assign(grid.size(), 0);
  for (int64_t b = 0; b < blocks; ++b) {
    int64_t rest = b;
    for (int64_t g = static_cast<int64_t>(grid.size()) - 1; g >= 0; --g) {
      blockCoords[g] = rest % grid[g];
      rest /= grid[g];
    }
    registers.clear();
    shared.clear();
    for (Operation &op : k.getBodyBlock()) {
      if (auto mat = dyn_cast<MaterializeOp>(op))
        if (mat.getResidency() == Residency::Shared && !producerOf(mat) &&
            failed(stage(mat)))
          return failure();
      if (auto motif = dyn_cast<ComputeOpInterface>(op))
        if (failed(evalMotif(motif)))
          return failure();
    }
  }
  programs.clear();
  return success();
}

LogicalResult ScheduleEvaluator::stage(MaterializeOp mat) {
  // The box of this block, as the first reader's layout says (the lowering
  // checked that every reader reads the same one).
  auto g = globals.find(mat.getInput());
  OpOperand *use = nullptr;
  for (OpOperand &u : mat.getResult().getUses())
    if (isa<ComputeOpInterface>(u.getOwner()) && !use)
      use = &u;
  if (g == globals.end() || !use)
    return mat.emitOpError() << "stages a value the evaluator does not have";
  std::string why;
  FailureOr<SharedLayout> layout = stagedLayoutOf(
      MotifSchedule(cast<ComputeOpInterface>(use->getOwner()), block.threads),
      use->getOperandNumber(), mat.getType().getElementType(), why);
  if (failed(layout))
    return mat.emitOpError() << "cannot stage this tensor: " << why;
  SharedBuffer buf;
  buf.layout = *layout;
  buf.strides = stridesOf(buf.layout.shape);
  int64_t n = 1;
  for (int64_t e : buf.layout.shape)
    n *= e;
  buf.data.assign(n, kUnset);
  const Buffer &src = *g->second;
  SmallVector<int64_t> srcStrides = stridesOf(src.shape);
  SmallVector<int64_t> bufIdx(buf.layout.shape.size(), 0);
  for (int64_t e = 0; e < n; ++e) {
    // Buffer coordinates of element e, row-major; then the tensor index.
    int64_t rest = e;
    for (int64_t a = static_cast<int64_t>(bufIdx.size()) - 1; a >= 0; --a) {
      bufIdx[a] = rest % buf.layout.shape[a];
      rest /= buf.layout.shape[a];
    }
    SmallVector<int64_t> idx;
    unsigned b = 0;
    for (auto [a, kind] : llvm::enumerate(buf.layout.kinds)) {
      int64_t pos = buf.layout.gridPos[a];
      int64_t blockCoord = pos >= 0 ? blockCoords[pos] : 0;
      if (kind == SharedLayout::DimKind::Block) {
        idx.push_back(blockCoord);
        continue;
      }
      // The last block of a partial tile nest: rows past the extent repeat
      // the last one, as the lowering's staged copies clamp them (only
      // masked instances read them).
      idx.push_back(std::min(blockCoord * buf.layout.tiles[a] + bufIdx[b++],
                             src.shape[a] - 1));
    }
    buf.data[e] = src.data[linearize(idx, srcStrides)];
  }
  shared[mat.getResult()] = std::move(buf);
  return success();
}

LogicalResult ScheduleEvaluator::prepare(ComputeOpInterface op) {
  current = op.getOperation();
  schedule.emplace(op, block.threads);
  destinations.clear();
  for (Value r : current->getResults()) {
    destinations.emplace_back();
    collectMaterializations(r, destinations.back());
  }
  return success();
}

double ScheduleEvaluator::load(unsigned i, int64_t tid, ArrayRef<int64_t> point,
                               ArrayRef<int64_t> k) {
  Value v = current->getOperand(i);
  ArrayRef<int64_t> dims = schedule->getOperandDims(i);
  // Out-of-bounds instances are inactive; they load clamped indices.
  auto clamped = [&](int64_t d) {
    return std::min(point[d], schedule->getDim(d).extent - 1);
  };
  auto g = globals.find(v);
  if (g != globals.end()) {
    // Row-major, by Horner's rule: the hottest path of the evaluator, so no
    // index or stride vectors.
    const Buffer &buf = *g->second;
    int64_t l = 0;
    for (auto [extent, d] : llvm::zip_equal(buf.shape, dims))
      l = l * extent + clamped(d);
    return buf.data[l];
  }
  auto s = shared.find(v);
  if (s != shared.end()) {
    SmallVector<int64_t> valueIndex;
    for (int64_t d : dims)
      valueIndex.push_back(clamped(d));
    double *p = s->second.at(
        s->second.layout.bufferIndex(valueIndex, block.warpOf(tid)));
    return p ? *p : kUnset;
  }
  auto r = registers.find(v);
  if (r != registers.end()) {
    SmallVector<int64_t> kk;
    for (int64_t d : dims)
      kk.push_back(k[d]);
    for (auto [c, x] : llvm::zip(r->second.layout.counts, kk))
      if (c > 1 && x >= c)
        return kUnset; // a slot this thread never computed
    double *p = r->second.at(tid, r->second.layout.slotOf(kk));
    return p ? *p : kUnset;
  }
  return kUnset;
}

void ScheduleEvaluator::store(unsigned result, int64_t tid,
                              ArrayRef<int64_t> point, ArrayRef<int64_t> k,
                              bool active, double value) {
  ArrayRef<int64_t> resultDims = schedule->getResultDims();
  for (MaterializeOp mat : destinations[result]) {
    Value key = mat.getResult();
    switch (mat.getResidency()) {
    case Residency::Register: {
      SmallVector<int64_t> kk;
      for (int64_t d : resultDims)
        kk.push_back(k[d]);
      RegisterFile &file = registers[key];
      if (double *p = file.at(tid, file.layout.slotOf(kk)))
        *p = value;
      break;
    }
    case Residency::Shared: {
      if (!active || !schedule->isStoreOwner(tid))
        break;
      SmallVector<int64_t> valueIndex;
      for (int64_t d : resultDims)
        valueIndex.push_back(point[d]);
      SharedBuffer &buf = shared[key];
      if (double *p =
              buf.at(buf.layout.bufferIndex(valueIndex, block.warpOf(tid))))
        *p = value;
      break;
    }
    case Residency::Global: {
      if (!active || !schedule->isStoreOwner(tid))
        break;
      auto it = outputs.find(key);
      if (it == outputs.end())
        break;
      GlobalOut &out = *it->second;
      SmallVector<int64_t> idx;
      for (int64_t d : resultDims)
        idx.push_back(point[d]);
      int64_t l = linearize(idx, out.strides);
      out.buffer.data[l] = value;
      out.written[l] = true;
      break;
    }
    }
  }
}

SmallVector<double, 2> ScheduleEvaluator::combine(ArrayRef<double> a,
                                                  ArrayRef<double> b) {
  auto apply = [&](auto acc, auto x, CombinerKind kind) -> double {
    switch (kind) {
    case CombinerKind::Add:
      return acc + x;
    case CombinerKind::Mul:
      return acc * x;
    case CombinerKind::Max:
      return maximumOf(acc, x);
    case CombinerKind::Min:
      return minimumOf(acc, x);
    }
    llvm_unreachable("unknown combiner");
  };
  if (isa<ContractOp>(current)) {
    if (mode == NumericMode::F32)
      return {static_cast<float>(a[0]) + static_cast<float>(b[0])};
    return {a[0] + b[0]};
  }
  auto red = cast<ReduceOp>(current);
  if (std::optional<CombinerKind> kind = red.getKind()) {
    if (mode == NumericMode::F32)
      return {apply(static_cast<float>(a[0]), static_cast<float>(b[0]), *kind)};
    return {apply(a[0], b[0], *kind)};
  }
  ScalarProgram &p = *programs.find(current)->second;
  SmallVector<double, 4> args(a.begin(), a.end());
  args.append(b.begin(), b.end());
  SmallVector<double, 2> out(a.size());
  p.run(args, out);
  for (double &v : out)
    v = roundStored(v, mode);
  return out;
}

Partial ScheduleEvaluator::treeCombine(const Partial &a, const Partial &b,
                                       bool flagged) {
  if (!flagged || (a.valid && b.valid))
    return {combine(a.values, b.values), a.valid || b.valid};
  return b.valid ? b : a;
}

LogicalResult ScheduleEvaluator::evalMotif(ComputeOpInterface op) {
  if (failed(prepare(op)))
    return failure();
  const MotifSchedule &s = *schedule;
  ArrayRef<DimSchedule> dims = s.getDims();
  ArrayRef<int64_t> resultDims = s.getResultDims();
  ArrayRef<int64_t> reducedDims = s.getReducedDims();
  bool isReduction = isa<ReduceOp, ContractOp>(current);

  // Which threads differ: the motif's own coordinates, and those of the
  // register values it reads (a thread reads its own slots).
  ThreadCoords key = s.usedCoords();
  for (Value v : current->getOperands()) {
    auto it = registers.find(v);
    if (it != registers.end())
      key = key | it->second.key;
  }
  SmallVector<int64_t> reps;
  DenseMap<int64_t, int64_t> repIndex;
  for (int64_t t = 0; t < block.threads; ++t) {
    int64_t r = key.representative(t);
    if (repIndex.try_emplace(r, reps.size()).second)
      reps.push_back(r);
  }

  // Destinations of this block.
  for (auto [r, mats] : llvm::enumerate(destinations))
    for (MaterializeOp mat : mats) {
      auto type = cast<RankedTensorType>(mat.getType());
      if (mat.getResidency() == Residency::Register) {
        RegisterFile file;
        file.key = key;
        file.layout = registerLayoutOf(s);
        // A constant map keeps no slots in the lowering (constantOf), nor
        // does a recomputed value (its readers compute what they read: the
        // same bits, so the evaluator keeps the values it computed).
        if (file.layout.slots > kMaxRegisterSlots && !constantOf(op) &&
            !isRecomputed(mat))
          return mat.emitOpError() << "keeps " << file.layout.slots
                                   << " elements per thread in registers "
                                      "(the lowering unrolls at most "
                                   << kMaxRegisterSlots << ")";
        file.repIndex = repIndex;
        file.slots.assign(reps.size() * file.layout.slots, kUnset);
        registers[mat.getResult()] = std::move(file);
      } else if (mat.getResidency() == Residency::Shared) {
        SharedBuffer buf;
        buf.layout = sharedLayoutOf(s, type.getElementType());
        buf.strides = stridesOf(buf.layout.shape);
        int64_t n = 1;
        for (int64_t e : buf.layout.shape)
          n *= e;
        buf.data.assign(n, kUnset);
        shared[mat.getResult()] = std::move(buf);
      }
    }

  // An online contraction's in-block split is the lowering's own: the
  // model evaluates its meaning at each result point of the block (every
  // dim but the batch dims and the row tile is `seq`: one owner).
  if (auto oc = dyn_cast<OnlineContractOp>(current)) {
    SmallVector<int64_t> extents = oc.getIterationExtents();
    int64_t rows = 1;
    for (int64_t d : resultDims)
      if (d != oc.getValueDim())
        rows *= dims[d].count;
    int64_t steps = 0;
    if (llvm::MulOverflow(rows,
                          extents[oc.getKeyDim()] *
                              (extents[oc.getContractedDim()] +
                               extents[oc.getValueDim()]),
                          steps) ||
        llvm::AddOverflow(work, steps, work) || work > workLimit)
      return current->emitOpError()
             << "is too large for the schedule-faithful evaluator (over "
             << workLimit
             << " thread-instance steps in all); evaluate a smaller shape, or "
                "use the sequential model";
    SmallVector<int64_t> point(dims.size(), 0), k(dims.size(), 0);
    motif::detail::OnlineContractRows<float> f32;
    motif::detail::OnlineContractRows<double> f64;
    auto read = [&](unsigned i, ArrayRef<int64_t> p) {
      return load(i, 0, p, k);
    };
    std::function<void(unsigned)> walk = [&](unsigned r) {
      if (r == resultDims.size()) {
        double y =
            mode == NumericMode::F32
                ? static_cast<double>(
                      f32.at(oc, extents, point, read, /*roundP=*/true))
                : f64.at(oc, extents, point, read, /*roundP=*/false);
        store(0, 0, point, k, true,
              roundStored(y, mode, oc.getResult().getType().getElementType()));
        return;
      }
      int64_t d = resultDims[r];
      for (k[d] = 0; k[d] < dims[d].count; ++k[d]) {
        point[d] = s.indexOf(d, 0, blockCoords, k[d]);
        if (point[d] < dims[d].extent)
          walk(r + 1);
      }
    };
    walk(0);
    return success();
  }

  // Work: every representative walks every instance it owns.
  int64_t perThread = 1;
  for (const DimSchedule &d : dims)
    perThread = perThread > 0 && !llvm::MulOverflow(perThread, d.count, perThread)
                    ? perThread
                    : -1;
  int64_t steps = -1;
  if (perThread >= 0 &&
      !llvm::MulOverflow(perThread, static_cast<int64_t>(reps.size()), steps) &&
      !llvm::AddOverflow(work, steps, work) && work <= workLimit) {
    // within budget
  } else {
    return current->emitOpError()
           << "is too large for the schedule-faithful evaluator (over "
           << workLimit
           << " thread-instance steps in all); evaluate a smaller shape, or "
              "use the sequential model";
  }

  unsigned numResults = current->getNumResults();
  ReductionTree tree;
  if (isReduction) {
    tree = s.getReductionTree();
    if (std::optional<std::string> why = s.unsupportedAtBlockSize())
      return current->emitOpError() << *why;
  }
  SmallVector<double, 2> identity;
  if (auto red = dyn_cast<ReduceOp>(current)) {
    if (std::optional<CombinerKind> kind = red.getKind()) {
      double inf = std::numeric_limits<double>::infinity();
      identity.push_back(*kind == CombinerKind::Add   ? 0.0
                         : *kind == CombinerKind::Mul ? 1.0
                         : *kind == CombinerKind::Max ? -inf
                                                      : inf);
    } else {
      ArrayAttr init = *red.getInit();
      for (Attribute a : init)
        identity.push_back(roundStored(
            cast<FloatAttr>(a).getValue().convertToDouble(), mode));
    }
  } else if (isReduction) {
    identity.push_back(0.0);
  }

  SmallVector<int64_t> point(dims.size(), 0), k(dims.size(), 0);
  auto setIndex = [&](int64_t d, int64_t tid) {
    point[d] = s.indexOf(d, tid, blockCoords, k[d]);
    return point[d] < dims[d].extent;
  };

  // Every instance vector of the result dims, the same in every thread.
  auto forEachK = [&](ArrayRef<int64_t> over, auto &&fn) {
    for (int64_t d : over)
      k[d] = 0;
    while (true) {
      fn();
      int i = static_cast<int>(over.size()) - 1;
      for (; i >= 0; --i) {
        if (++k[over[i]] < dims[over[i]].count)
          break;
        k[over[i]] = 0;
      }
      if (i < 0)
        return;
    }
  };

  SmallVector<Partial> partials(reps.size());
  SmallVector<bool> resultActive(reps.size());
  SmallVector<SmallVector<int64_t>> resultPoints(reps.size());
  SmallVector<double> args(current->getNumOperands());
  forEachK(resultDims, [&] {
    for (auto indexed : llvm::enumerate(reps)) {
      // Not a structured binding: the lambda below captures `tid`, which
      // clang < 16 (the fuzz build's clang 14) rejects.
      size_t ri = indexed.index();
      const auto &tid = indexed.value();
      bool active = true;
      for (int64_t d : resultDims)
        active &= setIndex(d, tid);
      resultActive[ri] = active;
      if (!isReduction) {
        double out;
        for (unsigned i = 0; i < args.size(); ++i)
          args[i] = load(i, tid, point, k);
        if (auto map = dyn_cast<MapOp>(current)) {
          programs.find(current)->second->run(args, MutableArrayRef<double>(out));
          out = roundStored(out, mode, map.getResult().getType().getElementType());
        } else {
          out = args[0];
        }
        store(0, tid, point, k, active, out);
        continue;
      }
      resultPoints[ri] = point;
      // The thread's fold, in instance order of the reduced dims.
      Partial p;
      p.values = identity;
      SmallVector<int64_t> saved = k;
      // A tensor-core contraction (mma m16n8k16, m16n8k8) adds each step of
      // the instruction's k (16, 8) to its accumulator at once: modelled as
      // the exact sum of the step's products (in double) rounded once into
      // f32. The hardware's own rounding inside a step is not modelled --
      // the class is `tolerance` (motif-equiv refuses `bitwise` on such a
      // program). m16n8k8 multiplies the f32 operands rounded to tf32 as
      // the kernel's cvt.rna.tf32.f32 rounds them (the products of two tf32
      // values are exact).
      bool mmaSteps = mode == NumericMode::F32 && runsOnTensorCores(current);
      std::optional<MmaShape> mmaShape =
          mmaSteps ? cast<ContractOp>(current).getMma() : std::nullopt;
      bool tf32 = mmaShape == MmaShape::M16N8K8;
      int64_t stepK = mmaShape ? mmaShapeK(*mmaShape) : 0;
      double stepSum = 0.0;
      int64_t inStep = 0;
      forEachK(reducedDims, [&] {
        bool in = active;
        for (int64_t d : reducedDims)
          in &= setIndex(d, tid);
        if (!in)
          return;
        if (mmaSteps) {
          double l = load(0, tid, point, k), r = load(1, tid, point, k);
          if (tf32) {
            l = roundToTf32(l);
            r = roundToTf32(r);
          }
          stepSum += l * r;
          if (++inStep == stepK) {
            p.values[0] = static_cast<float>(p.values[0] + stepSum);
            stepSum = 0.0;
            inStep = 0;
          }
        } else if (isa<ContractOp>(current)) {
          double l = load(0, tid, point, k), r = load(1, tid, point, k);
          p.values[0] =
              mode == NumericMode::F32
                  ? static_cast<double>(std::fma(static_cast<float>(l),
                                                 static_cast<float>(r),
                                                 static_cast<float>(p.values[0])))
                  : std::fma(l, r, p.values[0]);
        } else {
          SmallVector<double, 2> x;
          for (unsigned i = 0; i < args.size(); ++i)
            x.push_back(load(i, tid, point, k));
          p.values = combine(p.values, x);
        }
        p.valid = true;
      });
      for (int64_t d : reducedDims)
        k[d] = saved[d];
      partials[ri] = std::move(p);
    }
    if (!isReduction)
      return;

    // The tree: a butterfly over lanes, then warps in order.
    auto partialOf = [&](SmallVector<Partial> &ps, int64_t tid) -> Partial & {
      return ps[repIndex.lookup(key.representative(tid))];
    };
    if (tree.acrossLanes) {
      for (int64_t offset = block.lanes / 2; offset >= 1; offset /= 2) {
        SmallVector<Partial> next(reps.size());
        for (auto [ri, tid] : llvm::enumerate(reps)) {
          int64_t other = block.warpOf(tid) * kWarpSize +
                          (block.laneOf(tid) ^ offset);
          const Partial &own = partials[ri];
          const Partial &theirs = partialOf(partials, other);
          bool high = tree.ordered && (block.laneOf(tid) & offset);
          next[ri] = high ? treeCombine(theirs, own, tree.flagged)
                          : treeCombine(own, theirs, tree.flagged);
        }
        partials = std::move(next);
      }
    }
    if (tree.acrossWarps) {
      SmallVector<Partial> next(reps.size());
      for (auto [ri, tid] : llvm::enumerate(reps)) {
        int64_t lane = tree.lanesDiffer ? block.laneOf(tid) : 0;
        Partial acc = partialOf(partials, lane);
        for (int64_t w = 1; w < block.warps; ++w)
          acc = treeCombine(acc, partialOf(partials, w * kWarpSize + lane),
                            tree.flagged);
        next[ri] = std::move(acc);
      }
      partials = std::move(next);
    }
    for (auto [ri, tid] : llvm::enumerate(reps))
      for (unsigned r = 0; r < numResults; ++r)
        store(r, tid, resultPoints[ri], k, resultActive[ri],
              partials[ri].values[r]);
  });
  return success();
}

FailureOr<SmallVector<Buffer>>
mlir::motif::evaluateSchedule(func::FuncOp func, ArrayRef<Buffer> inputs,
                              NumericMode mode,
                              SmallVectorImpl<int64_t> *unwritten,
                              int64_t workLimit) {
  ScheduleEvaluator evaluator(mode, workLimit);
  return evaluator.run(func, inputs, unwritten);
}
