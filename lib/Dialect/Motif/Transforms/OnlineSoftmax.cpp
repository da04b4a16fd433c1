//===- OnlineSoftmax.cpp - rule 4: one reduction for (max, sum of exp) ----===//
//
// Softmax, log-softmax, logsumexp and attention all compute, per row,
//
//   m = max_k x        e = exp(x - m)        l = sum_k e
//
// two reductions over k, hence two passes over the row. The online form
// (Milakov & Gimelshein 2018) carries the state (m, l) through one reduction:
//
//   (m1, l1) . (m2, l2) = (m, l1 * exp(m1 - m) + l2 * exp(m2 - m)),  m = max(m1, m2)
//
// seeded with (x, 1) per element. The merge is associative and commutative up
// to rounding, so it runs through the existing reduction lowering as a
// general combiner (thread fold, shuffles, cross-warp). The pattern is found
// by dataflow, never by name: a max whose reader is such an exp map whose
// result is summed over the max's dims; values are followed through
// materializations and kernel results, so the pass works on unfused and on
// hand-fused programs alike.
//
// What changes: the max's value keeps its bits (max is exact in any order),
// so every reader of the max reads the state's max; the sum's value is
// rescaled as the max grows (class `mathematical`). The exp map stays for
// its other readers (the division of softmax, P.V of attention) and goes
// when the sum was its only one (logsumexp). The combiner guards a state
// whose max is -inf (an empty or fully masked part: -inf - -inf is NaN),
// and computes exp(c * d) as exp2(c * log2(e) * d).
//
//===----------------------------------------------------------------------===//

#include "OnlineSoftmax.h"
#include "DefaultSchedules.h"

#include "motif/Analysis/Invariants.h"
#include "motif/Dialect/Motif/IR/ScalarOps.h"
#include "motif/Dialect/Motif/Transforms/Passes.h"
#include "motif/Support/ThreadDiagnostics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <functional>
#include <limits>

namespace mlir::motif {
#define GEN_PASS_DEF_MOTIFONLINESOFTMAX
#include "motif/Dialect/Motif/Transforms/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;
using namespace mlir::motif;

namespace {

KernelOp kernelOf(Operation *op) { return op->getParentOfType<KernelOp>(); }

/// The value `v` carries, with materializations and kernel results stripped:
/// a motif's result or a function argument.
Value originOf(Value v) {
  while (true) {
    if (auto mat = v.getDefiningOp<MaterializeOp>()) {
      v = mat.getInput();
      continue;
    }
    if (auto kernel = v.getDefiningOp<KernelOp>()) {
      v = kernel.getYield().getOperand(cast<OpResult>(v).getResultNumber());
      continue;
    }
    return v;
  }
}

/// Every use that reads `v`'s values, following materializations and kernel
/// results: motifs (and returns, for observability) at the end of a chain.
void readersOf(Value v, SmallVectorImpl<OpOperand *> &out) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (auto mat = dyn_cast<MaterializeOp>(user)) {
      readersOf(mat.getResult(), out);
      continue;
    }
    if (isa<YieldOp>(user))
      if (auto kernel = dyn_cast<KernelOp>(user->getParentOp())) {
        readersOf(kernel.getResult(use.getOperandNumber()), out);
        continue;
      }
    out.push_back(&use);
  }
}

/// How remarks name a tensor: by the motif and kernel computing it, or the
/// function argument.
std::string nameOf(Value origin) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (auto arg = dyn_cast<BlockArgument>(origin))
    os << "argument #" << arg.getArgNumber();
  else if (KernelOp k = kernelOf(origin.getDefiningOp()))
    os << "the " << origin.getDefiningOp()->getName().stripDialect()
       << " of kernel '" << k.getSymName() << "'";
  else
    os << "'" << origin.getDefiningOp()->getName() << "'";
  return s;
}

std::string typeText(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

std::string dimsText(ArrayRef<int64_t> dims) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(dims))
    s += (i ? ", " : "") + std::to_string(d);
  return s + "]";
}

/// `exp(x - m)`, `exp((x - m) * c)` or `exp(c * (x - m))` (exp or exp2,
/// c a finite positive constant) as a map body over (x, m).
struct ExpForm {
  MapOp map;
  bool base2 = false;
  double scale = 1.0;
};

std::optional<ExpForm> matchExpBody(MapOp map, unsigned xIdx, unsigned mIdx) {
  Block &body = map.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getValues().size() != 1)
    return std::nullopt;
  Operation *exp = yield.getValues()[0].getDefiningOp();
  ExpForm form{map};
  if (isa_and_nonnull<math::Exp2Op>(exp))
    form.base2 = true;
  else if (!isa_and_nonnull<math::ExpOp>(exp))
    return std::nullopt;
  Value arg = exp->getOperand(0);
  if (auto mul = arg.getDefiningOp<arith::MulFOp>()) {
    for (unsigned side = 0; side < 2; ++side) {
      auto c = mul->getOperand(side).getDefiningOp<arith::ConstantOp>();
      auto f = c ? dyn_cast<FloatAttr>(c.getValue()) : FloatAttr();
      if (!f)
        continue;
      double v = f.getValueAsDouble();
      if (!(v > 0) || !std::isfinite(v))
        return std::nullopt;
      form.scale = v;
      arg = mul->getOperand(1 - side);
      break;
    }
    if (arg == mul.getResult())
      return std::nullopt;
  }
  auto sub = arg.getDefiningOp<arith::SubFOp>();
  if (!sub)
    return std::nullopt;
  // A half x is extended to the f32 max first (the candidate is then
  // declined: the state reduction takes f32 inputs).
  Value lhs = sub.getLhs();
  if (auto ext = lhs.getDefiningOp<arith::ExtFOp>())
    lhs = ext.getIn();
  if (lhs != body.getArgument(xIdx) || sub.getRhs() != body.getArgument(mIdx))
    return std::nullopt;
  return form;
}

/// Whether `map` reads x (operand `xIdx`) at its own indices and the max
/// (operand `mIdx`) at the row's, over the max's iteration space.
bool readsXAndItsRowMax(MapOp map, unsigned xIdx, unsigned mIdx, ReduceOp max) {
  auto iface = cast<ComputeOpInterface>(map.getOperation());
  auto maxIface = cast<ComputeOpInterface>(max.getOperation());
  SmallVector<int64_t> extents = maxIface.getIterationExtents();
  return iface.getIterationExtents() == extents &&
         iface.getOperandIterationDims(xIdx) ==
             llvm::to_vector(llvm::seq<int64_t>(0, extents.size())) &&
         iface.getOperandIterationDims(mIdx) ==
             maxIface.getResultIterationDims();
}

/// One (max, exp, sum) found in the program.
struct Candidate {
  ReduceOp max;
  ExpForm exp;
  ReduceOp sum;
};

/// The candidate rooted at `max`, or the reason there is none.
FailureOr<Candidate> findCandidate(ReduceOp max, std::string &why) {
  Value x = originOf(max.getInputs()[0]);
  SmallVector<OpOperand *> readers;
  readersOf(max.getResult(0), readers);
  std::string expWhy;
  for (OpOperand *use : readers) {
    auto map = dyn_cast<MapOp>(use->getOwner());
    if (!map)
      continue;
    unsigned mIdx = use->getOperandNumber();
    // Only a map that exponentiates is a near miss worth a remark; any
    // other reader of a max is not a softmax.
    bool exponentiates = false;
    map.getBody().walk([&](Operation *op) {
      exponentiates |= isa<math::ExpOp, math::Exp2Op>(op);
    });
    auto notExp = [&](const Twine &t) {
      if (expWhy.empty() && exponentiates)
        expWhy = ("the map of kernel '" + kernelOf(map).getSymName() + "' " +
                  t)
                     .str();
    };
    if (map.getInputs().size() != 2) {
      notExp("reads " + Twine(map.getInputs().size()) +
             " tensors (exp(x - max) reads x and the max)");
      continue;
    }
    unsigned xIdx = 1 - mIdx;
    if (originOf(map.getInputs()[xIdx]) != x) {
      notExp("exponentiates " + nameOf(originOf(map.getInputs()[xIdx])) +
             ", not the tensor the max is over (" + nameOf(x) + ")");
      continue;
    }
    if (!readsXAndItsRowMax(map, xIdx, mIdx, max)) {
      notExp("reads x or the max at other indices than x[...] and max[rows]");
      continue;
    }
    std::optional<ExpForm> form = matchExpBody(map, xIdx, mIdx);
    if (!form) {
      notExp("computes something else than exp(x - max) or exp((x - max) * c) "
             "with a constant c > 0");
      continue;
    }
    SmallVector<OpOperand *> expReaders;
    readersOf(map.getResult(), expReaders);
    for (OpOperand *r : expReaders) {
      auto sum = dyn_cast<ReduceOp>(r->getOwner());
      if (!sum || sum.getKind() != CombinerKind::Add ||
          sum.getInputs().size() != 1)
        continue;
      if (sum.getReductionDims() != max.getReductionDims()) {
        notExp("is summed over dims " + dimsText(sum.getReductionDims()) +
               ", not the max's " + dimsText(max.getReductionDims()));
        continue;
      }
      return Candidate{max, *form, sum};
    }
    notExp("is not summed over the max's dims " +
           dimsText(max.getReductionDims()));
  }
  why = expWhy;
  return failure();
}

} // namespace

bool mlir::motif::isExpOfItsRowMax(MapOp map) {
  if (map.getInputs().size() != 2)
    return false;
  for (unsigned mIdx = 0; mIdx < 2; ++mIdx) {
    unsigned xIdx = 1 - mIdx;
    auto max = originOf(map.getInputs()[mIdx]).getDefiningOp<ReduceOp>();
    if (max && max.getKind() == CombinerKind::Max &&
        max.getInputs().size() == 1 &&
        originOf(max.getInputs()[0]) == originOf(map.getInputs()[xIdx]) &&
        readsXAndItsRowMax(map, xIdx, mIdx, max) &&
        matchExpBody(map, xIdx, mIdx))
      return true;
  }
  return false;
}

namespace {

/// Replaces `kernel` by one that yields `yielded` (values of its body): a
/// result whose value stays keeps its uses, the others must have none.
KernelOp rebuildKernel(KernelOp kernel, ArrayRef<Value> yielded,
                       RewriterBase &rewriter) {
  SmallVector<Type> types;
  for (Value v : yielded)
    types.push_back(v.getType());
  rewriter.setInsertionPoint(kernel);
  auto fresh = KernelOp::create(rewriter, kernel.getLoc(), types,
                                kernel.getSymName(), kernel.getThreads());
  fresh->setDiscardableAttrs(kernel->getDiscardableAttrDictionary());
  // Drop the builder's empty body and take the old one.
  rewriter.eraseBlock(&fresh.getBodyBlock());
  rewriter.inlineRegionBefore(kernel.getBody(), fresh.getBody(),
                              fresh.getBody().end());
  YieldOp yield = fresh.getYield();
  SmallVector<Value> old(yield.getValues());
  rewriter.modifyOpInPlace(yield, [&] {
    yield.getValuesMutable().assign(ValueRange(yielded));
  });
  for (auto [r, v] : llvm::enumerate(old)) {
    auto it = llvm::find(yielded, v);
    if (it != yielded.end())
      rewriter.replaceAllUsesWith(kernel.getResult(r),
                                  fresh.getResult(it - yielded.begin()));
  }
  rewriter.eraseOp(kernel);
  return fresh;
}

/// Drops the results of `kernel` nothing reads (unless observable), the
/// motifs and materializations that then compute nothing, and the kernel
/// when nothing is left.
void dropDeadResults(KernelOp kernel, RewriterBase &rewriter) {
  SmallVector<Value> kept;
  for (auto [r, v] : llvm::enumerate(kernel.getYield().getValues())) {
    auto mat = v.getDefiningOp<MaterializeOp>();
    if (!kernel.getResult(r).use_empty() || (mat && mat.getObservable()))
      kept.push_back(v);
  }
  if (kept.size() != kernel.getNumResults())
    kernel = rebuildKernel(kernel, kept, rewriter);
  // Last first, so a chain dies in one sweep (a std::reverse_iterator over
  // the block would point at the op after the one erased).
  SmallVector<Operation *> ops;
  for (Operation &op : kernel.getBodyBlock().without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (op->use_empty() && (isa<MaterializeOp>(op) || isa<ComputeOpInterface>(op)))
      rewriter.eraseOp(op);
  if (kernel.getNumResults() == 0)
    rewriter.eraseOp(kernel);
}

/// The combiner of the state (m, l): exp(c * d) as exp2(c * log2(e) * d),
/// a -inf max (empty or fully masked part) guarded so that two empty states
/// give (-inf, 0), not NaN.
void buildCombiner(ReduceOp state, const ExpForm &form, OpBuilder &b) {
  Location loc = state.getLoc();
  Type f32 = b.getF32Type();
  Block *block = b.createBlock(&state.getCombiner(), {}, {f32, f32, f32, f32},
                               {loc, loc, loc, loc});
  Value ma = block->getArgument(0), la = block->getArgument(1);
  Value mb = block->getArgument(2), lb = block->getArgument(3);
  auto constant = [&](double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v)).getResult();
  };
  double c = form.base2 ? form.scale : form.scale * 1.4426950408889634 /* log2(e) */;
  Value mx = arith::MaximumFOp::create(b, loc, ma, mb);
  Value ninf = constant(-std::numeric_limits<double>::infinity());
  Value empty =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, mx, ninf);
  Value safe = arith::SelectOp::create(b, loc, empty, constant(0.0), mx);
  auto weight = [&](Value m) {
    Value d = arith::SubFOp::create(b, loc, m, safe);
    if (c != 1.0)
      d = arith::MulFOp::create(b, loc, d, constant(c));
    return math::Exp2Op::create(b, loc, d).getResult();
  };
  Value wa = weight(ma), wb = weight(mb);
  Value sa = arith::MulFOp::create(b, loc, la, wa);
  Value l = math::FmaOp::create(b, loc, lb, wb, sa);
  YieldOp::create(b, loc, ValueRange{mx, l});
}

/// Replaces `reader`, a map reading `producer`'s result (a map) as operand
/// `idx`, by a map that computes the producer's body itself from the
/// producer's operands: the value is recomputed where it is read, never
/// stored (the same scalar ops in the same order: the same bits, but with
/// `base2` an `exp` becomes exp2(d * log2(e))). Only when
/// every operand of the producer is visible to the reader: defined outside
/// the producer's kernel, or the reader is in that kernel with the same
/// mapping and reads the producer's result at its own indices (then it reads
/// each operand in the threads the producer did). Returns the new map.
FailureOr<MapOp> composeInto(MapOp producer, MapOp reader, unsigned idx,
                             bool base2, RewriterBase &rewriter) {
  KernelOp home = kernelOf(producer);
  bool sameKernel = kernelOf(reader) == home;
  auto readerIface = cast<ComputeOpInterface>(reader.getOperation());
  auto producerIface = cast<ComputeOpInterface>(producer.getOperation());
  SmallVector<int64_t> sigma = readerIface.getOperandIterationDims(idx);
  if (sameKernel) {
    if (reader.getMapping() != producer.getMapping() ||
        sigma != llvm::to_vector(llvm::seq<int64_t>(0, sigma.size())))
      return failure();
  } else {
    for (Value v : producer.getInputs())
      if (Operation *def = v.getDefiningOp())
        if (kernelOf(def) == home)
          return failure();
  }
  SmallVector<Value> inputs;
  SmallVector<Attribute> indexing;
  for (auto [i, v] : llvm::enumerate(reader.getInputs())) {
    if (i == idx)
      continue;
    inputs.push_back(v);
    indexing.push_back(reader.getIndexing()[i]);
  }
  unsigned firstProducerArg = inputs.size();
  for (auto [k, v] : llvm::enumerate(producer.getInputs())) {
    inputs.push_back(v);
    SmallVector<int64_t> dims;
    for (int64_t d : producerIface.getOperandIterationDims(k))
      dims.push_back(sigma[d]);
    indexing.push_back(rewriter.getDenseI64ArrayAttr(dims));
  }
  rewriter.setInsertionPoint(reader);
  auto fused = MapOp::create(rewriter, reader.getLoc(),
                             reader.getResult().getType(), inputs,
                             rewriter.getArrayAttr(indexing),
                             reader.getMapping());
  fused->setDiscardableAttrs(reader->getDiscardableAttrDictionary());
  SmallVector<Type> argTypes;
  SmallVector<Location> argLocs;
  for (Value v : inputs) {
    argTypes.push_back(cast<RankedTensorType>(v.getType()).getElementType());
    argLocs.push_back(reader.getLoc());
  }
  OpBuilder::InsertionGuard guard(rewriter);
  Block *body =
      rewriter.createBlock(&fused.getBody(), {}, argTypes, argLocs);
  IRMapping map;
  Block &pBody = producer.getBody().front();
  for (auto [k, a] : llvm::enumerate(pBody.getArguments()))
    map.map(a, body->getArgument(firstProducerArg + k));
  for (Operation &op : pBody.without_terminator())
    rewriter.clone(op, map);
  Value produced =
      map.lookup(cast<YieldOp>(pBody.getTerminator()).getValues()[0]);
  // exp(d) as exp2(d * log2(e)) where the class allows it (the caller's
  // rewrite is mathematical already): one MUFU.EX2 instead of expf's range
  // reduction.
  if (base2)
    if (auto exp = produced.getDefiningOp<math::ExpOp>()) {
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPoint(exp);
      Location loc = exp.getLoc();
      Value log2e = arith::ConstantOp::create(
          rewriter, loc, rewriter.getF32FloatAttr(1.4426950408889634));
      Value d = arith::MulFOp::create(rewriter, loc, exp.getOperand(), log2e);
      produced = math::Exp2Op::create(rewriter, loc, d);
      rewriter.eraseOp(exp);
    }
  // The producer is exp(x - max) of x's row max (the state's): its row
  // holds 1, so a subnormal result may flush (ScalarOps.h, motif.ftz).
  if (base2)
    if (auto exp2 = produced.getDefiningOp<math::Exp2Op>())
      if (exp2.getType().isF32())
        exp2->setAttr(kFlushSubnormalAttr, rewriter.getUnitAttr());
  Block &rBody = reader.getBody().front();
  unsigned next = 0;
  for (auto [i, a] : llvm::enumerate(rBody.getArguments()))
    map.map(a, i == idx ? produced : body->getArgument(next++));
  for (Operation &op : rBody)
    rewriter.clone(op, map);
  rewriter.replaceOp(reader, fused.getResult());
  return fused;
}

std::string describeRewrite(const std::string &head, int64_t maxReaders,
                            int64_t composed, int64_t kept) {
  std::string s = head;
  llvm::raw_string_ostream os(s);
  if (maxReaders)
    os << "; the max's " << maxReaders
       << " other reader(s) read the state's max (the same bits)";
  os << "; exp(x - max) ";
  if (composed)
    os << "recomputed in its " << composed
       << " map reader(s) as exp2((x - max) * log2(e)) (never stored)";
  if (composed && kept)
    os << ", ";
  if (kept)
    os << "kept for " << kept << " other reader(s)";
  if (!composed && !kept)
    os << "removed (the sum was its only reader)";
  return s;
}

/// The first part of the remark, while the candidate's ops exist.
std::string describeCandidate(Candidate c) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "rule 4 (online softmax): the max over dims "
     << dimsText(c.max.getReductionDims()) << " of "
     << nameOf(originOf(c.max.getInputs()[0])) << " (kernel '"
     << kernelOf(c.max).getSymName() << "') and the sum of "
     << (c.exp.base2 ? "exp2" : "exp") << "(";
  if (c.exp.scale != 1.0)
    os << c.exp.scale << " * (x - max)";
  else
    os << "x - max";
  os << ") (kernel '" << kernelOf(c.sum).getSymName()
     << "') merged into one reduction carrying (max, sum); class "
        "mathematical (the sum is rescaled as the max grows); reductions over "
        "the row: 2 -> 1";
  return s;
}


//===----------------------------------------------------------------------===//
// The state (m, l, acc): softmax followed by a contraction over the same dim
//===----------------------------------------------------------------------===//

/// The constant c of a map `a * c` (either side, c finite and > 0) over one
/// input, or nullopt.
std::optional<double> scaleOf(MapOp map) {
  if (map.getInputs().size() != 1)
    return std::nullopt;
  Block &body = map.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  auto mul = yield.getValues()[0].getDefiningOp<arith::MulFOp>();
  if (!mul || &body.front() == nullptr)
    return std::nullopt;
  for (unsigned side = 0; side < 2; ++side) {
    if (mul->getOperand(1 - side) != body.getArgument(0))
      continue;
    auto c = mul->getOperand(side).getDefiningOp<arith::ConstantOp>();
    auto f = c ? dyn_cast<FloatAttr>(c.getValue()) : FloatAttr();
    if (f && f.getValueAsDouble() > 0 && std::isfinite(f.getValueAsDouble()))
      return f.getValueAsDouble();
  }
  return std::nullopt;
}

bool isIdentity(ArrayRef<int64_t> dims) {
  return llvm::equal(dims, llvm::seq<int64_t>(0, dims.size()));
}

/// The map `e / l` reading `exp` (at its own indices) and `sum` (at the row
/// dims), if `use` is such a read.
MapOp divisionOf(OpOperand *use, Value sumOrigin, bool rounded = false) {
  auto div = dyn_cast<MapOp>(use->getOwner());
  if (!div || div.getInputs().size() != 2)
    return {};
  unsigned eIdx = use->getOperandNumber(), lIdx = 1 - eIdx;
  if (originOf(div.getInputs()[lIdx]) != sumOrigin)
    return {};
  auto iface = cast<ComputeOpInterface>(div.getOperation());
  if (!isIdentity(iface.getOperandIterationDims(eIdx)))
    return {};
  Block &body = div.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  Value y = yield.getValues()[0];
  // `rounded`: the quotient may be rounded to a half type (truncf) as the
  // last op, the probabilities a half-precision contraction reads.
  if (auto t = y.getDefiningOp<arith::TruncFOp>(); rounded && t)
    y = t.getIn();
  auto d = y.getDefiningOp<arith::DivFOp>();
  if (!d || d.getLhs() != body.getArgument(eIdx) ||
      d.getRhs() != body.getArgument(lIdx) || &body.front() != d)
    return {};
  return div;
}

/// `map` rounds its one input to a half type elementwise (its body one
/// truncf), reading it at the identity indices.
bool isRounding(MapOp map) {
  if (!map || map.getInputs().size() != 1 ||
      !isIdentity(cast<ComputeOpInterface>(map.getOperation())
                      .getOperandIterationDims(0)))
    return false;
  Block &body = map.getBody().front();
  auto t = cast<YieldOp>(body.getTerminator())
               .getValues()[0]
               .getDefiningOp<arith::TruncFOp>();
  return t && &body.front() == t && t.getIn() == body.getArgument(0);
}

/// Row-block sizes the flash form may take for `rows` query rows, largest
/// first, from `sizes` (descending, the last the lowering's quantum): every
/// size whose padded rows are within 1/8 of the quantum's
/// (withinPaddingRule). Where one does not divide the rows the last block is
/// partial, its rows past the extent masked (docs/dialect.md, "Partial last
/// tiles"): 1000 rows may take blocks of 128 (1024 rows, 2.4 % masked)
/// instead of 125 blocks of 8, each of which reads every key and value.
static SmallVector<int64_t> rowBlockSizes(int64_t rows,
                                          ArrayRef<int64_t> sizes) {
  int64_t quantum = sizes.back();
  SmallVector<int64_t> out;
  for (int64_t r : sizes)
    if (withinPaddingRule(paddedExtent(rows, r), paddedExtent(rows, quantum)))
      out.push_back(r);
  return out;
}

/// Rows per block of the tensor-core flash form: 16 per m-tile, up to two
/// m-tiles per warp, up to 4 warps; of rowBlockSizes, the largest that
/// still gives 128 blocks (about one per SM of a 132-SM part), else the
/// smallest. Measured on the H200 (bf16, scripts/flash-variants.py,
/// docs/results/flash-half-variants.txt): one head S=4096 D=64 in 32 rows
/// 0.049 ms, 64 rows 0.050, 16 rows 0.063; 8 heads S=1024 in 64 rows 0.021,
/// 16 rows 0.032; 64 heads S=4096 D=128 in 128 rows 1.729 ms, 64 rows
/// 1.960.
int64_t mmaRowsPerBlock(int64_t batch, int64_t rows) {
  SmallVector<int64_t> sizes = rowBlockSizes(rows, {128, 64, 32, 16});
  for (int64_t r : sizes)
    if (batch * llvm::divideCeil(rows, r) >= 128)
      return r;
  return sizes.back();
}

/// Every reader of `v` (through materializations and kernel results) is one
/// of `allowed` and none is observable; else the reason.
std::optional<std::string> onlyReadBy(Value v, ArrayRef<Operation *> allowed,
                                      StringRef what) {
  SmallVector<OpOperand *> readers;
  readersOf(v, readers);
  for (OpOperand *u : readers)
    if (!llvm::is_contained(allowed, u->getOwner()))
      return (what + " is also read by " +
              (isa<func::ReturnOp>(u->getOwner())
                   ? std::string("the function's return")
                   : "'" + u->getOwner()->getName().getStringRef().str() +
                         "'" +
                         (kernelOf(u->getOwner())
                              ? " in kernel '" +
                                    kernelOf(u->getOwner()).getSymName().str() +
                                    "'"
                              : std::string())))
          .str();
  std::function<bool(Value)> observable = [&](Value x) {
    for (Operation *u : x.getUsers()) {
      if (auto m = dyn_cast<MaterializeOp>(u))
        if (m.getObservable() || observable(m.getResult()))
          return true;
    }
    return false;
  };
  if (observable(v))
    return (what + " is observable").str();
  return std::nullopt;
}

/// Threads of the online contraction's block for `rows` rows per block: a
/// quad of 4 threads keeps 4 rows (4 x 8 scores of a 32-key tile and 4 x 16
/// accumulators per thread, about 206 registers: each key vector read from
/// shared memory feeds 4 rows, each value vector 4 rows), or 1 row at 16
/// rows per block, where the grid is small and more warps hide the latency.
/// Measured on the H200 (scripts/flash-variants.py, 64 heads x S=4096 x D=64,
/// fp32; docs/results/flash-variants-kt32.txt): 128 rows in 128 threads
/// 7.90 ms, in 256 threads (2 rows a quad) 10.60; 64 rows in 64 threads
/// 8.52, in 128 threads 10.51; one head S=4096 (64-key tiles): 16 rows in 64
/// threads 0.415 ms, in 32 threads 0.683.
static int64_t onlineThreads(int64_t rows) {
  return rows <= 16 ? 4 * rows : rows;
}

/// Key groups of the fma flash lowering (`splits`) for `blocks` blocks of
/// `threads` threads: the largest power of two, up to 8, that keeps the grid
/// within one wave at 8 warps a SM of a 132-SM part (a quad holding 4 rows
/// takes about 216 registers a thread: 9 warps fill the register file),
/// while the block stays within 1024 threads, every group gets at least two
/// of the `tiles` key tiles, and the staged bytes (`bytesAt(s)`) within what
/// a block may opt in to. Measured on the H200 (scripts/flash-variants.py,
/// fp32, docs/results/flash-f32-splits.txt): one head S=4096 D=64 in 32-row
/// blocks with 8 groups 0.149 ms, 4 groups 0.289, 16-row blocks of 1 row a
/// thread (no groups) 0.441; 8 heads S=1024 in 64 rows with 4 groups 0.069,
/// 32 rows with 4 groups 0.078, 16 rows without 0.173.
static int64_t keyGroups(int64_t blocks, int64_t threads, int64_t tiles,
                         llvm::function_ref<int64_t(int64_t)> bytesAt) {
  int64_t s = 1, warps = llvm::divideCeil(threads, 32);
  while (s < 8 && blocks * warps * 2 * s <= 132 * 8 &&
         threads * s * 2 <= kMaxThreadsPerBlock && tiles >= 4 * s &&
         bytesAt(2 * s) <= kOnlineSharedLimit)
    s *= 2;
  return s;
}

/// Rows per block of the online contraction: the largest of 128 and 64
/// that still gives two blocks per SM of a 132-SM part (fewer rows, more
/// blocks; each block reads all the keys and values once), else 0: a
/// smaller grid is filled by splitting the keys (keyGroups), not by rows
/// of fewer per thread, and the rows are chosen with the split.
int64_t rowsPerBlock(int64_t batch, int64_t rows) {
  for (int64_t r : {128, 64})
    if (batch * llvm::divideCeil(rows, r) >= 2 * 132)
      return r;
  return 0;
}

/// Rewrites the softmax of candidate `c` and the contraction reading its
/// probabilities into one motif.online_contract, or says why not (empty
/// `why`: not this shape at all, no remark).
LogicalResult rewriteOnlineContraction(Candidate c, Equivalence cap,
                                       RewriterBase &rewriter,
                                       std::string &why, int64_t &done,
                                       StringRef chip) {
  MLIRContext *ctx = c.max.getContext();
  // x: the scores, or the scores times a constant.
  Value x = originOf(c.max.getInputs()[0]);
  auto xDef = x.getDefiningOp();
  double scale = 1.0;
  Value sVal = x;
  MapOp scaleMap;
  if (auto m = dyn_cast_or_null<MapOp>(xDef)) {
    std::optional<double> k = scaleOf(m);
    if (!k || !isIdentity(cast<ComputeOpInterface>(m.getOperation())
                              .getOperandIterationDims(0)))
      return failure();
    scale = *k;
    scaleMap = m;
    sVal = originOf(m.getInputs()[0]);
  }
  auto scores = sVal.getDefiningOp<ContractOp>();
  if (!scores)
    return failure();
  // The probabilities e / l and the contraction reading them.
  SmallVector<OpOperand *> expReaders;
  readersOf(c.exp.map.getResult(), expReaders);
  MapOp div;
  for (OpOperand *u : expReaders)
    if (MapOp d = divisionOf(u, originOf(c.sum.getResult(0)),
                             /*rounded=*/true))
      div = d;
  if (!div)
    return failure();
  // P: the quotient, or the quotient rounded to a half type by a map of
  // its own (a half contraction reads half operands).
  Value pVal = div.getResult();
  MapOp roundP;
  {
    SmallVector<OpOperand *> readers;
    readersOf(pVal, readers);
    if (readers.size() == 1)
      if (auto m = dyn_cast<MapOp>(readers[0]->getOwner()); isRounding(m)) {
        roundP = m;
        pVal = m.getResult();
      }
  }
  SmallVector<OpOperand *> pReaders;
  readersOf(pVal, pReaders);
  ContractOp pv;
  unsigned pIdx = 0;
  for (OpOperand *u : pReaders)
    if (auto k = dyn_cast<ContractOp>(u->getOwner())) {
      pv = k;
      pIdx = u->getOperandNumber();
    }
  if (!pv)
    return failure();
  std::string head =
      "rule 4 (online contraction) not applied to the softmax of kernel '" +
      kernelOf(c.max).getSymName().str() + "' and the contraction of kernel '" +
      kernelOf(pv).getSymName().str() + "': ";
  auto decline = [&](const Twine &t) {
    why = head + t.str();
    return failure();
  };
  // Shapes: the max and the sum reduce the one dim P.V contracts; the
  // scores contract one dim.
  auto pvIface = cast<ComputeOpInterface>(pv.getOperation());
  SmallVector<int64_t> pDims = pvIface.getOperandIterationDims(pIdx);
  int64_t r = cast<RankedTensorType>(pv.getResult().getType()).getRank();
  SmallVector<int64_t> pvReduced = pvIface.getReductionIterationDims();
  if (pvReduced.size() != 1 || c.max.getReductionDims().size() != 1)
    return decline("P.V contracts " + Twine(pvReduced.size()) +
                   " dims and the max reduces " +
                   Twine(c.max.getReductionDims().size()) +
                   " (the state is carried over one dim)");
  int64_t tj = c.max.getReductionDims()[0];
  if (pDims[tj] != pvReduced[0])
    return decline("P.V contracts another dim of the probabilities than the "
                   "softmax reduces");
  auto sIface = cast<ComputeOpInterface>(scores.getOperation());
  int64_t rs = cast<RankedTensorType>(scores.getResult().getType()).getRank();
  if (sIface.getReductionIterationDims().size() != 1)
    return decline("the scores contract " +
                   Twine(sIface.getReductionIterationDims().size()) +
                   " dims (one is supported)");
  // The factors and the values as the function holds them (a staged tile
  // is its tensor): an argument or a kernel result.
  auto outside = [](Value in) -> Value {
    while (auto m = in.getDefiningOp<MaterializeOp>())
      in = m.getInput();
    if (Operation *def = in.getDefiningOp(); def && kernelOf(def))
      return {};
    return in;
  };
  Value qOut = outside(scores.getLhs()), kOut = outside(scores.getRhs()),
        vOut = outside(pv.getOperand(1 - pIdx));
  if (!qOut || !kOut || !vOut)
    return decline("a factor of the scores or the values is computed in the "
                   "same kernel (the online contraction reads them from "
                   "memory)");
  // Nothing else reads what the rewrite removes.

  auto check = [&](Value v, ArrayRef<Operation *> readers,
                   StringRef what) -> std::optional<std::string> {
    return onlyReadBy(v, readers, what);
  };
  std::optional<std::string> extra;
  if (!extra)
    extra = check(c.max.getResult(0), {c.exp.map}, "the max");
  if (!extra)
    extra = check(c.exp.map.getResult(), {c.sum, div}, "exp(x - max)");
  if (!extra)
    extra = check(c.sum.getResult(0), {div}, "the sum");
  if (!extra)
    extra = check(div.getResult(), {roundP ? roundP.getOperation() : pv},
                  "the probabilities");
  if (!extra && roundP)
    extra = check(roundP.getResult(), {pv}, "the rounded probabilities");
  if (!extra && scaleMap)
    extra = check(x, {c.max, c.exp.map}, "the scaled scores");
  if (!extra)
    extra = check(sVal, scaleMap ? ArrayRef<Operation *>{scaleMap}
                                 : ArrayRef<Operation *>{c.max, c.exp.map},
                  "the scores");
  if (extra)
    return decline(*extra + " (the flash form never stores it)");
  for (Operation *u : pv.getResult().getUsers())
    if (!isa<MaterializeOp>(u) ||
        cast<MaterializeOp>(u).getResidency() != Residency::Global ||
        !llvm::all_of(u->getUsers(), [](Operation *y) {
          return isa<YieldOp>(y);
        }))
      return decline("P.V's result is read inside its kernel (the online "
                     "contraction is a kernel of its own)");
  if (cap < Equivalence::Mathematical)
    return decline("the equivalence cap is '" +
                   stringifyEquivalence(cap).str() +
                   "'; carrying (max, sum, acc) over tiles of the keys "
                   "rescales partial sums and divides after P.V (class "
                   "mathematical)");

  // The iteration space: P.V's result dims, then j = r, then d = r + 1.
  // Scores dim t is P.V dim pDims[t] (the chain reads identity indices).
  SmallVector<int64_t> sToNew(sIface.getIterationExtents().size());
  for (int64_t t = 0; t < rs; ++t)
    sToNew[t] = pDims[t] == pvReduced[0] ? r : pDims[t];
  sToNew[sIface.getReductionIterationDims()[0]] = r + 1;
  auto remap = [&](ArrayRef<int64_t> dims) {
    SmallVector<int64_t> out;
    for (int64_t d : dims)
      out.push_back(sToNew[d]);
    return out;
  };
  SmallVector<int64_t> vDims = pvIface.getOperandIterationDims(1 - pIdx);
  Value q = qOut, k = kOut;
  SmallVector<int64_t> qDims = remap(scores.getLhsDims()),
                       kDims = remap(scores.getRhsDims());
  // The first factor is the one indexed by the rows (not by the keys).
  if (llvm::is_contained(qDims, r)) {
    std::swap(q, k);
    std::swap(qDims, kDims);
  }
  Value v = vOut;
  double c0 = c.exp.scale * (c.exp.base2 ? std::log(2.0) : 1.0);
  auto yType = cast<RankedTensorType>(pv.getResult().getType());
  Type element = cast<RankedTensorType>(v.getType()).getElementType();
  bool tensorCores = element.isF16() || element.isBF16();
  // The output rounded to the operands' half type by a map of its own, in a
  // kernel of its own: the online contraction rounds once after the
  // division instead (the same rounding of the same f32 quotient).
  MapOp roundY;
  if (tensorCores) {
    SmallVector<OpOperand *> readers;
    readersOf(pv.getResult(), readers);
    if (readers.size() == 1)
      if (auto m = dyn_cast<MapOp>(readers[0]->getOwner());
          isRounding(m) && m.getResult().getType().getElementType() == element) {
        KernelOp k = kernelOf(m);
        auto mat = dyn_cast<MaterializeOp>(*m->getUsers().begin());
        if (m->hasOneUse() && mat && mat.getResidency() == Residency::Global &&
            k.getNumResults() == 1 &&
            k.getYield().getOperand(0) == mat.getResult() &&
            llvm::range_size(k.getBodyBlock().without_terminator()) == 2)
          roundY = m;
      }
    if (roundY)
      yType = cast<RankedTensorType>(roundY.getResult().getType());
  }
  // Mapping: batch dims block, the rows a tile per block, the rest seq.
  SmallVector<int64_t> extents(r + 2, 1);
  for (int64_t d = 0; d < r; ++d)
    extents[d] = yType.getDimSize(d);
  int64_t rowDim = -1, batch = 1;
  for (int64_t d = 0; d < r; ++d)
    if (llvm::is_contained(qDims, d) && !llvm::is_contained(vDims, d))
      rowDim = d;
  if (rowDim < 0 || ShapedType::isDynamic(extents[rowDim]))
    return decline("no static row dim indexes the first factor and the "
                   "result only");
  for (int64_t d = 0; d < r; ++d)
    if (d != rowDim && llvm::is_contained(qDims, d)) {
      if (ShapedType::isDynamic(extents[d]))
        return decline("a batch dim has a runtime extent");
      batch *= extents[d];
    }
  // Row tiles of rowBlockSizes: the preferred size, or the largest smaller
  // one. Where the quantum (16 on tensor cores, 8 without) does not divide
  // the rows, the last block is partial (its rows masked).
  const int64_t S = extents[rowDim];
  SmallVector<int64_t> fmaSizes = rowBlockSizes(S, {128, 64, 32, 16, 8});
  int64_t rows = 0;
  bool smallGrid = false;
  if (tensorCores) {
    rows = mmaRowsPerBlock(batch, S);
  } else {
    int64_t preferred = rowsPerBlock(batch, S);
    smallGrid = !preferred;
    if (smallGrid)
      preferred = 64; // or 32: chosen with the key groups below
    for (int64_t t : fmaSizes)
      if (t <= preferred) {
        rows = t;
        break;
      }
    if (!rows)
      rows = fmaSizes.back();
  }
  SmallVector<Attribute> mapping;
  for (int64_t d = 0; d < r + 2; ++d) {
    bool batchDim = d < r && d != rowDim && llvm::is_contained(qDims, d);
    if (d == rowDim)
      mapping.push_back(TileAttr::get(ctx, {Level::Block, Level::Seq},
                                      {0, rows}));
    else if (batchDim)
      mapping.push_back(LevelAttr::get(ctx, Level::Block));
    else
      mapping.push_back(LevelAttr::get(ctx, Level::Seq));
  }
  int64_t threads =
      tensorCores ? OnlineContractOp::defaultMmaThreads(rows)
                  : onlineThreads(rows);

  KernelOp pvKernel = kernelOf(pv);
  rewriter.setInsertionPoint(pvKernel);
  Location loc = pv.getLoc();
  auto kernel = KernelOp::create(rewriter, loc, TypeRange{yType},
                                 (pvKernel.getSymName() + "_online").str(),
                                 threads);
  rewriter.setInsertionPointToStart(&kernel.getBodyBlock());
  auto oc = OnlineContractOp::create(
      rewriter, loc, yType, q, k, v, rewriter.getDenseI64ArrayAttr(qDims),
      rewriter.getDenseI64ArrayAttr(kDims), rewriter.getDenseI64ArrayAttr(vDims),
      rewriter.getF64FloatAttr(scale * c0), rewriter.getArrayAttr(mapping),
      IntegerAttr(), IntegerAttr());
  // Small grids: split the keys over groups of threads; the rows per
  // block (64 or 32, 4 a quad) are those that then give the grid the most
  // warps, 64 on a tie (each block reads the keys once for more rows).
  int64_t splits = 1;
  if (!tensorCores) {
    SmallVector<int64_t> ext = oc.getIterationExtents();
    int64_t keys = ext[oc.getKeyDim()];
    auto withRows = [&](int64_t r) {
      mapping[rowDim] =
          TileAttr::get(ctx, {Level::Block, Level::Seq}, {0, r});
      oc.setMappingAttr(rewriter.getArrayAttr(mapping));
    };
    auto groupsFor = [&](int64_t r) {
      withRows(r);
      return keyGroups(batch * llvm::divideCeil(S, r), onlineThreads(r),
                       llvm::divideCeil(keys, kOnlineKeyTile), [&](int64_t s) {
                         oc.setSplitsAttr(rewriter.getI64IntegerAttr(s));
                         return oc.getStagedBytes();
                       });
    };
    if (smallGrid) {
      int64_t bestWarps = 0;
      for (int64_t r : {rows, rows / 2}) {
        if (r < 32 || !llvm::is_contained(fmaSizes, r))
          continue;
        int64_t s = groupsFor(r);
        int64_t warps = batch * llvm::divideCeil(S, r) * (r / 32) * s;
        if (warps > bestWarps) {
          bestWarps = warps;
          rows = r;
        }
      }
      threads = onlineThreads(rows);
    }
    splits = groupsFor(rows);
    if (splits > 1)
      oc.setSplitsAttr(rewriter.getI64IntegerAttr(splits));
    else
      oc.removeSplitsAttr();
    threads *= splits;
    kernel.setThreads(threads);
  }
  // On sm_90a, where P V runs on wgmma (OnlineContractOp::prefersWgmmaPV,
  // P in registers): 128 rows in two warpgroups of 64 (threads(256),
  // 64-key tiles) and 4 stages where they fit, P V one key tile behind the
  // scores. Measured on the H200, bf16 64 heads x 4096: D = E = 128 1.127
  // ms against 1.365 in one warpgroup of 3 stages with P through shared
  // memory; D = E = 64 0.626 against 0.662 in one warpgroup of 3 stages
  // (docs/results/flash-variants-p-registers-defaults.txt).
  if (tensorCores && chip == "sm_90a" && rows == 128) {
    kernel.setThreads(256);
    if (oc.prefersWgmmaPV()) {
      threads = 256;
      oc.setStagesAttr(rewriter.getI64IntegerAttr(4));
      if (!oc.hasWgmmaPV())
        oc.removeStagesAttr();
    } else {
      kernel.setThreads(threads);
    }
  }
  bool observable = false;
  for (Operation *u : pv.getResult().getUsers())
    observable |= cast<MaterializeOp>(u).getObservable();
  if (roundY)
    observable |=
        cast<MaterializeOp>(*roundY->getUsers().begin()).getObservable();
  auto out = MaterializeOp::create(rewriter, loc, yType, oc.getResult(),
                                   Residency::Global, observable);
  // (The builder's body ends in an empty yield.)
  YieldOp yield = kernel.getYield();
  rewriter.modifyOpInPlace(yield, [&] {
    yield.getValuesMutable().assign(ValueRange{out.getResult()});
  });
  {
    // The shape the verifier holds it to (roles, mapping): a program it
    // refuses is declined, not rewritten.
    std::string diag;
    ThreadDiagnosticHandler capture(ctx, [&](Diagnostic &d) {
      diag = d.str();
      return success();
    });
    if (failed(oc.verifyRegions()) || failed(oc.verify())) {
      rewriter.eraseOp(kernel);
      return decline("the online contraction would not verify: " + diag);
    }
  }
  // What the flash lowering takes: a program it cannot lower is declined
  // here, not refused later by convert-motif-to-gpu.
  if (std::optional<std::string> limit = oc.getLoweringLimit(threads)) {
    rewriter.eraseOp(kernel);
    return decline("the online contraction " + *limit);
  }
  // On sm_90a the lowering runs the scores on wgmma where it can (the
  // op's own rule, so the remark and the kernel agree).
  std::string wgmmaScores;
  if (std::optional<int64_t> n = oc.getWgmmaScoresN()) {
    wgmmaScores = "; compiled for sm_90a, S = Q K^T on wgmma.mma_async m64n" +
                  std::to_string(*n) + "k16 from swizzled shared Q and K tiles";
    int64_t e = oc.getIterationExtents()[oc.getValueDim()];
    std::string pv = "P V on wgmma.mma_async m64n" + std::to_string(e) +
                     "k16, P rounded in registers as its A operand "
                     "(motif_nvvm.wgmma_rs), V MN-major";
    if (oc.prefersWgmmaPV()) {
      wgmmaScores += ", and " + pv + " (online-wgmma-pv=auto)";
      if (oc.getKeyStages() >= 3) {
        wgmmaScores += ", one key tile behind the scores (online-overlap=auto)";
        if (threads == 256)
          wgmmaScores +=
              std::string(", in two warpgroups of 64 rows") +
              (e >= 128 ? " taking turns at the tensor cores, the stages "
                          "tracked by mbarriers (online-pingpong=auto, "
                          "online-mbarrier=auto: a value extent of 128 or "
                          "more)"
                        : "");
      } else if (threads == 256) {
        wgmmaScores += ", in two warpgroups of 64 rows";
      }
    }
  }
  std::string rule;
  {
    llvm::raw_string_ostream os(rule);
    os << "rule 4 (online contraction): the softmax over dim "
       << dimsText(c.max.getReductionDims()) << " of the scores (kernel '"
       << kernelOf(scores).getSymName() << "'"
       << (scaleMap
               ? ", scaled in '" + kernelOf(scaleMap).getSymName().str() + "'"
               : std::string())
       << "; max '" << kernelOf(c.max).getSymName() << "', exp '"
       << kernelOf(c.exp.map).getSymName() << "', sum '"
       << kernelOf(c.sum).getSymName() << "', divide '"
       << kernelOf(div).getSymName() << "') and its contraction with "
       << nameOf(v) << " (kernel '" << pvKernel.getSymName() << "')"
       << (roundP ? " (P rounded to " + typeText(element) + " in '" +
                        kernelOf(roundP).getSymName().str() + "')"
                  : std::string())
       << (roundY ? ", rounded to " + typeText(element) + " in '" +
                        kernelOf(roundY).getSymName().str() + "',"
                  : std::string())
       << " merged into one motif.online_contract in kernel '"
       << kernel.getSymName() << "', carrying (max, sum, acc) over tiles of "
       << "the keys, " << rows << " rows per block"
       << (S % rows
               ? " (the last of " + Twine(llvm::divideCeil(S, rows)).str() +
                     " partial, its rows past " + Twine(S).str() + " masked)"
               : std::string())
       << (tensorCores
               ? " in " + Twine(threads).str() + " threads (" +
                     Twine(oc.getMmaWarpsAndTiles().first).str() +
                     (oc.getMmaWarpsAndTiles().first == 1 ? " warp of "
                                                          : " warps of ") +
                     Twine(oc.getMmaWarpsAndTiles().second).str() +
                     (oc.getMmaWarpsAndTiles().second == 1 ? " m-tile, "
                                                           : " m-tiles, ") +
                     Twine(oc.getKeyTile()).str() + "-key tiles, " +
                     Twine(oc.getKeyStages()).str() + " stages)"
               : std::string())
       << (splits > 1 ? ", the keys split over " + Twine(splits).str() +
                            " groups of " + Twine(threads / splits).str() +
                            " threads (their partial states merged at the end)"
                      : std::string())
       << (tensorCores
               ? " on tensor cores (mma.sync m16n8k16 " + typeText(element) +
                     ", f32 accumulators; S and P in accumulator fragments" +
                     wgmmaScores + ")"
               : std::string())
       << "; scale " << scale * c0
       << " (exp as exp2, log2(e) folded in); class "
          "mathematical (partial sums rescaled as the max grows; the division "
          "after the contraction); the scores and the probabilities are "
          "never stored";
  }
  // Readers of P.V's kernel results (or of its rounding) read the online
  // kernel's.
  if (roundY)
    rewriter.replaceAllUsesWith(kernelOf(roundY).getResult(0),
                                kernel.getResult(0));
  else
    for (OpResult res : pvKernel.getResults()) {
      Value yielded = pvKernel.getYield().getOperand(res.getResultNumber());
      if (auto m = yielded.getDefiningOp<MaterializeOp>();
          m && m.getInput() == pv.getResult())
        rewriter.replaceAllUsesWith(res, kernel.getResult(0));
    }
  oc->setAttr("motif.rewrite", StringAttr::get(ctx, rule));
  oc.emitRemark() << rule;
  ++done;
  return success();
}

} // namespace

int64_t mlir::motif::rewriteOnlineSoftmax(
    func::FuncOp func, Equivalence cap, RewriterBase &rewriter,
    llvm::function_ref<std::string(ReduceOp)> gate, StringRef chip) {
  // Rewrites erase and rebuild kernels: look for the next max afresh each
  // time, skipping those already declined.
  llvm::DenseSet<Operation *> declined;
  auto nextMax = [&]() -> ReduceOp {
    ReduceOp found;
    func.walk([&](ReduceOp r) {
      if (r.getKind() == CombinerKind::Max && r.getInputs().size() == 1 &&
          cast<RankedTensorType>(r.getResult(0).getType())
              .getElementType()
              .isF32() &&
          !declined.contains(r.getOperation())) {
        found = r;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    return found;
  };
  int64_t rewritten = 0;
  MLIRContext *ctx = func.getContext();
  while (ReduceOp max = nextMax()) {
    std::string why;
    FailureOr<Candidate> found = findCandidate(max, why);
    if (failed(found)) {
      if (!why.empty())
        max.emitRemark() << "rule 4 (online softmax) not applied: " << why;
      declined.insert(max);
      continue;
    }
    Candidate c = *found;
    // (m, l, acc) first: a softmax whose probabilities are contracted over
    // the same dim becomes the flash form, whatever the row gate says.
    {
      std::string whyNot;
      int64_t before = rewritten;
      if (succeeded(rewriteOnlineContraction(c, cap, rewriter, whyNot,
                                             rewritten, chip))) {
        SmallVector<KernelOp> kernels =
            llvm::to_vector(func.getBody().front().getOps<KernelOp>());
        for (KernelOp k : llvm::reverse(kernels))
          dropDeadResults(k, rewriter);
        (void)before;
        continue;
      }
      if (!whyNot.empty())
        max.emitRemark() << whyNot;
    }
    if (cap < Equivalence::Mathematical) {
      max.emitRemark()
          << "rule 4 (online softmax) not applied: the equivalence cap is '"
          << stringifyEquivalence(cap)
          << "'; merging the max with the sum of exp(x - max) (kernel '"
          << kernelOf(c.sum).getSymName()
          << "') rescales partial sums (class mathematical)";
      declined.insert(max);
      continue;
    }
    if (gate) {
      std::string no = gate(max);
      if (!no.empty()) {
        max.emitRemark() << "rule 4 (online softmax) not applied: " << no;
        declined.insert(max);
        continue;
      }
    }

    Type xElement =
        cast<RankedTensorType>(max.getInputs()[0].getType()).getElementType();
    if (!xElement.isF32()) {
      // The state reduction is a combiner region, which folds f32 inputs
      // (docs/dialect.md, "Element types").
      max.emitRemark() << "rule 4 (online softmax) not applied: the max is "
                          "over "
                       << xElement
                       << " elements and the (max, sum) state is folded by a "
                          "combiner region of f32 inputs (not built for half "
                          "inputs yet)";
      declined.insert(max);
      continue;
    }
    SmallVector<OpOperand *> maxUses;
    readersOf(max.getResult(0), maxUses);
    int64_t otherMaxReaders = 0;
    for (OpOperand *u : maxUses)
      otherMaxReaders += u->getOwner() != c.exp.map.getOperation();
    std::string head = describeCandidate(c);

    // The state reduction, where the max was: x seeded with (x, 1).
    Location loc = max.getLoc();
    KernelOp home = kernelOf(max);
    Value x = max.getInputs()[0];
    auto xType = cast<RankedTensorType>(x.getType());
    auto rowType = cast<RankedTensorType>(max.getResult(0).getType());
    rewriter.setInsertionPoint(max);
    // A constant map (no operands): its register materialization has no
    // slots, every reader makes the 1 itself (constantOf).
    auto ones = MapOp::create(rewriter, loc, xType, ValueRange{},
                              rewriter.getArrayAttr({}), max.getMapping());
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.createBlock(&ones.getBody(), {}, {}, {});
      Value one = arith::ConstantOp::create(rewriter, loc,
                                            rewriter.getF32FloatAttr(1.0));
      YieldOp::create(rewriter, loc, one);
    }
    auto onesReg = MaterializeOp::create(rewriter, loc, xType,
                                         ones.getResult(), Residency::Register,
                                         /*observable=*/false);
    onesReg->setAttr(
        "motif.rule",
        StringAttr::get(ctx, "rule 4: the online state's seed (x, 1): a "
                             "constant map, no slots"));
    auto init = rewriter.getArrayAttr(
        {rewriter.getF32FloatAttr(-std::numeric_limits<float>::infinity()),
         rewriter.getF32FloatAttr(0.0)});
    auto state = ReduceOp::create(
        rewriter, loc, TypeRange{rowType, rowType},
        ValueRange{x, onesReg.getResult()}, max.getReductionDimsAttr(),
        CombinerKindAttr(), init, max.getMapping());
    {
      OpBuilder::InsertionGuard guard(rewriter);
      buildCombiner(state, c.exp, rewriter);
    }
    // The max: the state's first component, bit for bit.
    rewriter.replaceAllUsesWith(max.getResult(0), state.getResult(0));
    rewriter.eraseOp(max);

    // The sum: the state's second component, wherever the sum was read.
    ReduceOp sum = c.sum;
    KernelOp sumKernel = kernelOf(sum);
    if (sumKernel == home) {
      // (The sum, now dead, goes with the clean-up below.)
      rewriter.replaceAllUsesWith(sum.getResult(0), state.getResult(1));
    } else {
      // The state's kernel yields the sum; the sum's kernel stops computing it.
      bool observable = false;
      for (Operation *u : sum.getResult(0).getUsers())
        if (auto m = dyn_cast<MaterializeOp>(u))
          observable |= m.getObservable();
      rewriter.setInsertionPoint(home.getYield());
      auto out = MaterializeOp::create(rewriter, loc, rowType,
                                       state.getResult(1), Residency::Global,
                                       observable);
      SmallVector<Value> yielded(home.getYield().getValues());
      yielded.push_back(out.getResult());
      home = rebuildKernel(home, yielded, rewriter);
      Value exported = home.getResults().back();
      for (Operation *u : llvm::to_vector(sum.getResult(0).getUsers())) {
        auto m = cast<MaterializeOp>(u);
        for (OpOperand &use : llvm::make_early_inc_range(m.getResult().getUses())) {
          if (isa<YieldOp>(use.getOwner()))
            rewriter.replaceAllUsesWith(
                sumKernel.getResult(use.getOperandNumber()), exported);
          else
            rewriter.modifyOpInPlace(use.getOwner(),
                                     [&] { use.set(exported); });
        }
      }
    }
    // exp(x - max): recomputed by the maps that read it (the division of
    // softmax, of attention), so it is never stored; kept for other readers.
    int64_t composed = 0, kept = 0;
    {
      SmallVector<OpOperand *> uses;
      readersOf(c.exp.map.getResult(), uses);
      llvm::DenseMap<Operation *, int64_t> reads;
      llvm::erase_if(uses, [&](OpOperand *u) {
        return u->getOwner() == sum.getOperation();
      });
      for (OpOperand *u : uses)
        ++reads[u->getOwner()];
      SmallVector<std::pair<MapOp, unsigned>> maps;
      for (OpOperand *u : uses) {
        auto d = dyn_cast<MapOp>(u->getOwner());
        if (d && reads[d] == 1)
          maps.push_back({d, u->getOperandNumber()});
        else
          ++kept;
      }
      for (auto [d, idx] : maps) {
        if (succeeded(composeInto(c.exp.map, d, idx, /*base2=*/true, rewriter)))
          ++composed;
        else
          ++kept;
      }
    }
    // What nothing reads any more: consumers first.
    SmallVector<KernelOp> kernels =
        llvm::to_vector(func.getBody().front().getOps<KernelOp>());
    for (KernelOp k : llvm::reverse(kernels))
      dropDeadResults(k, rewriter);

    std::string rule = describeRewrite(head, otherMaxReaders, composed, kept);
    state->setAttr("motif.rewrite", StringAttr::get(ctx, rule));
    state.emitRemark() << rule;
    ++rewritten;
  }
  if (rewritten && func->hasAttr(kInvariantsAttrName))
    func->setAttr(kInvariantsAttrName, computeInvariants(func));
  return rewritten;
}

namespace {
struct OnlineSoftmaxPass
    : public motif::impl::MotifOnlineSoftmaxBase<OnlineSoftmaxPass> {
  using MotifOnlineSoftmaxBase::MotifOnlineSoftmaxBase;

  LogicalResult initialize(MLIRContext *ctx) override {
    std::optional<Equivalence> c = symbolizeEquivalence(equivalenceCap);
    if (!c)
      return emitError(UnknownLoc::get(ctx))
             << "motif-online-softmax: unknown equivalence cap '"
             << equivalenceCap
             << "' (expected bitwise, tolerance, mathematical or semantic)";
    cap = *c;
    return success();
  }

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    IRRewriter rewriter(&getContext());
    int64_t n = rewriteOnlineSoftmax(func, cap, rewriter);
    numRewritten += n;
    if (!n) {
      markAllAnalysesPreserved();
      return;
    }
    recordEquivalence(func, Equivalence::Mathematical);
  }

  Equivalence cap = Equivalence::Mathematical;
};
} // namespace
