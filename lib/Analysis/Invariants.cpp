//===- Invariants.cpp - what every rewrite must preserve ------------------===//
#include "motif/Analysis/Invariants.h"
#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace mlir;
using namespace mlir::motif;

namespace {
using ArgSet = std::set<int64_t>;

struct Facts {
  llvm::DenseMap<Value, ArgSet> deps;
  /// (domain text, op) for every reduction or contraction.
  SmallVector<std::pair<std::string, Operation *>> reductions;
  int64_t observables = 0;
};
} // namespace

static std::string fmtSet(const ArgSet &s) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "{";
  llvm::interleaveComma(s, os, [&](int64_t a) { os << "arg" << a; });
  os << "}";
  return out;
}

static Facts collect(func::FuncOp func) {
  Facts f;
  for (BlockArgument arg : func.getArguments())
    f.deps[arg] = {static_cast<int64_t>(arg.getArgNumber())};
  auto depsOf = [&](ValueRange values) {
    ArgSet s;
    for (Value v : values) {
      auto it = f.deps.find(v);
      if (it != f.deps.end())
        s.insert(it->second.begin(), it->second.end());
    }
    return s;
  };
  // Post-order: a kernel's body is visited before the kernel itself.
  func.walk([&](Operation *op) {
    if (auto motif = dyn_cast<ComputeOpInterface>(op)) {
      ArgSet s = depsOf(op->getOperands());
      for (Value r : op->getResults())
        f.deps[r] = s;
      SmallVector<int64_t> reduced;
      SmallVector<int64_t> extents = motif.getIterationExtents();
      for (int64_t d : motif.getReductionIterationDims())
        reduced.push_back(extents[d]);
      std::string combiner;
      if (auto red = dyn_cast<ReduceOp>(op))
        combiner = red.getKind() ? stringifyCombinerKind(*red.getKind()).str()
                                 : "combiner/" + std::to_string(
                                                     red.getInputs().size());
      else if (isa<ContractOp>(op))
        combiner = "sum-of-products";
      if (!combiner.empty()) {
        std::string text;
        llvm::raw_string_ostream os(text);
        os << combiner << " over [";
        llvm::interleaveComma(reduced, os);
        os << "] of " << fmtSet(s);
        f.reductions.push_back({text, op});
      }
    } else if (auto mat = dyn_cast<MaterializeOp>(op)) {
      f.deps[mat.getResult()] = depsOf(mat.getInput());
      if (mat.getObservable())
        ++f.observables;
    } else if (auto kernel = dyn_cast<KernelOp>(op)) {
      for (auto [r, y] : llvm::zip(kernel.getResults(),
                                   kernel.getYield().getOperands()))
        f.deps[r] = depsOf(y);
    }
  });
  return f;
}

static SmallVector<ArgSet> resultDeps(func::FuncOp func, Facts &f) {
  SmallVector<ArgSet> out;
  func.walk([&](func::ReturnOp ret) {
    for (Value v : ret.getOperands())
      out.push_back(f.deps.lookup(v));
  });
  return out;
}

DictionaryAttr mlir::motif::computeInvariants(func::FuncOp func) {
  Builder b(func.getContext());
  Facts f = collect(func);
  SmallVector<Attribute> deps;
  for (const ArgSet &s : resultDeps(func, f))
    deps.push_back(b.getDenseI64ArrayAttr(SmallVector<int64_t>(s.begin(), s.end())));
  SmallVector<std::string> texts;
  for (auto &r : f.reductions)
    texts.push_back(r.first);
  llvm::sort(texts);
  SmallVector<Attribute> reds;
  for (const std::string &t : texts)
    reds.push_back(b.getStringAttr(t));
  return b.getDictionaryAttr({
      b.getNamedAttr("deps", b.getArrayAttr(deps)),
      b.getNamedAttr("reductions", b.getArrayAttr(reds)),
      b.getNamedAttr("observables", b.getI64IntegerAttr(f.observables)),
  });
}

LogicalResult mlir::motif::verifyInvariants(func::FuncOp func,
                                            DictionaryAttr expected) {
  auto deps = expected.getAs<ArrayAttr>("deps");
  auto reds = expected.getAs<ArrayAttr>("reductions");
  auto obs = expected.getAs<IntegerAttr>("observables");
  if (!deps || !reds || !obs)
    return func.emitError() << "'" << kInvariantsAttrName
                            << "' must hold deps, reductions and observables";
  Facts f = collect(func);
  SmallVector<ArgSet> actual = resultDeps(func, f);
  if (actual.size() != deps.size())
    return func.emitError() << "has " << actual.size()
                            << " results but the original had " << deps.size();
  func::ReturnOp ret;
  func.walk([&](func::ReturnOp r) { ret = r; });
  for (auto [i, a] : llvm::enumerate(deps)) {
    auto arr = dyn_cast<DenseI64ArrayAttr>(a);
    ArgSet want = arr ? ArgSet(arr.asArrayRef().begin(), arr.asArrayRef().end())
                      : ArgSet();
    if (want != actual[i])
      return ret.emitError() << "dependence set changed: result #" << i
                             << " depends on " << fmtSet(actual[i])
                             << " but the original depended on "
                             << fmtSet(want);
  }
  std::multiset<std::string> want;
  for (Attribute a : reds)
    want.insert(cast<StringAttr>(a).getValue().str());
  for (auto &[text, op] : f.reductions) {
    auto it = want.find(text);
    if (it == want.end())
      return op->emitError() << "reduction domain changed: '" << text
                             << "' is not a reduction of the original";
    want.erase(it);
  }
  if (!want.empty())
    return func.emitError() << "reduction domain lost: the original's '"
                            << *want.begin() << "' is computed nowhere";
  if (f.observables != obs.getInt())
    return func.emitError() << "observable values changed: "
                            << f.observables << " observable materializations, "
                            << "the original had " << obs.getInt();
  return success();
}
