//===- LinalgToMotif.cpp - import linalg-on-tensors as motif kernels ------===//
//
// One motif.kernel per linalg op, every intermediate in global memory, each
// motif with a default mapping (docs/import.md). The import walks a function
// once in order and keeps, for every linalg tensor value, the motif tensor
// that holds it and which of its dims that tensor holds: unit dims of the
// linalg value (torch-mlir's `512x1` row statistics) need not exist in the
// motif value, so reshapes that only add or drop unit dims change indexing,
// never data.
//
//===----------------------------------------------------------------------===//

#include "motif/Conversion/Passes.h"
#include "motif/Dialect/Motif/IR/MotifDialect.h"
#include "motif/Dialect/Motif/IR/MotifOps.h"
#include "motif/Dialect/Motif/IR/ScalarOps.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

#define DEBUG_TYPE "convert-linalg-to-motif"

namespace mlir::motif {
#define GEN_PASS_DEF_CONVERTLINALGTOMOTIF
#include "motif/Conversion/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;
using namespace mlir::motif;

namespace {

/// Where a linalg tensor value lives in the motif program: a motif tensor and,
/// per dim of the linalg value, the motif dim holding it (-1: a unit dim the
/// motif tensor does not hold).
struct View {
  Value value;
  SmallVector<int64_t> dimOf;
};

/// A block argument of a linalg body replaced by a motif body argument (the
/// motif operand) or by a constant.
struct BodyInput {
  BlockArgument arg;
  Value operand;            // motif tensor, if not a constant
  SmallVector<int64_t> dims; // its motif indexing, if an operand
  TypedAttr constant;       // the scalar, if a constant
};

constexpr int64_t kDefaultThreads = 256;

int64_t threadsFor(int64_t extent) {
  return std::clamp<int64_t>(llvm::PowerOf2Ceil(extent), kWarpSize,
                             kDefaultThreads);
}

class FunctionImporter {
public:
  FunctionImporter(func::FuncOp func)
      : func(func), ctx(func.getContext()), rewriter(ctx) {}

  LogicalResult run();

private:
  // Values and their views.
  FailureOr<View> viewOf(Value v, Operation *user);
  TypedAttr scalarConstantOf(Value v);
  LogicalResult computeLive();
  LogicalResult importDim(tensor::DimOp op);
  LogicalResult importAssert(cf::AssertOp op);

  // Ops.
  LogicalResult importLinalg(linalg::LinalgOp op);
  LogicalResult importParallelResult(linalg::LinalgOp op, unsigned r,
                                     Value yielded, TypedAttr accConstant);
  LogicalResult importReductionResult(linalg::LinalgOp op, unsigned r);
  LogicalResult importSoftmax(linalg::SoftmaxOp op);
  LogicalResult importCollapse(tensor::CollapseShapeOp op);
  LogicalResult importExpand(tensor::ExpandShapeOp op);
  LogicalResult importReturn(func::ReturnOp ret);

  // Building blocks.
  FailureOr<SmallVector<int64_t>> loopsOfOperand(linalg::LinalgOp op,
                                                 OpOperand &operand,
                                                 const View &view);
  /// The view of `operand`'s value and the loops it is indexed by.
  FailureOr<std::pair<View, SmallVector<int64_t>>>
  viewAndLoops(linalg::LinalgOp op, OpOperand &operand);
  FailureOr<SmallVector<BodyInput>>
  bodyInputs(linalg::LinalgOp op, ArrayRef<BlockArgument> args,
             ArrayRef<int64_t> space, BlockArgument acc, TypedAttr accConstant);
  LogicalResult buildBody(Operation *op, Region &region,
                          ArrayRef<BodyInput> inputs, Value yielded);
  Value emitKernel(Location loc, StringRef what, int64_t threads,
                   RankedTensorType type,
                   function_ref<Value(OpBuilder &)> build);
  FailureOr<View> emitMap(Location loc, StringRef what, Operation *bodyOwner,
                          ArrayRef<int64_t> extents,
                          ArrayRef<BodyInput> inputs, Value yielded,
                          Type elementType);
  View emitReduce(Location loc, StringRef what, CombinerKind kind, Value input,
                  ArrayRef<int64_t> reduced);
  View emitTruncation(Location loc, Value value, Type elementType);
  View constantMap(Location loc, TypedAttr value, RankedTensorType type);

  ArrayAttr mappingOf(ArrayRef<Attribute> levels) {
    return ArrayAttr::get(ctx, levels);
  }
  Attribute level(Level l) { return LevelAttr::get(ctx, l); }
  /// [block, ..., block, thread] (one dim: a block x thread(T) nest when T
  /// divides it), and the block size.
  std::pair<ArrayAttr, int64_t> elementwiseMapping(ArrayRef<int64_t> extents);

  func::FuncOp func;
  MLIRContext *ctx;
  IRRewriter rewriter;
  DenseMap<Value, View> views;
  llvm::DenseSet<Value> live;
  /// Motif tensors that are per-row values, with their kernel's block size.
  DenseMap<Value, int64_t> perRowThreads;
  int counter = 0;
};

} // namespace

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

/// The scalar a value holds everywhere: a scalar arith.constant, a splat
/// tensor constant, or a linalg.fill of a scalar constant.
TypedAttr FunctionImporter::scalarConstantOf(Value v) {
  if (auto cst = v.getDefiningOp<arith::ConstantOp>()) {
    if (auto splat = dyn_cast<SplatElementsAttr>(cst.getValue()))
      return splat.getSplatValue<TypedAttr>();
    if (!isa<ShapedType>(cst.getType()))
      return cst.getValue();
    return {};
  }
  if (auto fill = v.getDefiningOp<linalg::FillOp>())
    return scalarConstantOf(fill.getInputs()[0]);
  return {};
}

/// Liveness from the function's results back: results of linalg ops that
/// nothing live reads (torch-mlir's argmax companion of a max) are dropped.
LogicalResult FunctionImporter::computeLive() {
  SmallVector<Value> worklist;
  Block &body = func.getBody().front();
  for (Value v : body.getTerminator()->getOperands())
    worklist.push_back(v);
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!live.insert(v).second)
      continue;
    Operation *def = v.getDefiningOp();
    if (!def || isa<KernelOp>(def))
      continue;
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(def)) {
      unsigned r = cast<OpResult>(v).getResultNumber();
      for (OpOperand *in : linalgOp.getDpsInputOperands())
        worklist.push_back(in->get());
      worklist.push_back(linalgOp.getDpsInits()[r]);
      continue;
    }
    for (Value operand : def->getOperands())
      worklist.push_back(operand);
  }
  return success();
}

FailureOr<View> FunctionImporter::viewOf(Value v, Operation *user) {
  auto it = views.find(v);
  if (it != views.end())
    return it->second;
  auto type = dyn_cast<RankedTensorType>(v.getType());
  if (!type)
    return user->emitOpError()
           << "cannot be imported into motif: an operand is not a ranked "
              "tensor";
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    View view{v, llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()))};
    views[v] = view;
    return view;
  }
  Operation *def = v.getDefiningOp();
  if (isa<tensor::EmptyOp>(def))
    return user->emitOpError()
           << "cannot be imported into motif: it reads the contents of a "
              "'tensor.empty', which are undefined";
  if (TypedAttr c = scalarConstantOf(v)) {
    // A constant read as a whole tensor (a matmul operand, a result): a
    // constant map kernel.
    View view = constantMap(def->getLoc(), c, type);
    views[v] = view;
    return view;
  }
  if (isa<arith::ConstantOp>(def))
    return user->emitOpError()
           << "cannot be imported into motif: an operand is a non-splat "
              "constant tensor (pass weights as function arguments)";
  return user->emitOpError()
         << "cannot be imported into motif: an operand comes from '"
         << def->getName() << "', which was not imported";
}

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

std::pair<ArrayAttr, int64_t>
FunctionImporter::elementwiseMapping(ArrayRef<int64_t> extents) {
  int64_t n = extents.size();
  // A runtime row count is mapped to blocks (docs/dialect.md): a row of
  // nothing else is one block of one thread.
  if (n == 1 && ShapedType::isDynamic(extents[0]))
    return {mappingOf({level(Level::Block)}), 1};
  if (n == 1) {
    for (int64_t t : {256, 128, 64, 32})
      if (extents[0] > t && extents[0] % t == 0)
        return {mappingOf({TileAttr::get(ctx, {Level::Block, Level::Thread},
                                         {0, t})}),
                t};
    return {mappingOf({level(Level::Thread)}), threadsFor(extents[0])};
  }
  SmallVector<Attribute> levels(n - 1, level(Level::Block));
  levels.push_back(level(Level::Thread));
  return {mappingOf(levels), threadsFor(extents.back())};
}

Value FunctionImporter::emitKernel(Location loc, StringRef what,
                                   int64_t threads, RankedTensorType type,
                                   function_ref<Value(OpBuilder &)> build) {
  std::string name = (what + "_" + Twine(counter++)).str();
  auto kernel = KernelOp::create(rewriter, loc, TypeRange{type}, name, threads);
  OpBuilder::InsertionGuard guard(rewriter);
  Operation *terminator = kernel.getBodyBlock().getTerminator();
  rewriter.setInsertionPoint(terminator);
  Value v = build(rewriter);
  Value global = MaterializeOp::create(rewriter, loc, type, v,
                                       Residency::Global);
  YieldOp::create(rewriter, loc, ValueRange{global});
  rewriter.eraseOp(terminator);
  return kernel.getResult(0);
}

FailureOr<std::pair<View, SmallVector<int64_t>>>
FunctionImporter::viewAndLoops(linalg::LinalgOp op, OpOperand &operand) {
  FailureOr<View> view = viewOf(operand.get(), op);
  if (failed(view))
    return failure();
  FailureOr<SmallVector<int64_t>> loops = loopsOfOperand(op, operand, *view);
  if (failed(loops))
    return failure();
  return std::make_pair(*view, *loops);
}

/// The loop (linalg iteration dim) of each dim the motif tensor of `operand`
/// holds. A dim it holds must be indexed by a loop alone.
FailureOr<SmallVector<int64_t>>
FunctionImporter::loopsOfOperand(linalg::LinalgOp op, OpOperand &operand,
                                 const View &view) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  int64_t rank = cast<ShapedType>(view.value.getType()).getRank();
  SmallVector<int64_t> loops(rank, -1);
  for (auto [p, expr] : llvm::enumerate(map.getResults())) {
    int64_t q = view.dimOf[p];
    if (q < 0)
      continue;
    auto dim = dyn_cast<AffineDimExpr>(expr);
    std::string text;
    llvm::raw_string_ostream(text) << expr;
    if (!dim)
      return op->emitOpError()
             << "cannot be imported into motif: operand #"
             << operand.getOperandNumber() << " dim " << p
             << " is indexed by '" << text
             << "'; motif indexes every dim by one iteration dim (only a "
                "unit dim computed by the program may be read at index 0)";
    if (llvm::is_contained(loops, int64_t(dim.getPosition())))
      return op->emitOpError()
             << "cannot be imported into motif: operand #"
             << operand.getOperandNumber()
             << " is read along a diagonal (two of its dims indexed by d"
             << dim.getPosition() << ")";
    loops[q] = dim.getPosition();
  }
  return loops;
}

/// (A per-row value is a reduction's result, or a map over one: a map over
/// exactly its dims is mapped to blocks only, on the same grid and block size
/// as the rows it came from, so fusion can keep it in registers.)

/// The motif operands of a body: every argument the body reads becomes a
/// motif input indexed by its position in `space` (the motif iteration dims,
/// as loops), or a constant when its operand is one. `acc`, when given, is
/// replaced by `accConstant` (a reduction over unit dims only).
FailureOr<SmallVector<BodyInput>>
FunctionImporter::bodyInputs(linalg::LinalgOp op, ArrayRef<BlockArgument> args,
                             ArrayRef<int64_t> space, BlockArgument acc,
                             TypedAttr accConstant) {
  SmallVector<BodyInput> inputs;
  for (BlockArgument arg : args) {
    BodyInput in{arg, {}, {}, {}};
    OpOperand *operand = op.getMatchingOpOperand(arg);
    if (arg == acc && accConstant) {
      in.constant = accConstant;
      inputs.push_back(in);
      continue;
    }
    if (TypedAttr c = scalarConstantOf(operand->get())) {
      in.constant = c;
      inputs.push_back(in);
      continue;
    }
    auto viewLoops = viewAndLoops(op, *operand);
    if (failed(viewLoops))
      return failure();
    const auto &[view, loops] = *viewLoops;
    for (int64_t loop : loops) {
      const auto *pos = llvm::find(space, loop);
      if (pos == space.end())
        return op->emitOpError()
               << "cannot be imported into motif: operand #"
               << operand->getOperandNumber() << " is indexed by d" << loop
               << ", which does not index the result";
      in.dims.push_back(pos - space.begin());
    }
    in.operand = view.value;
    inputs.push_back(in);
  }
  return inputs;
}

/// Copies the ops of `op`'s body that `yielded` depends on into `region`'s
/// new block, the arguments replaced as `inputs` says; scalar constants from
/// outside the body are copied in. Every copied op must be a motif body op.
LogicalResult FunctionImporter::buildBody(Operation *op, Region &region,
                                          ArrayRef<BodyInput> inputs,
                                          Value yielded) {
  Block &src = op->getRegion(0).front();
  // The backward slice of `yielded` inside the body.
  llvm::SetVector<Operation *> slice;
  SmallVector<Value> worklist{yielded};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != &src || !slice.insert(def))
      continue;
    for (Value operand : def->getOperands())
      worklist.push_back(operand);
  }
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (const BodyInput &in : inputs)
    if (!in.constant) {
      argTypes.push_back(in.arg.getType());
      argLocs.push_back(in.arg.getLoc());
    }
  OpBuilder::InsertionGuard guard(rewriter);
  Block *block = rewriter.createBlock(&region, region.end(), argTypes, argLocs);
  IRMapping mapping;
  unsigned next = 0;
  for (const BodyInput &in : inputs) {
    if (in.constant)
      mapping.map(in.arg, arith::ConstantOp::create(rewriter, in.arg.getLoc(),
                                                    in.constant)
                              .getResult());
    else
      mapping.map(in.arg, block->getArgument(next++));
  }
  auto mapOutside = [&](Value v, Operation *reader) -> LogicalResult {
    if (mapping.contains(v))
      return success();
    if (isa<BlockArgument>(v) &&
        cast<BlockArgument>(v).getOwner() == &src)
      return reader->emitOpError()
             << "cannot be imported into motif: it reads the initial value "
                "of an output, which the import does not keep";
    auto cst = v.getDefiningOp<arith::ConstantOp>();
    if (!cst || isa<ShapedType>(cst.getType()))
      return reader->emitOpError()
             << "cannot be imported into motif: it reads a value defined "
                "outside the body that is not a scalar constant";
    mapping.map(v, rewriter.clone(*cst)->getResult(0));
    return success();
  };
  for (Operation &inner : src.without_terminator()) {
    if (!slice.contains(&inner))
      continue;
    if (isa<linalg::IndexOp>(inner))
      return inner.emitOpError()
             << "cannot be imported into motif: motif bodies see element "
                "values, not iteration indices (an argmax whose result is "
                "used is not supported)";
    if (inner.getNumRegions())
      return inner.emitOpError() << "cannot be imported into motif: a body "
                                    "op with regions";
    for (Value operand : inner.getOperands())
      if (failed(mapOutside(operand, &inner)))
        return failure();
    Operation *copy = rewriter.clone(inner, mapping);
    if (failed(verifyScalarBodyOp(copy)))
      return failure();
  }
  if (failed(mapOutside(yielded, op)))
    return failure();
  YieldOp::create(rewriter, op->getLoc(), ValueRange{mapping.lookup(yielded)});
  return success();
}

FailureOr<View> FunctionImporter::emitMap(Location loc, StringRef what,
                                          Operation *bodyOwner,
                                          ArrayRef<int64_t> extents,
                                          ArrayRef<BodyInput> inputs,
                                          Value yielded, Type elementType) {
  auto type = RankedTensorType::get(extents, elementType);
  SmallVector<Value> operands;
  SmallVector<Attribute> indexing;
  for (const BodyInput &in : inputs)
    if (!in.constant) {
      operands.push_back(in.operand);
      indexing.push_back(DenseI64ArrayAttr::get(ctx, in.dims));
    }
  // A map over exactly the dims of a per-row value runs on its rows' grid.
  auto [mapping, threads] = elementwiseMapping(extents);
  bool perRow = false;
  for (const BodyInput &in : inputs) {
    if (in.constant)
      continue;
    auto it = perRowThreads.find(in.operand);
    if (it != perRowThreads.end() &&
        cast<ShapedType>(in.operand.getType()).getShape() == extents &&
        llvm::equal(in.dims, llvm::seq<int64_t>(0, extents.size()))) {
      perRow = true;
      threads = it->second;
      mapping = mappingOf(
          SmallVector<Attribute>(extents.size(), level(Level::Block)));
      break;
    }
  }
  LogicalResult body = success();
  Value result = emitKernel(loc, what, threads, type, [&](OpBuilder &b) {
    auto map = MapOp::create(b, loc, type, operands,
                             ArrayAttr::get(ctx, indexing), mapping);
    body = buildBody(bodyOwner, map.getBody(), inputs, yielded);
    return map.getResult();
  });
  if (failed(body))
    return failure();
  if (perRow)
    perRowThreads[result] = threads;
  return View{result, {}};
}

View FunctionImporter::emitReduce(Location loc, StringRef what,
                                  CombinerKind kind, Value input,
                                  ArrayRef<int64_t> reduced) {
  auto inType = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> kept;
  SmallVector<Attribute> levels;
  for (int64_t d = 0; d < inType.getRank(); ++d) {
    bool isReduced = llvm::is_contained(reduced, d);
    if (!isReduced)
      kept.push_back(inType.getDimSize(d));
    levels.push_back(level(!isReduced               ? Level::Block
                           : d == reduced.back() ? Level::Thread
                                                 : Level::Seq));
  }
  int64_t threads = threadsFor(inType.getDimSize(reduced.back()));
  // A built-in reduction accumulates in f32, its result type, whatever its
  // input holds.
  auto type = RankedTensorType::get(kept, Float32Type::get(ctx));
  Value result = emitKernel(loc, what, threads, type, [&](OpBuilder &b) {
    return ReduceOp::create(b, loc, TypeRange{type}, ValueRange{input},
                            reduced, CombinerKindAttr::get(ctx, kind),
                            ArrayAttr(), mappingOf(levels))
        .getResult(0);
  });
  perRowThreads[result] = threads;
  return View{result, {}};
}

/// A map that rounds the f32 motif value `value` to `elementType` (round to
/// nearest even), on the grid of its rows when it is a per-row value.
View FunctionImporter::emitTruncation(Location loc, Value value,
                                      Type elementType) {
  auto inType = cast<RankedTensorType>(value.getType());
  auto type = RankedTensorType::get(inType.getShape(), elementType);
  auto [mapping, threads] = elementwiseMapping(inType.getShape());
  auto rows = perRowThreads.find(value);
  if (rows != perRowThreads.end()) {
    threads = rows->second;
    mapping = mappingOf(
        SmallVector<Attribute>(inType.getRank(), level(Level::Block)));
  }
  auto all = llvm::to_vector(llvm::seq<int64_t>(0, inType.getRank()));
  Value result = emitKernel(loc, "truncf", threads, type, [&](OpBuilder &b) {
    auto map = MapOp::create(b, loc, type, ValueRange{value},
                             b.getArrayAttr({b.getDenseI64ArrayAttr(all)}),
                             mapping);
    OpBuilder::InsertionGuard guard(b);
    Block *block = b.createBlock(&map.getBody(), map.getBody().end(),
                                 {inType.getElementType()}, {loc});
    Value r =
        arith::TruncFOp::create(b, loc, elementType, block->getArgument(0));
    YieldOp::create(b, loc, ValueRange{r});
    return map.getResult();
  });
  if (rows != perRowThreads.end())
    perRowThreads[result] = threads;
  return View{result, {}};
}

View FunctionImporter::constantMap(Location loc, TypedAttr value,
                                   RankedTensorType type) {
  // The motif tensor holds the non-unit dims only.
  SmallVector<int64_t> extents, dimOf;
  for (int64_t e : type.getShape()) {
    dimOf.push_back(e == 1 ? -1 : int64_t(extents.size()));
    if (e != 1)
      extents.push_back(e);
  }
  if (extents.empty()) {
    extents.push_back(1);
    dimOf.back() = 0;
  }
  auto motifType = RankedTensorType::get(extents, type.getElementType());
  auto [mapping, threads] = elementwiseMapping(extents);
  Value result = emitKernel(loc, "fill", threads, motifType, [&](OpBuilder &b) {
    auto map = MapOp::create(b, loc, motifType, ValueRange{},
                             ArrayAttr::get(ctx, {}), mapping);
    OpBuilder::InsertionGuard guard(b);
    b.createBlock(&map.getBody());
    Value c = arith::ConstantOp::create(b, loc, value);
    YieldOp::create(b, loc, ValueRange{c});
    return map.getResult();
  });
  return View{result, dimOf};
}

//===----------------------------------------------------------------------===//
// Linalg ops
//===----------------------------------------------------------------------===//

/// The arguments of `block` that `root` depends on through ops of `block`,
/// in argument order.
static SmallVector<BlockArgument> bodyArgumentsOf(Value root, Block *block) {
  SmallVector<BlockArgument> args;
  SmallVector<Value> worklist{root};
  llvm::DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == block)
        args.push_back(arg);
      continue;
    }
    if (Operation *def = v.getDefiningOp(); def->getBlock() == block)
      llvm::append_range(worklist, def->getOperands());
  }
  llvm::sort(args, [](BlockArgument a, BlockArgument b) {
    return a.getArgNumber() < b.getArgNumber();
  });
  return args;
}

static bool isReduction(utils::IteratorType t) {
  return t == utils::IteratorType::reduction;
}

LogicalResult FunctionImporter::importLinalg(linalg::LinalgOp op) {
  if (!op.hasPureTensorSemantics())
    return op->emitOpError() << "cannot be imported into motif: it has "
                                "buffer semantics (motif imports tensors)";
  if (op->getNumRegions() != 1 || op->getRegion(0).empty())
    return op->emitOpError() << "cannot be imported into motif: no payload";
  for (Value v : op->getOperands())
    if (auto t = dyn_cast<ShapedType>(v.getType());
        t && !hasStaticTrailingDims(t))
      return op->emitOpError()
             << "cannot be imported into motif: dynamic dims (" << t
             << ") other than a leading row count are not supported";
  // A runtime row count is mapped to blocks, never reduced.
  SmallVector<int64_t> loopExtents = op.getStaticLoopRanges();
  for (auto [d, t] : llvm::enumerate(op.getIteratorTypesArray()))
    if (isReduction(t) && ShapedType::isDynamic(loopExtents[d]))
      return op->emitOpError()
             << "cannot be imported into motif: it reduces over d" << d
             << ", the runtime row count (a row count is only mapped to "
                "blocks, never reduced)";
  bool anyReduction = llvm::any_of(op.getIteratorTypesArray(), isReduction);
  for (unsigned r = 0; r < op->getNumResults(); ++r) {
    if (!live.contains(op->getResult(r)))
      continue;
    auto type = cast<RankedTensorType>(op->getResult(r).getType());
    if (!isTensorElementType(type.getElementType()))
      return op->emitOpError()
             << "cannot be imported into motif: result #" << r << " is " << type
             << "; motif lowers f32, f16 and bf16 tensors";
    Value yielded = op.getBlock()->getTerminator()->getOperand(r);
    if (failed(anyReduction ? importReductionResult(op, r)
                            : importParallelResult(op, r, yielded, {})))
      return failure();
  }
  return success();
}

/// Result `r` of an op whose motif space is its result's loops: a map (a
/// transpose when it only permutes one input). `accConstant`: the reduction's
/// init, for a reduction over unit dims only.
LogicalResult FunctionImporter::importParallelResult(linalg::LinalgOp op,
                                                     unsigned r, Value yielded,
                                                     TypedAttr accConstant) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  OpOperand &init = op.getDpsInitsMutable()[r];
  AffineMap outMap = op.getMatchingIndexingMap(&init);
  BlockArgument acc = op.getMatchingBlockArgument(&init);

  // The body arguments it reads.
  Block *block = op.getBlock();
  SmallVector<BlockArgument> args = bodyArgumentsOf(yielded, block);
  // Loops a unit dim of a motif operand needs.
  llvm::DenseSet<int64_t> needed;
  for (BlockArgument arg : args) {
    OpOperand *operand = op.getMatchingOpOperand(arg);
    if ((arg == acc && accConstant) || scalarConstantOf(operand->get()))
      continue;
    auto viewLoops = viewAndLoops(op, *operand);
    if (failed(viewLoops))
      return failure();
    needed.insert(viewLoops->second.begin(), viewLoops->second.end());
  }
  // The space: the result's loops, in the result's order, unit ones only
  // where an operand needs them.
  SmallVector<int64_t> space, dimOf;
  for (AffineExpr e : outMap.getResults()) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    if (!dim) {
      dimOf.push_back(-1); // a constant index: a unit dim
      continue;
    }
    int64_t loop = dim.getPosition();
    if (ranges[loop] == 1 && !needed.contains(loop)) {
      dimOf.push_back(-1);
      continue;
    }
    dimOf.push_back(space.size());
    space.push_back(loop);
  }
  for (int64_t loop = 0; loop < op.getNumLoops(); ++loop)
    if (ranges[loop] != 1 && !llvm::is_contained(space, loop))
      return op->emitOpError()
             << "cannot be imported into motif: loop d" << loop
             << " (extent " << ranges[loop]
             << ") does not index result #" << r
             << " and is not a reduction";
  if (space.empty())
    return op->emitOpError()
           << "cannot be imported into motif: result #" << r
           << " has no dim of extent above 1 (rank-0 motif values are not "
              "supported)";
  SmallVector<int64_t> extents;
  for (int64_t loop : space)
    extents.push_back(ranges[loop]);

  FailureOr<SmallVector<BodyInput>> inputs =
      bodyInputs(op, args, space, acc, accConstant);
  if (failed(inputs))
    return failure();
  Type elementType = getElementTypeOrSelf(op->getResult(r).getType());

  // A body that yields one input it reads along a permutation of all dims:
  // a layout change.
  if (auto arg = dyn_cast<BlockArgument>(yielded);
      arg && inputs->size() == 1 && !inputs->front().constant &&
      inputs->front().dims.size() == space.size() &&
      !llvm::equal(inputs->front().dims, llvm::seq<int64_t>(0, space.size()))) {
    const BodyInput &in = inputs->front();
    SmallVector<int64_t> perm(space.size());
    for (auto [q, k] : llvm::enumerate(in.dims))
      perm[k] = q;
    auto type = RankedTensorType::get(extents, elementType);
    auto [mapping, threads] = elementwiseMapping(extents);
    Value result =
        emitKernel(op->getLoc(), "transpose", threads, type, [&](OpBuilder &b) {
          return TransposeOp::create(b, op->getLoc(), type, in.operand, perm,
                                     mapping)
              .getResult();
        });
    views[op->getResult(r)] = View{result, dimOf};
    return success();
  }
  StringRef what = isa<linalg::GenericOp>(op) ? "map"
                   : accConstant              ? "map"
                                              : op->getName().stripDialect();
  FailureOr<View> view =
      emitMap(op->getLoc(), what, op, extents, *inputs, yielded, elementType);
  if (failed(view))
    return failure();
  view->dimOf = dimOf;
  views[op->getResult(r)] = *view;
  return success();
}

/// The identity of a combiner as a float, to compare with an init value.
static bool isIdentity(CombinerKind kind, const APFloat &v) {
  switch (kind) {
  case CombinerKind::Add:
    return v.isZero();
  case CombinerKind::Mul:
    return v.isExactlyValue(1.0);
  case CombinerKind::Max:
    return v.isInfinity() && v.isNegative();
  case CombinerKind::Min:
    return v.isInfinity() && !v.isNegative();
  }
  return false;
}

static StringRef identityText(CombinerKind kind) {
  switch (kind) {
  case CombinerKind::Add:
    return "0.0";
  case CombinerKind::Mul:
    return "1.0";
  case CombinerKind::Max:
    return "-inf";
  case CombinerKind::Min:
    return "+inf";
  }
  return "";
}

LogicalResult FunctionImporter::importReductionResult(linalg::LinalgOp op,
                                                      unsigned r) {
  Location loc = op->getLoc();
  Block *block = op.getBlock();
  OpOperand &init = op.getDpsInitsMutable()[r];
  BlockArgument acc = op.getMatchingBlockArgument(&init);
  Value yielded = block->getTerminator()->getOperand(r);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();

  // An index-reading result (a used argmax) has no motif form.
  {
    SmallVector<Value> worklist{yielded};
    llvm::DenseSet<Value> seen;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      Operation *def = v.getDefiningOp();
      if (!seen.insert(v).second || !def || def->getBlock() != block)
        continue;
      if (isa<linalg::IndexOp>(def))
        return def->emitOpError()
               << "cannot be imported into motif: motif bodies see element "
                  "values, not iteration indices (an argmax whose result is "
                  "used is not supported)";
      llvm::append_range(worklist, def->getOperands());
    }
  }
  // The combine: acc' = acc (+) x, x computed from the inputs alone.
  Operation *combine = yielded.getDefiningOp();
  if (!combine || combine->getBlock() != block || combine->getNumOperands() != 2)
    return op->emitOpError()
           << "cannot be imported into motif: result #" << r
           << " is not a combine of its accumulator with a value";
  std::optional<CombinerKind> kind =
      TypeSwitch<Operation *, std::optional<CombinerKind>>(combine)
          .Case<arith::AddFOp>([](auto) { return CombinerKind::Add; })
          .Case<arith::MulFOp>([](auto) { return CombinerKind::Mul; })
          .Case<arith::MaximumFOp>([](auto) { return CombinerKind::Max; })
          .Case<arith::MinimumFOp>([](auto) { return CombinerKind::Min; })
          .Default([](Operation *) { return std::nullopt; });
  if (!kind) {
    InFlightDiagnostic d = combine->emitOpError()
                           << "cannot be imported into motif: a reduction "
                              "combines with '"
                           << combine->getName()
                           << "'; motif reduces with arith.addf, mulf, "
                              "maximumf and minimumf";
    if (isa<arith::MaxNumFOp, arith::MinNumFOp>(combine))
      d << " (maxnumf/minnumf ignore NaN; motif's <max>/<min> propagate it)";
    return d;
  }
  Value x;
  if (combine->getOperand(0) == acc)
    x = combine->getOperand(1);
  else if (combine->getOperand(1) == acc)
    x = combine->getOperand(0);
  if (!x || x == acc)
    return combine->emitOpError()
           << "cannot be imported into motif: the reduction of result #" << r
           << " does not combine its accumulator once with an element";
  // The element may not read an accumulator (its own or another result's).
  {
    SmallVector<Value> worklist{x};
    llvm::DenseSet<Value> seen;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      if (auto arg = dyn_cast<BlockArgument>(v);
          arg && arg.getOwner() == block &&
          arg.getArgNumber() >= op.getNumDpsInputs())
        return combine->emitOpError()
               << "cannot be imported into motif: the element combined into "
                  "result #"
               << r << " reads an accumulator";
      if (Operation *def = v.getDefiningOp(); def && def->getBlock() == block)
        llvm::append_range(worklist, def->getOperands());
    }
  }

  TypedAttr initConstant = scalarConstantOf(init.get());

  // Loops the inputs hold; a reduction over unit loops only is a map.
  bool reducesSomething = false;
  for (int64_t loop = 0; loop < op.getNumLoops(); ++loop)
    reducesSomething |= isReduction(iterators[loop]) && ranges[loop] != 1;
  if (!reducesSomething) {
    if (!initConstant)
      return op->emitOpError()
             << "cannot be imported into motif: a reduction over unit dims "
                "whose init is not a constant";
    return importParallelResult(op, r, yielded, initConstant);
  }

  // Motif reductions and contractions accumulate in f32: a linalg sum or
  // product that accumulates in f16 or bf16 (rounding at every step) means
  // another result. A max or min is exact in any type: it reduces in f32 and
  // the result rounds back to the half type exactly (a map).
  Type accType = getElementTypeOrSelf(op->getResult(r).getType());
  bool exactInHalf =
      *kind == CombinerKind::Max || *kind == CombinerKind::Min;
  if (!accType.isF32() && !exactInHalf)
    return op->emitOpError()
           << "cannot be imported into motif: result #" << r
           << " accumulates in " << accType
           << "; motif reductions and contractions accumulate in f32 (a sum "
              "or product in "
           << accType
           << " rounds at every step: another result): extend the elements "
              "to f32 in the body (arith.extf) and accumulate into an f32 "
              "tensor (linalg.matmul with f32 outs does), then truncate";

  // The init must be the combiner's identity: motif reductions start there.
  auto floatInit = dyn_cast_or_null<FloatAttr>(initConstant);
  if (!floatInit || !isIdentity(*kind, floatInit.getValue())) {
    InFlightDiagnostic d = op->emitOpError()
                           << "cannot be imported into motif: result #" << r
                           << " starts from ";
    if (floatInit)
      d << floatInit.getValueAsDouble();
    else
      d << "a value that is not a constant fill";
    d << ", not the identity of <" << stringifyCombinerKind(*kind) << "> ("
      << identityText(*kind)
      << "); motif reductions start from their combiner's identity";
    return d;
  }

  // The output's loops (parallel).
  AffineMap outMap = op.getMatchingIndexingMap(&init);

  // A sum of products of two inputs: a contraction. Half-precision inputs
  // come extended to f32 (arith.extf, as linalg.matmul with f32 outs writes
  // them): a motif.contract of the f16/bf16 tensors into f32.
  auto mul = x.getDefiningOp<arith::MulFOp>();
  auto factorArg = [&](Value v) -> BlockArgument {
    if (auto ext = v.getDefiningOp<arith::ExtFOp>();
        ext && ext->getBlock() == block && ext->hasOneUse())
      v = ext.getIn();
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != block ||
        arg.getArgNumber() >= op.getNumDpsInputs())
      return {};
    return arg;
  };
  BlockArgument lhsArg = mul ? factorArg(mul.getLhs()) : BlockArgument();
  BlockArgument rhsArg = mul ? factorArg(mul.getRhs()) : BlockArgument();
  if (*kind == CombinerKind::Add && mul && mul->getBlock() == block &&
      mul->hasOneUse() && lhsArg && rhsArg &&
      lhsArg.getType() == rhsArg.getType()) {
    OpOperand *lhs = op.getMatchingOpOperand(lhsArg);
    OpOperand *rhs = op.getMatchingOpOperand(rhsArg);
    FailureOr<View> lv = viewOf(lhs->get(), op);
    if (failed(lv))
      return failure();
    FailureOr<View> rv = viewOf(rhs->get(), op);
    if (failed(rv))
      return failure();
    FailureOr<SmallVector<int64_t>> ll = loopsOfOperand(op, *lhs, *lv);
    if (failed(ll))
      return failure();
    FailureOr<SmallVector<int64_t>> rl = loopsOfOperand(op, *rhs, *rv);
    if (failed(rl))
      return failure();
    // Result loops in the output's order, then contracted loops by first
    // appearance (the order motif.contract numbers them).
    SmallVector<int64_t> space, dimOf;
    for (AffineExpr e : outMap.getResults()) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      int64_t loop = dim ? int64_t(dim.getPosition()) : -1;
      if (!dim || (ranges[loop] == 1 && !llvm::is_contained(*ll, loop) &&
                   !llvm::is_contained(*rl, loop))) {
        dimOf.push_back(-1);
        continue;
      }
      dimOf.push_back(space.size());
      space.push_back(loop);
    }
    int64_t resultRank = space.size();
    for (int64_t loop : llvm::concat<int64_t>(*ll, *rl)) {
      if (llvm::is_contained(space, loop))
        continue;
      if (!isReduction(iterators[loop]))
        return op->emitOpError()
               << "cannot be imported into motif: loop d" << loop
               << " indexes an operand but not the result";
      if (!llvm::is_contained(*ll, loop) || !llvm::is_contained(*rl, loop))
        return op->emitOpError()
               << "cannot be imported into motif: it sums over d" << loop
               << ", which indexes only one operand (motif.contract sums "
                  "over dims of both)";
      space.push_back(loop);
    }
    for (int64_t loop = 0; loop < op.getNumLoops(); ++loop)
      if (ranges[loop] != 1 && !llvm::is_contained(space, loop))
        return op->emitOpError()
               << "cannot be imported into motif: loop d" << loop
               << " (extent " << ranges[loop] << ") indexes no operand";
    if (resultRank == 0)
      return op->emitOpError()
             << "cannot be imported into motif: the contraction's result "
                "has no dim of extent above 1 (rank-0 motif values are not "
                "supported)";
    if (int64_t(space.size()) > resultRank) {
      auto position = [&](ArrayRef<int64_t> loops) {
        return llvm::map_to_vector(loops, [&](int64_t loop) {
          return int64_t(llvm::find(space, loop) - space.begin());
        });
      };
      SmallVector<int64_t> extents;
      SmallVector<Attribute> levels;
      for (int64_t k = 0; k < resultRank; ++k) {
        extents.push_back(ranges[space[k]]);
        levels.push_back(
            level(k + 1 < resultRank ? Level::Block : Level::Thread));
      }
      levels.append(space.size() - resultRank, level(Level::Seq));
      int64_t threads = threadsFor(extents.back());
      auto type = RankedTensorType::get(extents, mul.getType());
      SmallVector<int64_t> lhsDims = position(*ll), rhsDims = position(*rl);
      StringRef what = isa<linalg::GenericOp>(op)
                           ? StringRef("contract")
                           : op->getName().stripDialect();
      Value result = emitKernel(loc, what, threads, type, [&](OpBuilder &b) {
        return ContractOp::create(b, loc, type, lv->value, rv->value, lhsDims,
                                  rhsDims, mappingOf(levels))
            .getResult();
      });
      views[op->getResult(r)] = View{result, dimOf};
      return success();
    }
  }

  // A reduction: of an input directly, or of the element function computed
  // by a map kernel first.
  Value reduced;
  SmallVector<int64_t> loopsOfReduced;
  auto xArg = dyn_cast<BlockArgument>(x);
  if (xArg && xArg.getOwner() == block &&
      xArg.getArgNumber() < op.getNumDpsInputs() &&
      !scalarConstantOf(op.getMatchingOpOperand(xArg)->get())) {
    OpOperand *operand = op.getMatchingOpOperand(xArg);
    auto viewLoops = viewAndLoops(op, *operand);
    if (failed(viewLoops))
      return failure();
    reduced = viewLoops->first.value;
    loopsOfReduced = viewLoops->second;
  } else {
    // The element map's space: every loop of extent above 1, in order, and
    // unit loops an operand holds.
    SmallVector<BlockArgument> args = bodyArgumentsOf(x, block);
    llvm::DenseSet<int64_t> needed;
    for (BlockArgument arg : args) {
      OpOperand *operand = op.getMatchingOpOperand(arg);
      if (scalarConstantOf(operand->get()))
        continue;
      auto viewLoops = viewAndLoops(op, *operand);
      if (failed(viewLoops))
        return failure();
      needed.insert(viewLoops->second.begin(), viewLoops->second.end());
    }
    for (int64_t loop = 0; loop < op.getNumLoops(); ++loop)
      if (ranges[loop] != 1 || needed.contains(loop))
        loopsOfReduced.push_back(loop);
    FailureOr<SmallVector<BodyInput>> inputs =
        bodyInputs(op, args, loopsOfReduced, {}, {});
    if (failed(inputs))
      return failure();
    SmallVector<int64_t> extents = llvm::map_to_vector(
        loopsOfReduced, [&](int64_t loop) { return ranges[loop]; });
    FailureOr<View> element = emitMap(loc, "map", op, extents, *inputs, x,
                                      x.getType());
    if (failed(element))
      return failure();
    reduced = element->value;
  }

  SmallVector<int64_t> reducedDims, keptLoops;
  for (auto [q, loop] : llvm::enumerate(loopsOfReduced)) {
    if (isReduction(iterators[loop]))
      reducedDims.push_back(q);
    else
      keptLoops.push_back(loop);
  }
  for (int64_t loop = 0; loop < op.getNumLoops(); ++loop)
    if (isReduction(iterators[loop]) && ranges[loop] != 1 &&
        !llvm::is_contained(loopsOfReduced, loop))
      return op->emitOpError()
             << "cannot be imported into motif: it reduces over d" << loop
             << ", which indexes no input (a reduction of a broadcast)";
  // The result holds the kept loops in the input's order; the output names
  // them in any order.
  SmallVector<int64_t> dimOf;
  for (auto [p, e] : llvm::enumerate(outMap.getResults())) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    const auto *pos =
        dim ? llvm::find(keptLoops, int64_t(dim.getPosition())) : keptLoops.end();
    dimOf.push_back(pos == keptLoops.end() ? -1 : pos - keptLoops.begin());
  }
  for (auto [k, loop] : llvm::enumerate(keptLoops))
    if (!llvm::is_contained(dimOf, int64_t(k)))
      return op->emitOpError()
             << "cannot be imported into motif: loop d" << loop
             << " indexes the input but not result #" << r;
  if (keptLoops.empty())
    return op->emitOpError()
           << "cannot be imported into motif: result #" << r
           << " reduces every dim (rank-0 motif values are not supported)";
  StringRef what = stringifyCombinerKind(*kind);
  if (*kind == CombinerKind::Add)
    what = "sum";
  View view = emitReduce(loc, what, *kind, reduced, reducedDims);
  if (!accType.isF32())
    view = emitTruncation(loc, view.value, accType);
  view.dimOf = dimOf;
  views[op->getResult(r)] = view;
  return success();
}

LogicalResult FunctionImporter::importSoftmax(linalg::SoftmaxOp op) {
  Location loc = op.getLoc();
  auto type = cast<RankedTensorType>(op.getInput().getType());
  if (!hasStaticTrailingDims(type) ||
      (ShapedType::isDynamic(type.getDimSize(0)) && op.getDimension() == 0))
    return op->emitOpError() << "cannot be imported into motif: dynamic dims ("
                             << type
                             << ") other than a leading row count, not the "
                                "softmax dim, are not supported";
  // linalg.softmax means its decomposition in the element type: a softmax of
  // f16 or bf16 sums its exponentials in that type, rounding at every step.
  if (!type.getElementType().isF32())
    return op->emitOpError()
           << "cannot be imported into motif: a softmax of " << type
           << " sums its exponentials in " << type.getElementType()
           << " (linalg's decomposition rounds at every step: another result "
              "than motif's f32 sum); extend the input to f32 "
              "(arith.extf), take the softmax in f32 and truncate the result";
  FailureOr<View> in = viewOf(op.getInput(), op);
  if (failed(in))
    return failure();
  int64_t q = in->dimOf[op.getDimension()];
  if (q < 0)
    return op->emitOpError()
           << "cannot be imported into motif: a softmax over a unit dim";
  auto motifType = cast<RankedTensorType>(in->value.getType());
  int64_t rank = motifType.getRank();
  if (rank == 1)
    return op->emitOpError()
           << "cannot be imported into motif: a softmax over the only dim "
              "(rank-0 row statistics are not supported)";
  SmallVector<int64_t> keptDims;
  for (int64_t d = 0; d < rank; ++d)
    if (d != q)
      keptDims.push_back(d);
  auto all = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  Type f32 = motifType.getElementType();
  auto rowMap = [&](StringRef what, Value rows, Value stat,
                    function_ref<Value(OpBuilder &, Value, Value)> body) {
    auto [mapping, threads] = elementwiseMapping(motifType.getShape());
    return emitKernel(loc, what, threads, motifType, [&](OpBuilder &b) {
      auto map = MapOp::create(
          b, loc, motifType, ValueRange{rows, stat},
          b.getArrayAttr({b.getDenseI64ArrayAttr(all),
                          b.getDenseI64ArrayAttr(keptDims)}),
          mapping);
      OpBuilder::InsertionGuard guard(b);
      Block *block = b.createBlock(&map.getBody(), map.getBody().end(), {f32, f32}, {loc, loc});
      Value r = body(b, block->getArgument(0), block->getArgument(1));
      YieldOp::create(b, loc, ValueRange{r});
      return map.getResult();
    });
  };
  View max = emitReduce(loc, "max", CombinerKind::Max, in->value, {q});
  Value exp = rowMap("exp", in->value, max.value, [&](OpBuilder &b, Value x,
                                                      Value m) {
    return math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, x, m))
        .getResult();
  });
  View sum = emitReduce(loc, "sum", CombinerKind::Add, exp, {q});
  Value div = rowMap("div", exp, sum.value, [&](OpBuilder &b, Value e, Value s) {
    return arith::DivFOp::create(b, loc, e, s).getResult();
  });
  views[op->getResult(0)] = View{div, in->dimOf};
  return success();
}

//===----------------------------------------------------------------------===//
// Reshapes of unit dims
//===----------------------------------------------------------------------===//

LogicalResult FunctionImporter::importCollapse(tensor::CollapseShapeOp op) {
  if (!hasStaticTrailingDims(op.getSrcType()))
    return op->emitOpError() << "cannot be imported into motif: dynamic dims ("
                             << op.getSrcType()
                             << ") other than a leading row count are not "
                                "supported";
  FailureOr<View> src = viewOf(op.getSrc(), op);
  if (failed(src))
    return failure();
  View dst = *src;
  dst.dimOf.clear();
  for (auto [j, group] : llvm::enumerate(op.getReassociationIndices())) {
    int64_t held = -1, nonUnit = 0;
    for (int64_t p : group) {
      nonUnit += op.getSrcType().getDimSize(p) != 1;
      if (src->dimOf[p] < 0)
        continue;
      if (held >= 0)
        return op->emitOpError()
               << "cannot be imported into motif: group #" << j
               << " collapses dims that motif holds separately (only unit "
                  "dims may be collapsed: a reshape is not supported)";
      held = src->dimOf[p];
    }
    if (nonUnit > 1)
      return op->emitOpError()
             << "cannot be imported into motif: group #" << j
             << " collapses " << nonUnit
             << " dims of extent above 1 (a reshape is not supported; only "
                "unit dims may be collapsed)";
    dst.dimOf.push_back(held);
  }
  views[op.getResult()] = dst;
  return success();
}

LogicalResult FunctionImporter::importExpand(tensor::ExpandShapeOp op) {
  if (!hasStaticTrailingDims(op.getResultType()))
    return op->emitOpError() << "cannot be imported into motif: dynamic dims ("
                             << op.getResultType()
                             << ") other than a leading row count are not "
                                "supported";
  FailureOr<View> src = viewOf(op.getSrc(), op);
  if (failed(src))
    return failure();
  View dst = *src;
  dst.dimOf.assign(op.getResultType().getRank(), -1);
  for (auto [i, group] : llvm::enumerate(op.getReassociationIndices())) {
    SmallVector<int64_t> nonUnit;
    for (int64_t p : group)
      if (op.getResultType().getDimSize(p) != 1)
        nonUnit.push_back(p);
    if (nonUnit.size() > 1)
      return op->emitOpError()
             << "cannot be imported into motif: group #" << i << " splits a "
             << "dim into " << nonUnit.size()
             << " dims of extent above 1 (a reshape is not supported; only "
                "unit dims may be added)";
    dst.dimOf[nonUnit.empty() ? group.front() : nonUnit.front()] =
        src->dimOf[i];
  }
  views[op.getResult()] = dst;
  return success();
}

//===----------------------------------------------------------------------===//
// The function
//===----------------------------------------------------------------------===//

/// A returned value must be a kernel result of the returned type, once: a
/// value held with other dims (or an argument, or returned twice) is copied.
LogicalResult FunctionImporter::importReturn(func::ReturnOp ret) {
  SmallVector<Value> results;
  llvm::DenseSet<Value> returned;
  for (auto [j, v] : llvm::enumerate(ret.getOperands())) {
    FailureOr<View> view = viewOf(v, ret);
    if (failed(view))
      return failure();
    auto type = cast<RankedTensorType>(v.getType());
    bool asIs = view->value.getDefiningOp<KernelOp>() &&
                view->value.getType() == type &&
                llvm::equal(view->dimOf, llvm::seq<int64_t>(0, type.getRank())) &&
                !returned.contains(view->value);
    if (asIs) {
      returned.insert(view->value);
      results.push_back(view->value);
      continue;
    }
    SmallVector<int64_t> dims;
    for (int64_t p = 0; p < type.getRank(); ++p)
      if (view->dimOf[p] >= 0) {
        dims.resize(std::max<size_t>(dims.size(), view->dimOf[p] + 1));
        dims[view->dimOf[p]] = p;
      }
    auto [mapping, threads] = elementwiseMapping(type.getShape());
    Location loc = v.getLoc();
    Value copy = emitKernel(loc, "copy", threads, type, [&](OpBuilder &b) {
      auto map = MapOp::create(b, loc, type, ValueRange{view->value},
                               b.getArrayAttr({b.getDenseI64ArrayAttr(dims)}),
                               mapping);
      OpBuilder::InsertionGuard guard(b);
      Block *block = b.createBlock(&map.getBody(), map.getBody().end(), {type.getElementType()},
                                   {loc});
      YieldOp::create(b, loc, ValueRange{block->getArgument(0)});
      return map.getResult();
    });
    returned.insert(copy);
    results.push_back(copy);
  }
  rewriter.modifyOpInPlace(ret, [&] { ret->setOperands(results); });
  return success();
}

/// The leading dim of a tensor whose leading dim is the runtime row count.
static bool isRowCount(Value v) {
  auto dim = v.getDefiningOp<tensor::DimOp>();
  std::optional<int64_t> index = dim ? dim.getConstantIndex() : std::nullopt;
  return index && *index == 0 && hasDynamicRows(dim.getSource().getType());
}

LogicalResult FunctionImporter::importDim(tensor::DimOp op) {
  if (isRowCount(op.getResult()))
    return success();
  return op->emitOpError()
         << "cannot be imported into motif: it reads a size other than the "
            "leading dim of a tensor with a runtime row count";
}

LogicalResult FunctionImporter::importAssert(cf::AssertOp op) {
  // torch-mlir checks that two dynamic sizes agree before a broadcast. Two
  // row counts always agree in motif (the runtime checks every input at
  // launch), so that check is dropped; any other is refused.
  // So are checks that hold for any size: a constant true, and a row count
  // (through index_cast) compared `sge` with 0.
  if (matchPattern(op.getArg(), m_One()))
    return success();
  auto cmp = op.getArg().getDefiningOp<arith::CmpIOp>();
  auto throughCast = [](Value v) {
    if (auto cast = v.getDefiningOp<arith::IndexCastOp>())
      return cast.getIn();
    return v;
  };
  if (cmp && cmp.getPredicate() == arith::CmpIPredicate::eq &&
      isRowCount(cmp.getLhs()) && isRowCount(cmp.getRhs()))
    return success();
  if (cmp && cmp.getPredicate() == arith::CmpIPredicate::sge &&
      isRowCount(throughCast(cmp.getLhs())) &&
      matchPattern(cmp.getRhs(), m_Zero()))
    return success();
  return op->emitOpError()
         << "cannot be imported into motif: a runtime check other than two "
            "row counts being equal (\""
         << op.getMsg() << "\")";
}

LogicalResult FunctionImporter::run() {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError() << "cannot be imported into motif: it has "
                                 "control flow (more than one block)";
  for (Type t : func.getFunctionType().getInputs()) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !hasStaticTrailingDims(tensor) ||
        !isTensorElementType(tensor.getElementType()))
      return func.emitOpError()
             << "cannot be imported into motif: it takes a " << t
             << "; motif imports f32, f16 and bf16 tensors, static but for a "
                "leading row count";
  }
  for (Type t : func.getFunctionType().getResults()) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    if (!tensor || !hasStaticTrailingDims(tensor) ||
        !isTensorElementType(tensor.getElementType()))
      return func.emitOpError()
             << "cannot be imported into motif: it returns a " << t
             << "; motif imports f32, f16 and bf16 tensors, static but for a "
                "leading row count";
  }
  for (BlockArgument arg : func.getArguments())
    if (elementsPerRow(cast<RankedTensorType>(arg.getType())) == 0)
      return func.emitOpError() << "cannot be imported into motif: argument #"
                                << arg.getArgNumber() << " is empty";
  if (failed(computeLive()))
    return failure();
  Block &body = func.getBody().front();
  SmallVector<Operation *> original;
  for (Operation &op : body)
    original.push_back(&op);
  for (Operation *op : original) {
    rewriter.setInsertionPoint(op);
    bool anyLive = llvm::any_of(op->getResults(),
                                [&](Value v) { return live.contains(v); });
    LogicalResult result =
        TypeSwitch<Operation *, LogicalResult>(op)
            .Case<func::ReturnOp>([&](auto ret) { return importReturn(ret); })
            .Case<KernelOp>([&](KernelOp kernel) {
              for (Value v : kernel.getResults())
                (void)viewOf(v, kernel); // as an argument: all its dims
              return success();
            })
            // Read through viewOf where used: constants and fills become
            // body constants, or a constant map when read as a tensor.
            .Case<arith::ConstantOp, tensor::EmptyOp, linalg::FillOp>(
                [&](Operation *) { return success(); })
            // The runtime row count: only sizes read it (tensor.empty,
            // expand_shape), and every `?` of a function is this one size.
            .Case<tensor::DimOp>(
                [&](tensor::DimOp dim) { return importDim(dim); })
            .Case<cf::AssertOp>(
                [&](cf::AssertOp check) { return importAssert(check); })
            .Case<linalg::SoftmaxOp>([&](linalg::SoftmaxOp softmax) {
              return anyLive ? importSoftmax(softmax) : success();
            })
            .Case<linalg::LinalgOp>([&](linalg::LinalgOp linalgOp) {
              return anyLive ? importLinalg(linalgOp) : success();
            })
            .Case<tensor::CollapseShapeOp>([&](auto collapse) {
              return anyLive ? importCollapse(collapse) : success();
            })
            .Case<tensor::ExpandShapeOp>([&](auto expand) {
              return anyLive ? importExpand(expand) : success();
            })
            .Default([&](Operation *other) -> LogicalResult {
              if (!anyLive && isMemoryEffectFree(other))
                return success();
              return other->emitOpError()
                     << "cannot be imported into motif: no motif form for "
                        "this op (docs/import.md lists what imports)";
            });
    if (failed(result))
      return failure();
  }
  // Everything but the kernels and the return is now dead.
  for (Operation *op : llvm::reverse(original))
    if (!isa<KernelOp, func::ReturnOp>(op)) {
      op->dropAllUses();
      rewriter.eraseOp(op);
    }
  return success();
}

namespace {
struct ConvertLinalgToMotifPass
    : public motif::impl::ConvertLinalgToMotifBase<ConvertLinalgToMotifPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // Functions without linalg or tensor ops (motif programs) are left alone.
    bool imports = false;
    func.walk([&](Operation *op) {
      StringRef ns = op->getName().getDialectNamespace();
      imports |= ns == "linalg" || ns == "tensor";
    });
    if (!imports)
      return;
    FunctionImporter importer(func);
    if (failed(importer.run()))
      signalPassFailure();
  }
};
} // namespace
