//===- ExecutionScope.cpp - who computes and who reads an element ---------===//
#include "motif/Analysis/ExecutionScope.h"

#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::motif;

StringRef mlir::motif::stringifyScope(Scope s) {
  switch (s) {
  case Scope::SameThread:
    return "same thread";
  case Scope::SameBlock:
    return "same block";
  case Scope::CrossBlock:
    return "other blocks";
  }
  llvm_unreachable("unknown scope");
}

static bool isThreadLevel(Level l) {
  return l == Level::Thread || l == Level::Warp || l == Level::Lane;
}

/// Levels that place an index in a particular block.
static bool isGridLevel(Level l) {
  return l == Level::Block || l == Level::BlockWarp;
}

static std::string fmt(ArrayRef<int64_t> v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(v, os);
  os << "]";
  return s;
}

EdgeScope mlir::motif::classifyEdge(ComputeOpInterface producer, Value,
                                    ComputeOpInterface consumer,
                                    unsigned operandIndex) {
  SmallVector<int64_t> pDims = producer.getResultIterationDims();
  SmallVector<int64_t> cDims = consumer.getOperandIterationDims(operandIndex);
  std::string why;
  llvm::raw_string_ostream os(why);

  if (producer.getGridExtents() != consumer.getGridExtents()) {
    os << "the producer runs on grid " << fmt(producer.getGridExtents())
       << " but the consumer on " << fmt(consumer.getGridExtents());
    return {Scope::CrossBlock, why};
  }
  for (int64_t d : producer.getReductionIterationDims())
    if (isGridLevel(producer.getLevel(d))) {
      os << "the producer reduces across blocks";
      return {Scope::CrossBlock, why};
    }
  // Block coordinates: the value's dims must reach the grid in the same order
  // and the same way (a whole block per index, or a warp per index).
  SmallVector<int64_t> pBlockOrder, cBlockOrder;
  for (unsigned d = 0, e = producer.getIterationExtents().size(); d < e; ++d)
    if (isGridLevel(producer.getLevel(d)))
      pBlockOrder.push_back((llvm::find(pDims, d) - pDims.begin()) * 2 +
                            (producer.getLevel(d) == Level::BlockWarp));
  for (unsigned d = 0, e = consumer.getIterationExtents().size(); d < e; ++d)
    if (isGridLevel(consumer.getLevel(d))) {
      auto *it = llvm::find(cDims, static_cast<int64_t>(d));
      if (it == cDims.end()) {
        os << "every block of the consumer's block dim #" << d
           << " reads the whole value";
        return {Scope::CrossBlock, why};
      }
      cBlockOrder.push_back((it - cDims.begin()) * 2 +
                            (consumer.getLevel(d) == Level::BlockWarp));
    }
  if (pBlockOrder != cBlockOrder) {
    auto grid = [](ArrayRef<int64_t> order) {
      std::string s;
      llvm::raw_string_ostream gs(s);
      gs << "[";
      llvm::interleaveComma(order, gs, [&](int64_t o) {
        gs << "dim " << o / 2 << (o % 2 ? " per warp" : " per block");
      });
      gs << "]";
      return s;
    };
    os << "producer and consumer spread the value over the grid differently ("
       << grid(pBlockOrder) << " vs " << grid(cBlockOrder) << ")";
    return {Scope::CrossBlock, why};
  }

  // Levels the producer all-reduced over: their threads all own the result.
  llvm::SmallSet<Level, 4> replicated;
  for (int64_t d : producer.getReductionIterationDims())
    if (isThreadLevel(producer.getLevel(d)))
      replicated.insert(producer.getLevel(d));
  if (replicated.contains(Level::Thread)) {
    replicated.insert(Level::Warp);
    replicated.insert(Level::Lane);
  }

  for (auto [a, pd] : llvm::enumerate(pDims)) {
    Level lp = producer.getLevel(pd);
    Level lc = consumer.getLevel(cDims[a]);
    if (lp == lc || (lp == Level::Seq && replicated.contains(lc)))
      continue;
    os << "dim " << a << " is computed at '" << stringifyLevel(lp)
       << "' but read at '" << stringifyLevel(lc) << "'";
    return {Scope::SameBlock, why};
  }
  for (unsigned d = 0, e = consumer.getIterationExtents().size(); d < e; ++d) {
    if (llvm::is_contained(cDims, static_cast<int64_t>(d)))
      continue;
    Level l = consumer.getLevel(d);
    if (l == Level::Seq || replicated.contains(l))
      continue;
    os << "the consumer broadcasts it over '" << stringifyLevel(l)
       << "' but only one thread of that level computes each element";
    return {Scope::SameBlock, why};
  }
  if (!replicated.empty())
    os << "every reader owns the element (the all-reduce over '"
       << stringifyLevel(*replicated.begin()) << "' leaves it in each thread)";
  else
    os << "each element is read by the thread that computes it";
  return {Scope::SameThread, why};
}

int64_t mlir::motif::elementsPerThread(ComputeOpInterface producer, Value,
                                       int64_t threads) {
  SmallVector<int64_t> extents = producer.getIterationExtents();
  int64_t warps = std::max<int64_t>(1, threads / kWarpSize);
  int64_t lanes = std::min<int64_t>(threads, kWarpSize);
  int64_t n = 1;
  for (int64_t d : producer.getResultIterationDims()) {
    int64_t e = extents[d];
    switch (producer.getLevel(d)) {
    case Level::Block:
    case Level::BlockWarp:
      break;
    case Level::Thread:
      n *= llvm::divideCeil(e, threads);
      break;
    case Level::Warp:
      n *= llvm::divideCeil(e, warps);
      break;
    case Level::Lane:
      n *= llvm::divideCeil(e, lanes);
      break;
    case Level::Seq:
      n *= e;
      break;
    }
  }
  return n;
}

int64_t mlir::motif::bytesPerBlock(ComputeOpInterface producer, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t bytes = llvm::divideCeil(type.getElementTypeBitWidth(), 8);
  SmallVector<int64_t> extents = producer.getIterationExtents();
  for (int64_t d : producer.getResultIterationDims()) {
    Level l = producer.getLevel(d);
    if (l == Level::BlockWarp) // one index per warp of the block
      bytes *= std::min(extents[d], warpsPerBlockOf(producer.getOperation()));
    else if (l != Level::Block)
      bytes *= extents[d];
  }
  return bytes;
}

bool mlir::motif::reducesAcrossThreads(ComputeOpInterface op) {
  for (int64_t d : op.getReductionIterationDims())
    if (isThreadLevel(op.getLevel(d)))
      return true;
  return false;
}
