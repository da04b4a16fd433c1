//===- Generator.cpp - random motif programs, seeded ----------------------===//
#include "motif/Fuzz/Generator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>
#include <set>

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::fuzz;

int Spec::numArguments() const {
  int n = 0;
  for (const Node &node : nodes)
    n += node.kind == Node::Kind::Argument;
  return n;
}

bool Node::isTiled() const {
  return llvm::any_of(tiles, [](const TileNest &t) { return !t.empty(); });
}

bool Node::hasSizedThreads() const {
  for (const TileNest &t : tiles)
    for (const TileLevel &l : t)
      if (isThreadDigit(l.first))
        return true;
  return false;
}

static bool nestHas(ArrayRef<TileLevel> nest, Level level) {
  return llvm::any_of(nest, [&](const TileLevel &l) { return l.first == level; });
}

static bool nestHasThreadDigit(ArrayRef<TileLevel> nest) {
  return llvm::any_of(nest,
                      [](const TileLevel &l) { return isThreadDigit(l.first); });
}

void mlir::motif::fuzz::untile(Node &n) {
  // With sized thread levels the motif has no unsized thread, warp or lane
  // level (the verifier's rule), so one dim may take `thread`; without,
  // every nest is block and seq digits only.
  bool thread = false;
  for (auto [i, nest] : llvm::enumerate(n.tiles)) {
    if (nest.empty())
      continue;
    if (nestHas(nest, Level::Block))
      n.levels[i] = Level::Block;
    else if (nestHasThreadDigit(nest) && !thread)
      n.levels[i] = Level::Thread;
    else
      n.levels[i] = Level::Seq;
    thread |= n.levels[i] == Level::Thread;
  }
  n.tiles.clear();
}

int64_t mlir::motif::fuzz::handThreads(const Spec &spec, const Node &n) {
  return n.hasSizedThreads() ? n.threads : spec.threads;
}

void mlir::motif::fuzz::untileStale(Spec &spec) {
  for (Node &n : spec.nodes) {
    if (!n.isTiled())
      continue;
    bool fits = true;
    int64_t threads = 1;
    for (auto [i, nest] : llvm::enumerate(n.tiles)) {
      if (nest.empty())
        continue;
      int64_t product = 1;
      for (const TileLevel &l : nest) {
        product *= l.second;
        if (isThreadDigit(l.first))
          threads *= l.second;
      }
      fits &= product == spec.extents[n.iterDims[i]];
    }
    if (!fits || (n.hasSizedThreads() && threads != n.threads))
      untile(n);
  }
}

StringRef mlir::motif::fuzz::stringifyElemType(ElemType t) {
  switch (t) {
  case ElemType::F32:
    return "f32";
  case ElemType::BF16:
    return "bf16";
  case ElemType::F16:
    return "f16";
  }
  return "?";
}

bool mlir::motif::fuzz::fixTypes(Spec &spec) {
  bool changed = false;
  auto set = [&](Node &n, ElemType t) {
    changed |= n.elem != t;
    n.elem = t;
  };
  // An operand that must hold f32 goes back to f32 where it is made: through
  // broadcasts and transposes, which keep the type, to its map or argument.
  std::function<void(ValueRef)> demote = [&](ValueRef v) {
    Node &n = spec.nodes[v.node];
    set(n, ElemType::F32);
    if (n.kind == Node::Kind::Broadcast || n.kind == Node::Kind::Transpose)
      demote(n.operands[0]);
  };
  for (bool again = true; again;) {
    again = false;
    // Nodes come in program order: an operand's type is final before its
    // readers are looked at, and a demotion only ever makes a type f32.
    for (Node &n : spec.nodes) {
      auto elemOf = [&](int k) { return spec.nodes[n.operands[k].node].elem; };
      switch (n.kind) {
      case Node::Kind::Argument:
      case Node::Kind::Map:
        break;
      case Node::Kind::Broadcast:
      case Node::Kind::Transpose:
        set(n, elemOf(0));
        break;
      case Node::Kind::Reduce:
        set(n, ElemType::F32);
        // A combiner region (the lawless one) folds f32 states.
        if (n.lawless && elemOf(0) != ElemType::F32) {
          demote(n.operands[0]);
          again = true;
        }
        break;
      case Node::Kind::Combine:
        set(n, ElemType::F32);
        for (int k = 0; k < 2; ++k)
          if (elemOf(k) != ElemType::F32) {
            demote(n.operands[k]);
            again = true;
          }
        break;
      case Node::Kind::Contract:
        set(n, ElemType::F32);
        if (elemOf(0) != elemOf(1)) {
          demote(n.operands[elemOf(0) != ElemType::F32 ? 0 : 1]);
          again = true;
        }
        break;
      }
    }
  }
  // A body computes in f32 or in its map's own 16-bit type.
  for (Node &n : spec.nodes)
    if (n.bodyElem != ElemType::F32 && n.bodyElem != n.elem) {
      n.bodyElem = n.elem;
      changed = true;
    }
  bool half = llvm::any_of(
      spec.nodes, [](const Node &n) { return n.elem != ElemType::F32; });
  changed |= spec.half != half;
  spec.half = half;
  return changed;
}

StringRef mlir::motif::fuzz::stringifyDefect(Defect d) {
  switch (d) {
  case Defect::None:
    return "none";
  case Defect::IllegalResidency:
    return "illegal-residency";
  case Defect::TreeBlockSize:
    return "tree-block-size";
  case Defect::ReduceAcrossBlocks:
    return "reduce-across-blocks";
  case Defect::RegisterOfArgument:
    return "register-of-argument";
  case Defect::ZeroExtent:
    return "zero-extent";
  case Defect::TwoThreadDims:
    return "two-thread-dims";
  case Defect::LawlessCombiner:
    return "lawless-combiner";
  case Defect::GridMismatch:
    return "grid-mismatch";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Generation
//===----------------------------------------------------------------------===//

namespace {
class ProgramBuilder {
public:
  // Tiling draws from its own generator: a program no nest is chosen for is
  // the program the seed gave before tiles existed (up to the extents).
  explicit ProgramBuilder(uint64_t seed)
      : rng(seed), tileRng(seed ^ 0x74696c6573ull),
        warpRng(seed ^ 0x7761727073ull), clusterRng(seed ^ 0x636c7573ull),
        typeRng(seed ^ 0x7479706573ull), rowsRng(seed ^ 0x726f7773ull),
        runtimeRowsRng(seed ^ 0x64796e726f7774ull),
        gemmRng(seed ^ 0x67656d6full), partialRng(seed ^ 0x7061727476ull) {
    spec.seed = seed;
  }
  Spec build();

private:
  int64_t pick(ArrayRef<int64_t> v) { return v[rng() % v.size()]; }
  static int64_t pickFrom(std::mt19937_64 &g, ArrayRef<int64_t> v) {
    return v[g() % v.size()];
  }
  bool chance(double p) {
    return std::uniform_real_distribution<double>(0, 1)(rng) < p;
  }
  int64_t elements(ArrayRef<int> dims) const {
    int64_t n = 1;
    for (int d : dims)
      n *= spec.extents[d];
    return n;
  }
  SmallVector<ValueRef> values() const;
  /// The values with at least one dim (what a reduction or a combine reads).
  SmallVector<ValueRef> nonScalarValues() const {
    SmallVector<ValueRef> vs;
    for (ValueRef v : values())
      if (!spec.nodes[v.node].dims.empty())
        vs.push_back(v);
    return vs;
  }
  /// Mostly one of the latest values: chains that consume what they make.
  ValueRef pickValue(ArrayRef<ValueRef> vs) {
    if (vs.size() > 1 && chance(0.6))
      return vs[vs.size() - 1 - rng() % 2];
    return vs[rng() % vs.size()];
  }
  SmallVector<ValueRef> valuesWithin(ArrayRef<int> dims) const;
  Expr expr(int numOperands, int depth);
  void mapping(Node &n, ArrayRef<bool> reduced);
  bool tileChance(double p) {
    return std::uniform_real_distribution<double>(0, 1)(tileRng) < p;
  }
  TileNest seqSplit(int64_t extent);
  bool threadNests(Node &n, ArrayRef<bool> reduced, ArrayRef<bool> rowBlock,
                   SmallVectorImpl<TileNest> &nests);
  void warpDigits(ArrayRef<int64_t> threadsOf, SmallVectorImpl<TileNest> &nests);
  void tile(Node &n, ArrayRef<bool> reduced);
  /// In a program that asks for a runtime row count, the row dim leads
  /// `dims` (only a tensor's leading dim may be `?`).
  void rowFirst(SmallVectorImpl<int> &dims) const {
    if (spec.runtimeRows)
      std::stable_partition(dims.begin(), dims.end(),
                            [&](int d) { return d == rowDim; });
  }
  /// Whether a reduction may reduce dim `d` (a runtime row count is never
  /// reduced).
  bool reducible(int d) const { return !(spec.runtimeRows && d == rowDim); }
  bool addMap();
  bool addReduce();
  bool addCombine();
  bool addBroadcast();
  bool addContract();
  bool addTranspose();
  void addGemm();
  void types();

  // warpRng draws the warp digits only, so programs without them stay what
  // their seeds made before (tests name some by seed).
  std::mt19937_64 rng, tileRng, warpRng, clusterRng, typeRng, rowsRng,
      runtimeRowsRng, gemmRng, partialRng;
  Spec spec;
  /// The dim most motifs map to blocks (the "rows").
  int rowDim = 0;
  /// 0, or the blocks the row dim is split into: every motif with the row
  /// dim on blocks maps it `block(rowBlocks) x ...` (a tile of
  /// extent / rowBlocks rows per block), so they all share one grid.
  int64_t rowBlocks = 0;
  /// The thread-tiled nests chosen so far, by the motif's result dims (and
  /// which of them are on blocks): a later motif over the same result dims
  /// mostly takes the same nests, so register edges between tiled motifs
  /// (identical nests, the same thread digits) occur, not only shared ones.
  std::map<std::vector<int>, std::pair<int64_t, SmallVector<TileNest>>>
      nestsByShape;
  /// The most elements one tensor has, and one iteration space.
  static constexpr int64_t kMaxElements = 1 << 14;
  static constexpr int64_t kMaxIterations = 1 << 17;
};
} // namespace

SmallVector<ValueRef> ProgramBuilder::values() const {
  SmallVector<ValueRef> out;
  for (auto [i, n] : llvm::enumerate(spec.nodes))
    for (int r = 0; r < n.numResults(); ++r)
      out.push_back({static_cast<int>(i), r});
  return out;
}

SmallVector<ValueRef> ProgramBuilder::valuesWithin(ArrayRef<int> dims) const {
  SmallVector<ValueRef> out;
  for (ValueRef v : values()) {
    const Node &n = spec.nodes[v.node];
    if (llvm::all_of(n.dims, [&](int d) { return llvm::is_contained(dims, d); }))
      out.push_back(v);
  }
  return out;
}

Expr ProgramBuilder::expr(int numOperands, int depth) {
  Expr e;
  if (depth == 0 || chance(0.25)) {
    if (numOperands == 0 || chance(0.1)) {
      e.op = Expr::Op::Constant;
      const double constants[] = {0.5, 2.0, -1.25, 0.1, 3.0};
      e.constant = constants[rng() % 5];
    } else {
      e.op = Expr::Op::Operand;
      e.operand = rng() % numOperands;
    }
    return e;
  }
  using Op = Expr::Op;
  const Op ops[] = {Op::Add, Op::Sub,     Op::Mul,     Op::Max,    Op::Min,
                    Op::Neg, Op::Abs,     Op::Tanh,    Op::ExpTanh, Op::SoftDiv,
                    Op::Sqrt1p, Op::Fma,  Op::Select};
  e.op = ops[rng() % std::size(ops)];
  int arity = 2;
  switch (e.op) {
  case Op::Neg:
  case Op::Abs:
  case Op::Tanh:
  case Op::ExpTanh:
  case Op::Sqrt1p:
    arity = 1;
    break;
  case Op::Fma:
    arity = 3;
    break;
  case Op::Select:
    arity = 4;
    break;
  default:
    break;
  }
  for (int i = 0; i < arity; ++i)
    e.args.push_back(expr(numOperands, depth - 1));
  return e;
}

/// Levels for every iteration dim: the row dim mostly on blocks, the others
/// on thread / warp / lane / seq within the rules of the verifier.
void ProgramBuilder::mapping(Node &n, ArrayRef<bool> reduced) {
  n.levels.assign(n.iterDims.size(), Level::Seq);
  bool thread = false, warp = false, lane = false;
  SmallVector<unsigned> order(n.iterDims.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  for (unsigned i : order) {
    bool isRow = n.iterDims[i] == rowDim && !reduced[i];
    // A runtime row count maps to `block`, untiled, the only grid dim.
    if (isRow && spec.runtimeRows) {
      n.levels[i] = Level::Block;
      continue;
    }
    if (isRow && chance(0.85)) {
      n.levels[i] = chance(0.85) ? Level::Block : Level::BlockWarp;
      if (n.levels[i] == Level::BlockWarp) {
        if (warp || thread) {
          n.levels[i] = Level::Block;
        } else {
          warp = true;
        }
      }
      continue;
    }
    SmallVector<Level> choices{Level::Seq};
    if (!thread && !warp && !lane)
      choices.append({Level::Thread, Level::Thread, Level::Thread});
    if (!thread && !warp)
      choices.push_back(Level::Warp);
    if (!thread && !lane)
      choices.append({Level::Lane, Level::Lane});
    if (!reduced[i] && !spec.runtimeRows && chance(0.03))
      choices.push_back(Level::Block);
    Level l = choices[rng() % choices.size()];
    thread |= l == Level::Thread;
    warp |= l == Level::Warp;
    lane |= l == Level::Lane;
    n.levels[i] = l;
  }
  n.threads = chance(0.08) ? pick({1, 2, 8, 32, 64, 96, 128, 256, 1024})
                           : spec.threads;
  // A block size no butterfly combines is only for motifs without a tree.
  bool tree = false;
  for (auto [i, l] : llvm::enumerate(n.levels))
    tree |= reduced[i] && (l == Level::Thread || l == Level::Lane ||
                           l == Level::Warp);
  // ... and without warps and lanes together (a partial last warp).
  bool warpAndLane = llvm::is_contained(n.levels, Level::Lane) &&
                     (llvm::is_contained(n.levels, Level::Warp) ||
                      llvm::is_contained(n.levels, Level::BlockWarp));
  if (!tree && !warpAndLane && chance(0.05))
    n.threads = pick({24, 48, 100});
  tile(n, reduced);
}

static SmallVector<int64_t> divisorsOf(int64_t e) {
  SmallVector<int64_t> out;
  for (int64_t d = 1; d <= e; ++d)
    if (e % d == 0)
      out.push_back(d);
  return out;
}

/// A sequential run of `extent` as seq digits: `seq(e)`, sometimes
/// `seq(a) x seq(e / a)`; nothing for a run of one (mostly).
TileNest ProgramBuilder::seqSplit(int64_t extent) {
  if (extent == 1)
    return tileChance(0.2) ? TileNest{{Level::Seq, 1}} : TileNest{};
  SmallVector<int64_t> ds = divisorsOf(extent);
  if (ds.size() > 2 && tileChance(0.4)) {
    int64_t a = ds[1 + tileRng() % (ds.size() - 2)];
    return {{Level::Seq, a}, {Level::Seq, extent / a}};
  }
  return {{Level::Seq, extent}};
}

/// Sometimes the thread digits of a block of 64 or more threads become warp
/// digits above 32 lanes (docs/dialect.md, `warp(s)`: the sized thread
/// levels must then multiply to 32): five factors of 2 of the dims' thread
/// counts `threadsOf` go to the lanes, the rest of each dim's count to a
/// `warp(w)` right outside its `thread(l)`. Only where every dim has at most
/// one thread digit; the nests are otherwise unchanged.
void ProgramBuilder::warpDigits(ArrayRef<int64_t> threadsOf,
                                SmallVectorImpl<TileNest> &nests) {
  int64_t threads = 1;
  for (int64_t t : threadsOf)
    threads *= t;
  auto chance = [&](double p) {
    return std::uniform_real_distribution<double>(0, 1)(warpRng) < p;
  };
  if (threads < 2 * kWarpSize || threads % kWarpSize || !chance(0.35))
    return;
  for (const TileNest &nest : nests)
    if (llvm::count_if(nest, [](const TileLevel &l) {
          return l.first == Level::Thread && l.second > 1;
        }) > 1)
      return;
  SmallVector<int64_t> lanes(threadsOf.size(), 1);
  for (int64_t f = kWarpSize; f > 1; f /= 2) {
    SmallVector<unsigned> fit;
    for (auto [i, t] : llvm::enumerate(threadsOf))
      if ((t / lanes[i]) % 2 == 0)
        fit.push_back(i);
    if (fit.empty())
      return;
    lanes[fit[warpRng() % fit.size()]] *= 2;
  }
  for (auto [i, nest] : llvm::enumerate(nests)) {
    auto *it = llvm::find_if(nest, [](const TileLevel &l) {
      return l.first == Level::Thread && l.second > 1;
    });
    if (it == nest.end())
      continue;
    int64_t warps = threadsOf[i] / lanes[i];
    if (lanes[i] == 1) {
      *it = {Level::Warp, warps};
    } else {
      *it = {Level::Thread, lanes[i]};
      if (warps > 1)
        nest.insert(it, {Level::Warp, warps});
    }
  }
}

/// Splits the result dims of `n` over thread and seq digits (after the
/// block tile of a `rowBlock` dim; plain `block` dims stay), the thread
/// sizes multiplying to the block: the program's block size when the
/// extents allow, else sometimes a product of divisors of theirs up to 1024
/// (the motif then has that block size; a hand-fused form keeps it).
/// Reduced dims become sequential. False when no split was chosen.
bool ProgramBuilder::threadNests(Node &n, ArrayRef<bool> reduced,
                                 ArrayRef<bool> rowBlock,
                                 SmallVectorImpl<TileNest> &nests) {
  unsigned rank = n.iterDims.size();
  // What is left of each result dim to split (0: not split; a dim on a
  // plain `block` keeps it).
  SmallVector<int64_t> rest(rank, 0);
  std::vector<int> shape;
  for (unsigned i = 0; i < rank; ++i) {
    if (reduced[i])
      continue;
    int64_t e = spec.extents[n.iterDims[i]];
    int code = rowBlock[i] ? 1 : n.levels[i] == Level::Block ? 0 : 2;
    shape.push_back(n.iterDims[i] * 4 + code);
    if (code == 1)
      rest[i] = e / rowBlocks;
    else if (code == 2)
      rest[i] = e;
  }
  int64_t threads = 0;
  auto cached = nestsByShape.find(shape);
  if (cached != nestsByShape.end() && tileChance(0.6)) {
    threads = cached->second.first;
    unsigned r = 0;
    for (unsigned i = 0; i < rank; ++i)
      if (!reduced[i])
        nests[i] = cached->second.second[r++];
  } else {
    SmallVector<int64_t> t(rank, 1);
    // The program's block size, its prime factors dealt out to dims whose
    // remaining extent they divide.
    auto deal = [&](int64_t total) {
      t.assign(rank, 1);
      for (int64_t p = 2; total > 1; ++p)
        while (total % p == 0) {
          SmallVector<unsigned> fit;
          for (unsigned i = 0; i < rank; ++i)
            if (rest[i] && (rest[i] / t[i]) % p == 0)
              fit.push_back(i);
          if (fit.empty())
            return false;
          t[fit[tileRng() % fit.size()]] *= p;
          total /= p;
        }
      return true;
    };
    if (deal(spec.threads)) {
      threads = spec.threads;
    } else {
      // A block size of the extents' own, a divisor of each dim, for some
      // (such a motif fuses with no untiled one: mostly another plan).
      if (!tileChance(0.35))
        return false;
      for (int attempt = 0; attempt < 4 && threads < 2; ++attempt) {
        threads = 1;
        for (unsigned i = 0; i < rank; ++i) {
          t[i] = 1;
          if (!rest[i])
            continue;
          SmallVector<int64_t> ds = divisorsOf(rest[i]);
          int64_t d = ds[tileRng() % ds.size()];
          if (threads * d > 1024)
            d = 1;
          t[i] = d;
          threads *= d;
        }
      }
      if (threads < 2)
        return false;
    }
    for (unsigned i = 0; i < rank; ++i) {
      if (!rest[i])
        continue;
      TileNest pieces;
      if (t[i] > 1) {
        // Sometimes two thread digits on one dim (a seq digit may come
        // between them).
        SmallVector<int64_t> ds = divisorsOf(t[i]);
        if (ds.size() > 2 && tileChance(0.2)) {
          int64_t a = ds[1 + tileRng() % (ds.size() - 2)];
          pieces.append({{Level::Thread, a}, {Level::Thread, t[i] / a}});
        } else {
          pieces.push_back({Level::Thread, t[i]});
        }
      } else if (tileChance(0.1)) {
        pieces.push_back({Level::Thread, 1});
      }
      TileNest seq = seqSplit(rest[i] / t[i]);
      pieces.append(seq.begin(), seq.end());
      std::shuffle(pieces.begin(), pieces.end(), tileRng);
      if (rowBlock[i])
        pieces.insert(pieces.begin(), {Level::Block, rowBlocks});
      nests[i] = std::move(pieces);
    }
    warpDigits(t, nests);
    SmallVector<TileNest> kept;
    for (unsigned i = 0; i < rank; ++i)
      if (!reduced[i])
        kept.push_back(nests[i]);
    nestsByShape[shape] = {threads, std::move(kept)};
  }
  // Reduced dims: sequential in every thread (a reduced dim's nest is seq
  // digits only, and an unsized `thread` does not go with sized ones).
  for (unsigned i = 0; i < rank; ++i)
    if (reduced[i])
      nests[i] = seqSplit(spec.extents[n.iterDims[i]]);
  for (unsigned i = 0; i < rank; ++i)
    if (n.levels[i] != Level::Block || rowBlock[i] || reduced[i])
      n.levels[i] = Level::Seq;
  n.threads = threads;
  return true;
}

/// Tile nests for some motifs (docs/dialect.md, "Tiles"): in a program with
/// a row tile every motif's row dim on blocks becomes `block(rowBlocks) x
/// ...`; some motifs split their result dims over thread and seq digits
/// (threadNests); some sequential dims become `seq(a) x seq(b)`. The level
/// of a tiled dim is set to the nest's widest kind (Node::tiles).
void ProgramBuilder::tile(Node &n, ArrayRef<bool> reduced) {
  unsigned rank = n.iterDims.size();
  SmallVector<bool> rowBlock(rank, false);
  for (unsigned i = 0; i < rank; ++i)
    rowBlock[i] = rowBlocks && n.levels[i] == Level::Block &&
                  n.iterDims[i] == rowDim && !reduced[i];
  // Sized thread levels go with no unsized thread level of any kind.
  bool blockWarp = llvm::is_contained(n.levels, Level::BlockWarp);
  SmallVector<TileNest> nests(rank);
  if (!blockWarp && tileChance(rowBlocks ? 0.6 : 0.4) &&
      threadNests(n, reduced, rowBlock, nests)) {
    // threadNests set the levels.
  } else {
    nests.assign(rank, TileNest());
    for (unsigned i = 0; i < rank; ++i) {
      int64_t e = spec.extents[n.iterDims[i]];
      if (rowBlock[i]) {
        nests[i] = seqSplit(e / rowBlocks);
        nests[i].insert(nests[i].begin(), {Level::Block, rowBlocks});
      } else if (n.levels[i] == Level::Seq && tileChance(0.06)) {
        nests[i] = seqSplit(e);
      }
    }
  }
  if (llvm::all_of(nests, [](const TileNest &t) { return t.empty(); }))
    return;
  n.tiles.assign(nests.begin(), nests.end());
  for (auto [i, nest] : llvm::enumerate(n.tiles))
    if (!nest.empty())
      n.levels[i] = nestHasThreadDigit(nest)      ? Level::Thread
                    : nestHas(nest, Level::Block) ? Level::Block
                                                  : Level::Seq;
}

bool ProgramBuilder::addMap() {
  SmallVector<ValueRef> vs = values();
  ValueRef base = pickValue(vs);
  Node n;
  n.kind = Node::Kind::Map;
  n.dims = spec.nodes[base.node].dims;
  // A transposed operand, or a broadcast over a new dim.
  if (n.dims.size() > 1 && chance(0.2))
    std::shuffle(n.dims.begin(), n.dims.end(), rng);
  if (chance(0.25)) {
    SmallVector<int> missing;
    for (int d = 0; d < static_cast<int>(spec.extents.size()); ++d)
      if (!llvm::is_contained(n.dims, d))
        missing.push_back(d);
    if (!missing.empty())
      n.dims.insert(n.dims.begin() + rng() % (n.dims.size() + 1),
                    missing[rng() % missing.size()]);
  }
  rowFirst(n.dims);
  if (elements(n.dims) > kMaxElements)
    return false;
  n.operands.push_back(base);
  SmallVector<ValueRef> others = valuesWithin(n.dims);
  for (int k = 0, e = rng() % 3; k < e && !others.empty(); ++k)
    n.operands.push_back(others[rng() % others.size()]);
  n.iterDims = n.dims;
  n.body = expr(n.operands.size(), 1 + rng() % 3);
  mapping(n, SmallVector<bool>(n.iterDims.size(), false));
  spec.nodes.push_back(std::move(n));
  return true;
}

bool ProgramBuilder::addReduce() {
  SmallVector<ValueRef> vs = nonScalarValues();
  if (vs.empty())
    return false;
  ValueRef in = pickValue(vs);
  Node n;
  n.kind = Node::Kind::Reduce;
  n.iterDims = spec.nodes[in.node].dims;
  n.operands.push_back(in);
  SmallVector<bool> reduced(n.iterDims.size(), false);
  bool any = false;
  for (auto [i, d] : llvm::enumerate(n.iterDims)) {
    // Mostly keep the rows (so the result can stay on chip).
    reduced[i] = !reducible(d) ? false : d == rowDim ? chance(0.15) : chance(0.6);
    any |= reduced[i];
  }
  if (!any) {
    size_t i = rng() % reduced.size();
    if (!reducible(n.iterDims[i]))
      return false;
    reduced[i] = true;
  }
  int64_t reducedExtent = 1;
  for (auto [i, d] : llvm::enumerate(n.iterDims))
    if (reduced[i])
      reducedExtent *= spec.extents[d];
    else
      n.dims.push_back(d);
  const CombinerKind kinds[] = {CombinerKind::Add, CombinerKind::Add,
                                CombinerKind::Max, CombinerKind::Min,
                                CombinerKind::Mul};
  n.builtin = kinds[rng() % 5];
  if (n.builtin == CombinerKind::Mul && reducedExtent > 8)
    n.builtin = CombinerKind::Add;
  mapping(n, reduced);
  spec.nodes.push_back(std::move(n));
  return true;
}

bool ProgramBuilder::addCombine() {
  SmallVector<ValueRef> vs = nonScalarValues();
  if (vs.empty())
    return false;
  ValueRef x = pickValue(vs);
  // The second input is indexed alike: same dims, same order.
  SmallVector<ValueRef> alike;
  for (ValueRef v : vs)
    if (spec.nodes[v.node].dims == spec.nodes[x.node].dims)
      alike.push_back(v);
  ValueRef y = alike[rng() % alike.size()];
  Node n;
  n.kind = Node::Kind::Combine;
  n.combiner = chance(0.6) ? Node::Combiner::OnlineSoftmax : Node::Combiner::SumPair;
  n.iterDims = spec.nodes[x.node].dims;
  n.operands = {x, y};
  SmallVector<bool> reduced(n.iterDims.size(), false);
  bool any = false;
  for (auto [i, d] : llvm::enumerate(n.iterDims)) {
    reduced[i] = !reducible(d) ? false : d == rowDim ? chance(0.1) : chance(0.6);
    any |= reduced[i];
  }
  if (!any) {
    size_t i = rng() % reduced.size();
    if (!reducible(n.iterDims[i]))
      return false;
    reduced[i] = true;
  }
  for (auto [i, d] : llvm::enumerate(n.iterDims))
    if (!reduced[i])
      n.dims.push_back(d);
  mapping(n, reduced);
  spec.nodes.push_back(std::move(n));
  return true;
}

bool ProgramBuilder::addBroadcast() {
  SmallVector<ValueRef> vs = values();
  ValueRef in = pickValue(vs);
  const Node &src = spec.nodes[in.node];
  SmallVector<int> missing;
  for (int d = 0; d < static_cast<int>(spec.extents.size()); ++d)
    if (!llvm::is_contained(src.dims, d))
      missing.push_back(d);
  if (missing.empty())
    return false;
  Node n;
  n.kind = Node::Kind::Broadcast;
  n.dims = src.dims;
  n.dims.insert(n.dims.begin() + rng() % (n.dims.size() + 1),
                missing[rng() % missing.size()]);
  rowFirst(n.dims);
  if (elements(n.dims) > kMaxElements)
    return false;
  n.operands.push_back(in);
  n.iterDims = n.dims;
  mapping(n, SmallVector<bool>(n.iterDims.size(), false));
  spec.nodes.push_back(std::move(n));
  return true;
}

bool ProgramBuilder::addContract() {
  SmallVector<ValueRef> vs = values();
  ValueRef a = pickValue(vs);
  SmallVector<ValueRef> partners;
  for (ValueRef v : vs)
    for (int d : spec.nodes[v.node].dims)
      if (llvm::is_contained(spec.nodes[a.node].dims, d)) {
        partners.push_back(v);
        break;
      }
  if (partners.empty())
    return false;
  ValueRef b = partners[rng() % partners.size()];
  const Node &l = spec.nodes[a.node], &r = spec.nodes[b.node];
  SmallVector<int> shared, all;
  for (int d : l.dims) {
    all.push_back(d);
    if (llvm::is_contained(r.dims, d))
      shared.push_back(d);
  }
  for (int d : r.dims)
    if (!llvm::is_contained(all, d))
      all.push_back(d);
  SmallVector<int> contracted;
  for (int d : shared)
    if (reducible(d) && chance(0.6))
      contracted.push_back(d);
  if (contracted.empty()) {
    int d = shared[rng() % shared.size()];
    if (!reducible(d))
      return false;
    contracted.push_back(d);
  }
  Node n;
  n.kind = Node::Kind::Contract;
  for (int d : all)
    if (!llvm::is_contained(contracted, d))
      n.dims.push_back(d);
  if (n.dims.size() > 1 && chance(0.3))
    std::shuffle(n.dims.begin(), n.dims.end(), rng);
  rowFirst(n.dims);
  if (elements(n.dims) > kMaxElements ||
      elements(n.dims) * elements(contracted) > kMaxIterations)
    return false;
  n.operands = {a, b};
  n.iterDims = n.dims;
  // Contracted dims in order of first appearance (lhs, then rhs).
  for (int d : all)
    if (llvm::is_contained(contracted, d))
      n.iterDims.push_back(d);
  SmallVector<bool> reduced;
  for (int d : n.iterDims)
    reduced.push_back(llvm::is_contained(contracted, d));
  mapping(n, reduced);
  spec.nodes.push_back(std::move(n));
  return true;
}

bool ProgramBuilder::addTranspose() {
  SmallVector<ValueRef> vs;
  for (ValueRef v : values())
    if (spec.nodes[v.node].dims.size() > 1)
      vs.push_back(v);
  if (vs.empty())
    return false;
  ValueRef in = pickValue(vs);
  Node n;
  n.kind = Node::Kind::Transpose;
  n.dims = spec.nodes[in.node].dims;
  // A runtime row count stays in front: the other dims are permuted.
  unsigned fixed = spec.runtimeRows && n.dims.front() == rowDim ? 1 : 0;
  if (n.dims.size() - fixed < 2)
    return false;
  while (n.dims == spec.nodes[in.node].dims)
    std::shuffle(n.dims.begin() + fixed, n.dims.end(), rng);
  n.operands.push_back(in);
  n.iterDims = n.dims;
  mapping(n, SmallVector<bool>(n.iterDims.size(), false));
  spec.nodes.push_back(std::move(n));
  return true;
}

Spec ProgramBuilder::build() {
  // Odd, prime and power-of-two extents, and some of small mixed factors
  // (12 = 4 x 3, ...) that tile nests can split.
  const int64_t extents[] = {1,  2,  3,  4,   5,   7,   8,    12,   13,
                             16, 24, 31, 32,  33,  48,  64,   96,   100,
                             127, 128, 192, 256, 257, 1000, 1024, 4096};
  int numDims = 1 + rng() % 3 + (chance(0.3) ? 1 : 0);
  for (int d = 0; d < numDims; ++d)
    spec.extents.push_back(extents[rng() % std::size(extents)]);
  rowDim = 0;
  spec.threads = pick({32, 32, 64, 128, 128, 256, 256, 512, 1024, 1, 4, 16});
  spec.clusters = clusterRng() % 4 == 0;
  // A third of the programs may take rows a block at their small sizes.
  if (rowsRng() % 3 == 0)
    spec.rowBlockMinGrid = int64_t(1) << (rowsRng() % 3);
  // A quarter leave the row dim to the launch (a runtime row count, kept
  // where the rules allow it: runtimeRowDim); those map it to `block`
  // untiled in every motif, never reduce it and keep it in front. (The
  // stream's constant leaves every program a test names by seed as it was.)
  spec.runtimeRows = runtimeRowsRng() % 4 == 0;
  // An eighth of the other programs (an eighth stream, gemmRng) open with a
  // 16-bit matrix product that states no tiles (addGemm); their extents are
  // its. Programs with a runtime row count stay what they were, and the
  // stream's constant leaves every program a test names by seed as it was.
  spec.gemm = !spec.runtimeRows && gemmRng() % 8 == 0;
  if (spec.gemm) {
    numDims = 3;
    spec.extents = {pickFrom(gemmRng, {16, 32, 48, 64, 96, 128}),
                    pickFrom(gemmRng, {8, 16, 24, 32, 40, 64, 128}),
                    pickFrom(gemmRng, {16, 32, 48, 64})};
    // Half of them (a ninth stream, partialRng) take an M that no tensor-core
    // tile divides: the default schedule's last block of rows is partial.
    // (The stream's constant leaves the programs tests name by seed as they
    // were.)
    if (partialRng() % 2)
      spec.extents[0] = pickFrom(partialRng, {1, 3, 17, 40, 50, 72, 100, 120});
    while (elements({0, 1, 2}) > kMaxIterations)
      spec.extents[2] /= 2;
  }
  // Arguments: the full space (if small enough) and random sub-spaces.
  int numArgs = spec.gemm ? 0 : 1 + rng() % 3;
  if (spec.gemm) {
    addGemm();
    numArgs = spec.numArguments();
  }
  for (int a = 0; a < numArgs && !spec.gemm; ++a) {
    Node n;
    n.kind = Node::Kind::Argument;
    for (int d = 0; d < numDims; ++d)
      if (d == rowDim ? chance(0.9) : chance(0.7))
        n.dims.push_back(d);
    if (n.dims.empty())
      n.dims.push_back(rng() % numDims);
    while (elements(n.dims) > kMaxElements)
      n.dims.pop_back();
    if (n.dims.empty())
      n.dims.push_back(0);
    if (elements(n.dims) > kMaxElements)
      spec.extents[n.dims[0]] = 64;
    spec.nodes.push_back(std::move(n));
  }
  // A row tile for 40% of the programs whose row extent has a proper
  // divisor (extents are final now).
  SmallVector<int64_t> rowSplits = divisorsOf(spec.extents[rowDim]);
  if (!spec.runtimeRows && !spec.gemm && rowSplits.size() > 2 &&
      tileChance(0.4))
    rowBlocks = rowSplits[1 + tileRng() % (rowSplits.size() - 2)];
  int motifs = spec.gemm ? rng() % 5 : 1 + rng() % 6;
  for (int tries = 0; tries < 60 && motifs > 0; ++tries) {
    bool added = false;
    switch (rng() % 10) {
    case 0:
    case 1:
    case 2:
      added = addMap();
      break;
    case 3:
    case 4:
      added = addReduce();
      break;
    case 5:
      added = addCombine();
      break;
    case 6:
      added = addBroadcast();
      break;
    case 7:
    case 8:
      added = addContract();
      break;
    case 9:
      added = addTranspose();
      break;
    }
    motifs -= added;
  }
  if (static_cast<int>(spec.nodes.size()) == numArgs)
    while (!addMap()) {
    }
  // The last motif is an output, and maybe a few others.
  int last = spec.nodes.size() - 1;
  for (int r = 0; r < spec.nodes[last].numResults(); ++r)
    spec.outputs.push_back({last, r});
  for (int n = numArgs; n < last; ++n)
    if (chance(0.2))
      spec.outputs.push_back({n, 0});
  for (Node &n : spec.nodes)
    n.observable = n.kind != Node::Kind::Argument && chance(0.05);
  types();
  if (spec.gemm) {
    // Both operands of the product in one 16-bit type (fixTypes may still
    // send one back to f32 where another reader needs it so).
    ElemType t = gemmRng() % 2 ? ElemType::BF16 : ElemType::F16;
    spec.nodes[0].elem = spec.nodes[1].elem = t;
    fixTypes(spec);
  }
  return spec;
}

/// A: [d0, d2], B: [d2, d1] or [d1, d2] (an nn.Linear weight), sometimes a
/// bias [d1]; C = A.B over [block, thread, seq], untiled, at the program's
/// block size: what an importer writes for a matmul, and what the default
/// schedules give tensor cores under a cap that admits tolerance.
void ProgramBuilder::addGemm() {
  auto argument = [&](SmallVector<int, 4> dims) {
    Node n;
    n.kind = Node::Kind::Argument;
    n.dims = std::move(dims);
    spec.nodes.push_back(std::move(n));
  };
  bool linear = gemmRng() % 2;
  // A weight B[d1, d2] takes any N (its rows are K long): a third of those
  // programs an N that no tile divides either.
  // (Below the drawn N: the iteration bound holds.)
  if (linear && partialRng() % 3 == 0) {
    SmallVector<int64_t> fewer;
    for (int64_t n : {5, 12, 20, 36, 60, 100})
      if (n < spec.extents[1])
        fewer.push_back(n);
    if (!fewer.empty())
      spec.extents[1] = pickFrom(partialRng, fewer);
  }
  argument({0, 2});
  argument(linear ? SmallVector<int, 4>{1, 2} : SmallVector<int, 4>{2, 1});
  if (gemmRng() % 2)
    argument({1});
  Node n;
  n.kind = Node::Kind::Contract;
  n.dims = {0, 1};
  n.operands = {{0, 0}, {1, 0}};
  n.iterDims = {0, 1, 2};
  n.levels = {Level::Block, Level::Thread, Level::Seq};
  n.threads = spec.threads;
  spec.nodes.push_back(std::move(n));
}

/// A third of the programs hold 16-bit floats: bf16, f16 or both, in some
/// arguments and some map results (the rest follows, fixTypes). Drawn from
/// typeRng alone.
void ProgramBuilder::types() {
  if (typeRng() % 3 != 0)
    return;
  SmallVector<ElemType, 2> formats;
  switch (typeRng() % 3) {
  case 0:
    formats = {ElemType::BF16};
    break;
  case 1:
    formats = {ElemType::F16};
    break;
  default:
    formats = {ElemType::BF16, ElemType::F16};
    break;
  }
  auto draw = [&](double p) {
    if (std::uniform_real_distribution<double>(0, 1)(typeRng) >= p)
      return ElemType::F32;
    return formats[typeRng() % formats.size()];
  };
  for (Node &n : spec.nodes) {
    if (n.kind == Node::Kind::Argument)
      n.elem = draw(0.7);
    else if (n.kind == Node::Kind::Map)
      n.elem = draw(0.5);
  }
  // A 16-bit map computes in its own type two times in five.
  for (Node &n : spec.nodes)
    if (n.kind == Node::Kind::Map && n.elem != ElemType::F32 &&
        std::uniform_real_distribution<double>(0, 1)(typeRng) < 0.4)
      n.bodyElem = n.elem;
  fixTypes(spec);
}

Spec mlir::motif::fuzz::generate(uint64_t seed) { return ProgramBuilder(seed).build(); }

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

static std::string dimName(int d) { return "d" + std::to_string(d); }

/// Whether dim `d` can be the program's runtime row count (the verifier's
/// rules, docs/dialect.md "Runtime row counts"): it leads every value that
/// has it, and every motif over it maps it, untiled, to `block` as its
/// outermost grid dim, never reducing it.
static bool canBeRowCount(const Spec &s, int d) {
  for (const Node &n : s.nodes) {
    auto at = llvm::find(n.dims, d);
    if (at != n.dims.end() && at != n.dims.begin())
      return false;
    if (n.kind == Node::Kind::Argument)
      continue;
    auto it = llvm::find(n.iterDims, d);
    if (it == n.iterDims.end())
      continue;
    // An iteration dim not among the results is reduced (or contracted).
    if (at == n.dims.end())
      return false;
    unsigned p = it - n.iterDims.begin();
    if (p >= n.levels.size() || n.levels[p] != Level::Block ||
        !n.tile(p).empty())
      return false;
    for (unsigned q = 0; q < p; ++q)
      if (n.levels[q] == Level::Block || n.levels[q] == Level::BlockWarp)
        return false;
  }
  return true;
}

int mlir::motif::fuzz::runtimeRowDim(const Spec &s) {
  if (!s.runtimeRows)
    return -1;
  for (const Node &n : s.nodes)
    if (n.kind == Node::Kind::Argument && !n.dims.empty() &&
        s.extents[n.dims.front()] >= 1 && canBeRowCount(s, n.dims.front()))
      return n.dims.front();
  return -1;
}

std::string mlir::motif::fuzz::tensorType(const Spec &s, ArrayRef<int> dims,
                                          ElemType elem) {
  int rows = runtimeRowDim(s);
  std::string t = "tensor<";
  for (int d : dims)
    t += (d == rows ? std::string("?") : std::to_string(s.extents[d])) + "x";
  return t + stringifyElemType(elem).str() + ">";
}

/// The tensor type of value `v` (a combine's results are f32, as its elem).
static std::string typeOf(const Spec &s, ValueRef v) {
  const Node &n = s.nodes[v.node];
  return tensorType(s, n.dims, n.elem);
}

static std::string names(ArrayRef<int> dims) {
  std::string out = "[";
  for (auto [i, d] : llvm::enumerate(dims))
    out += (i ? ", " : "") + dimName(d);
  return out + "]";
}

/// ` over [block, block(4) x thread(16) x seq(2), seq]`.
static std::string mappingText(const Node &n) {
  std::string out = " over [";
  for (auto [i, l] : llvm::enumerate(n.levels)) {
    out += i ? ", " : "";
    ArrayRef<TileLevel> nest = n.tile(i);
    if (nest.empty()) {
      out += stringifyLevel(l).str();
      continue;
    }
    for (auto [j, sub] : llvm::enumerate(nest))
      out += (j ? " x " : "") + stringifyLevel(sub.first).str() + "(" +
             std::to_string(sub.second) + ")";
  }
  return out + "]";
}

namespace {
/// Emits one body: SSA names %t0, %t1, ...
struct BodyPrinter {
  std::string text;
  int next = 0;
  std::string indent;
  /// The type every op computes in (f32, bf16 or f16).
  std::string type = "f32";

  std::string emit(const std::string &rhs) {
    std::string name = "%t" + std::to_string(next++);
    text += indent + name + " = " + rhs + "\n";
    return name;
  }
  std::string constant(double v) {
    std::string s;
    llvm::raw_string_ostream os(s);
    os << llvm::format("%.6e", v);
    return emit("arith.constant " + s + " : " + type);
  }
  std::string print(const Expr &e) {
    using Op = Expr::Op;
    auto bin = [&](StringRef op) {
      std::string a = print(e.args[0]), b = print(e.args[1]);
      return emit((op + " " + a + ", " + b + " : " + type).str());
    };
    switch (e.op) {
    case Op::Operand:
      return "%a" + std::to_string(e.operand);
    case Op::Constant:
      return constant(e.constant);
    case Op::Add:
      return bin("arith.addf");
    case Op::Sub:
      return bin("arith.subf");
    case Op::Mul:
      return bin("arith.mulf");
    case Op::Max:
      return bin("arith.maximumf");
    case Op::Min:
      return bin("arith.minimumf");
    case Op::Neg:
      return emit("arith.negf " + print(e.args[0]) + " : " + type);
    case Op::Abs:
      return emit("math.absf " + print(e.args[0]) + " : " + type);
    case Op::Tanh:
      return emit("math.tanh " + print(e.args[0]) + " : " + type);
    case Op::ExpTanh: {
      std::string t = emit("math.tanh " + print(e.args[0]) + " : " + type);
      return emit("math.exp " + t + " : " + type);
    }
    case Op::SoftDiv: {
      std::string a = print(e.args[0]), b = print(e.args[1]);
      std::string one = constant(1.0);
      std::string sq = emit("arith.mulf " + b + ", " + b + " : " + type);
      std::string den = emit("arith.addf " + sq + ", " + one + " : " + type);
      return emit("arith.divf " + a + ", " + den + " : " + type);
    }
    case Op::Sqrt1p: {
      std::string a = print(e.args[0]);
      std::string one = constant(1.0);
      std::string sq = emit("arith.mulf " + a + ", " + a + " : " + type);
      std::string s = emit("arith.addf " + sq + ", " + one + " : " + type);
      return emit("math.sqrt " + s + " : " + type);
    }
    case Op::Fma: {
      std::string a = print(e.args[0]), b = print(e.args[1]),
                  c = print(e.args[2]);
      return emit("math.fma " + a + ", " + b + ", " + c + " : " + type);
    }
    case Op::Select: {
      std::string a = print(e.args[0]), b = print(e.args[1]),
                  c = print(e.args[2]), d = print(e.args[3]);
      std::string p = emit("arith.cmpf olt, " + a + ", " + b + " : " + type);
      return emit("arith.select " + p + ", " + c + ", " + d + " : " + type);
    }
    }
    return "";
  }
};
} // namespace

/// The motif op of node `n` (without its materializations), reading its
/// operands by the SSA names given, defining `result`.
static std::string printMotif(const Spec &s, const Node &n,
                              ArrayRef<std::string> operands,
                              const std::string &result,
                              const std::string &indent) {
  std::string out;
  auto operandList = [&]() {
    std::string t = "(";
    for (auto [i, v] : llvm::enumerate(n.operands))
      t += (i ? ", " : "") + operands[i] + names(s.nodes[v.node].dims);
    return t + ")";
  };
  auto operandTypes = [&]() {
    std::string t = "(";
    for (auto [i, v] : llvm::enumerate(n.operands))
      t += (i ? ", " : "") + typeOf(s, v);
    return t + ")";
  };
  std::string rt = tensorType(s, n.dims, n.elem);
  switch (n.kind) {
  case Node::Kind::Argument:
    return "";
  case Node::Kind::Map: {
    out += indent + result + " = motif.map " + operandList() + " -> " +
           names(n.dims) + mappingText(n) + " : " + operandTypes() + " -> " +
           rt + " {\n";
    // The body computes in its bodyElem: an operand of another type is
    // converted first (%h<i> to %a<i>: extended to f32, then rounded to a
    // 16-bit body type), and a 16-bit result of an f32 body is rounded last
    // (to nearest even).
    std::string convert;
    std::string bodyType = stringifyElemType(n.bodyElem).str();
    out += indent + "^bb0(";
    for (auto [i, v] : llvm::enumerate(n.operands)) {
      ElemType t = s.nodes[v.node].elem;
      std::string index = std::to_string(i);
      std::string type = stringifyElemType(t).str();
      if (t == n.bodyElem) {
        out += (i ? ", %a" : "%a") + index + ": " + type;
        continue;
      }
      out += (i ? ", %h" : "%h") + index + ": " + type;
      std::string wide = "%h" + index;
      if (t != ElemType::F32) {
        wide = n.bodyElem == ElemType::F32 ? "%a" + index : "%w" + index;
        convert += indent + "  " + wide + " = arith.extf %h" + index + " : " +
                   type + " to f32\n";
      }
      if (n.bodyElem != ElemType::F32)
        convert += indent + "  %a" + index + " = arith.truncf " + wide +
                   " : f32 to " + bodyType + "\n";
    }
    out += "):\n" + convert;
    BodyPrinter body;
    body.indent = indent + "  ";
    body.type = bodyType;
    std::string r = body.print(n.body);
    std::string type = stringifyElemType(n.elem).str();
    if (n.elem != n.bodyElem)
      r = body.emit("arith.truncf " + r + " : f32 to " + type);
    out += body.text;
    out += indent + "  motif.yield " + r + " : " + type + "\n" + indent + "}\n";
    return out;
  }
  case Node::Kind::Reduce: {
    if (n.lawless) {
      out += indent + result + " = motif.reduce " + operandList() + " -> " +
             names(n.dims) + " init [0.0 : f32]" + mappingText(n) + " : " +
             operandTypes() + " -> " + rt + " combiner {\n";
      out += indent + "^bb0(%acc: f32, %x: f32):\n" + indent +
             "  %d = arith.subf %acc, %x : f32\n" + indent +
             "  motif.yield %d : f32\n" + indent + "}\n";
      return out;
    }
    out += indent + result + " = motif.reduce <" +
           stringifyCombinerKind(n.builtin).str() + "> " + operandList() +
           " -> " + names(n.dims) + mappingText(n) + " : " + operandTypes() +
           " -> " + rt + "\n";
    return out;
  }
  case Node::Kind::Combine: {
    bool softmax = n.combiner == Node::Combiner::OnlineSoftmax;
    out += indent + result + ":2 = motif.reduce " + operandList() + " -> " +
           names(n.dims) + " init [" +
           (softmax ? "0xFF800000 : f32, 0.0 : f32" : "0.0 : f32, 0.0 : f32") +
           "]" + mappingText(n) + " : " + operandTypes() + " -> (" + rt +
           ", " + rt + ") combiner {\n";
    out += indent + "^bb0(%ma: f32, %la: f32, %mb: f32, %lb: f32):\n";
    std::string in = indent + "  ";
    if (softmax) {
      out += in + "%mx = arith.maximumf %ma, %mb : f32\n";
      out += in + "%da = arith.subf %ma, %mx : f32\n";
      out += in + "%db = arith.subf %mb, %mx : f32\n";
      out += in + "%ea = math.exp %da : f32\n";
      out += in + "%eb = math.exp %db : f32\n";
      out += in + "%sa = arith.mulf %la, %ea : f32\n";
      out += in + "%s = math.fma %lb, %eb, %sa : f32\n";
      out += in + "motif.yield %mx, %s : f32, f32\n";
    } else {
      out += in + "%s0 = arith.addf %ma, %mb : f32\n";
      out += in + "%s1 = arith.addf %la, %lb : f32\n";
      out += in + "motif.yield %s0, %s1 : f32, f32\n";
    }
    out += indent + "}\n";
    return out;
  }
  case Node::Kind::Broadcast:
    out += indent + result + " = motif.broadcast " + operands[0] +
           names(s.nodes[n.operands[0].node].dims) + " -> " + names(n.dims) +
           mappingText(n) + " : " + operandTypes() + " -> " + rt + "\n";
    return out;
  case Node::Kind::Transpose:
    out += indent + result + " = motif.transpose " + operands[0] +
           names(s.nodes[n.operands[0].node].dims) + " -> " + names(n.dims) +
           mappingText(n) + " : " + operandTypes() + " -> " + rt + "\n";
    return out;
  case Node::Kind::Contract:
    out += indent + result + " = motif.contract " + operandList() + " -> " +
           names(n.dims) + mappingText(n) + " : " + operandTypes() + " -> " +
           rt + "\n";
    return out;
  }
  return out;
}

static std::string valueName(const Spec &s, ValueRef v) {
  const Node &n = s.nodes[v.node];
  if (n.kind == Node::Kind::Argument)
    return "%arg" + std::to_string(v.node);
  std::string base = "%v" + std::to_string(v.node);
  return n.numResults() > 1 ? base + "#" + std::to_string(v.result) : base;
}

static std::string signature(const Spec &s) {
  std::string out = "func.func @f(";
  bool first = true;
  for (auto [i, n] : llvm::enumerate(s.nodes))
    if (n.kind == Node::Kind::Argument) {
      out += (first ? "" : ", ") + ("%arg" + std::to_string(i)) + ": " +
             tensorType(s, n.dims, n.elem);
      first = false;
    }
  out += ") -> (";
  for (auto [i, v] : llvm::enumerate(s.outputs))
    out += (i ? ", " : "") + typeOf(s, v);
  return out + ") {\n";
}

static std::string returnLine(const Spec &s) {
  std::string out = "  return ";
  for (auto [i, v] : llvm::enumerate(s.outputs))
    out += (i ? ", " : "") + valueName(s, v);
  out += " : ";
  for (auto [i, v] : llvm::enumerate(s.outputs))
    out += (i ? ", " : "") + typeOf(s, v);
  return out + "\n}\n";
}

int64_t mlir::motif::fuzz::clusterOf(const Spec &spec, size_t index,
                                     int64_t threads) {
  if (!spec.clusters)
    return 1;
  SmallVector<int64_t, 3> sizes;
  for (int64_t k : {2, 4, 8})
    if (threads % k == 0 && (threads / k) % kWarpSize == 0)
      sizes.push_back(k);
  if (sizes.empty())
    return 1;
  // A splitmix64 step of (seed, index): the same cluster for the same
  // program, whatever else was drawn.
  uint64_t z = spec.seed + 0x9e3779b97f4a7c15ull * (index + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  size_t pick = z % (sizes.size() + 1);
  return pick == sizes.size() ? 1 : sizes[pick];
}

std::string mlir::motif::fuzz::fuseOptionsOf(const Spec &spec) {
  if (!spec.rowBlockMinGrid)
    return "";
  return " row-block-min-grid=" + std::to_string(spec.rowBlockMinGrid);
}

std::string mlir::motif::fuzz::describe(const Spec &spec) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << "seed " << spec.seed << ", extents [";
  llvm::interleaveComma(spec.extents, os);
  os << "], threads " << spec.threads << ", " << spec.nodes.size() << " nodes";
  if (spec.clusters)
    os << ", clusters";
  if (spec.gemm)
    os << ", a 16-bit GEMM first";
  if (int d = runtimeRowDim(spec); d >= 0)
    os << ", d" << d << " a runtime row count";
  for (ElemType t : {ElemType::BF16, ElemType::F16})
    if (llvm::any_of(spec.nodes, [&](const Node &n) { return n.elem == t; }))
      os << ", " << stringifyElemType(t);
  return out;
}

std::string mlir::motif::fuzz::printUnfused(const Spec &s, Defect) {
  std::string out = "// motif-fuzz: " + describe(s) + "\n";
  // Not the program's: the option the fusion of it runs with.
  if (!fuseOptionsOf(s).empty())
    out += "// motif-fuzz: fused with" + fuseOptionsOf(s) + "\n";
  out += signature(s);
  for (auto [i, n] : llvm::enumerate(s.nodes)) {
    if (n.kind == Node::Kind::Argument)
      continue;
    std::string rt = tensorType(s, n.dims, n.elem);
    std::string types = rt;
    if (n.numResults() > 1)
      types = rt + ", " + rt;
    std::string name = "%v" + std::to_string(i);
    int64_t cluster = clusterOf(s, i, n.threads);
    out += "  " + name + (n.numResults() > 1 ? ":2" : "") +
           " = motif.kernel \"k" + std::to_string(i) + "\" threads(" +
           std::to_string(n.threads) + ")" +
           (cluster > 1 ? " cluster(" + std::to_string(cluster) + ")"
                        : std::string()) +
           " -> " + types + " {\n";
    SmallVector<std::string> operands;
    for (ValueRef v : n.operands)
      operands.push_back(valueName(s, v));
    out += printMotif(s, n, operands, "%r", "    ");
    std::string yields, ytypes;
    for (int r = 0; r < n.numResults(); ++r) {
      std::string rv = n.numResults() > 1 ? "%r#" + std::to_string(r) : "%r";
      out += "    %g" + std::to_string(r) + " = motif.materialize " + rv +
             " in global" + (n.observable ? " observable" : "") + " : " + rt +
             "\n";
      yields += (r ? ", %g" : "%g") + std::to_string(r);
      ytypes += (r ? ", " : "") + rt;
    }
    out += "    motif.yield " + yields + " : " + ytypes + "\n  }\n";
  }
  return out + returnLine(s);
}

std::string mlir::motif::fuzz::printHandFused(const Spec &s,
                                              const HandPlan &plan) {
  std::string out = "// motif-fuzz (hand-fused): " + describe(s) + "\n" +
                    signature(s);
  // Which values are read after their kernel (or returned): those are
  // yielded in global too.
  int numNodes = s.nodes.size();
  SmallVector<int> kernelOf(numNodes, -1);
  int k = -1;
  for (int i = 0; i < numNodes; ++i) {
    if (s.nodes[i].kind == Node::Kind::Argument)
      continue;
    if (plan.kernelStart[i] || k < 0)
      ++k;
    kernelOf[i] = k;
  }
  auto neededOutside = [&](ValueRef v) {
    for (ValueRef o : s.outputs)
      if (o == v)
        return true;
    for (int i = 0; i < numNodes; ++i)
      for (ValueRef u : s.nodes[i].operands)
        if (u == v && kernelOf[i] != kernelOf[v.node])
          return true;
    return false;
  };
  // Global names of values yielded by kernels: %K<k>#<pos>.
  std::map<std::pair<int, int>, std::string> globalName;
  for (int kk = 0; kk <= k; ++kk) {
    SmallVector<ValueRef> yielded;
    std::string body;
    int64_t threads = s.threads;
    for (int i = 0; i < numNodes; ++i) {
      if (kernelOf[i] != kk)
        continue;
      const Node &n = s.nodes[i];
      // The plan keeps motifs of one block size per kernel.
      threads = handThreads(s, n);
      SmallVector<std::string> operands;
      for (ValueRef v : n.operands) {
        if (s.nodes[v.node].kind == Node::Kind::Argument ||
            kernelOf[v.node] != kk)
          operands.push_back(s.nodes[v.node].kind == Node::Kind::Argument
                                 ? valueName(s, v)
                                 : globalName.at({v.node, v.result}));
        else
          operands.push_back("%m" + std::to_string(v.node) + "_" +
                             std::to_string(v.result));
      }
      std::string r = "%r" + std::to_string(i);
      body += printMotif(s, n, operands, r, "    ");
      std::string rt = tensorType(s, n.dims, n.elem);
      for (int res = 0; res < n.numResults(); ++res) {
        std::string rv = n.numResults() > 1 ? r + "#" + std::to_string(res) : r;
        HandResidency hr = plan.residency[i][res];
        std::string local = "%m" + std::to_string(i) + "_" + std::to_string(res);
        if (hr != HandResidency::Global)
          body += "    " + local + " = motif.materialize " + rv + " in " +
                  (hr == HandResidency::Register ? "register" : "shared") +
                  " : " + rt + "\n";
        if (neededOutside({i, res})) {
          // A kernel result: of the register/shared value (a chain), or of
          // the motif's result directly.
          std::string src = hr == HandResidency::Global ? rv : local;
          std::string g = "%y" + std::to_string(i) + "_" + std::to_string(res);
          body += "    " + g + " = motif.materialize " + src + " in global" +
                  (n.observable ? " observable" : "") + " : " + rt + "\n";
          yielded.push_back({i, res});
        }
      }
    }
    if (body.empty())
      continue;
    std::string kname = "%K" + std::to_string(kk);
    if (yielded.empty()) {
      // Nothing read later: still compiled (its materializations checked).
      out += "  motif.kernel \"hk" + std::to_string(kk) + "\" threads(" +
             std::to_string(threads) + ") {\n" + body + "    motif.yield\n  }\n";
      continue;
    }
    std::string types;
    for (auto [p, v] : llvm::enumerate(yielded)) {
      types += (p ? ", " : "") + typeOf(s, v);
      globalName[{v.node, v.result}] =
          yielded.size() > 1 ? kname + "#" + std::to_string(p) : kname;
    }
    out += "  " + kname +
           (yielded.size() > 1 ? ":" + std::to_string(yielded.size()) : "") +
           " = motif.kernel \"hk" + std::to_string(kk) + "\" threads(" +
           std::to_string(threads) + ") -> " + types + " {\n" + body;
    out += "    motif.yield ";
    for (auto [p, v] : llvm::enumerate(yielded))
      out += (p ? ", %y" : "%y") + std::to_string(v.node) + "_" +
             std::to_string(v.result);
    out += " : " + types + "\n  }\n";
  }
  std::string ret = "  return ";
  for (auto [i, v] : llvm::enumerate(s.outputs))
    ret += (i ? ", " : "") + globalName.at({v.node, v.result});
  ret += " : ";
  for (auto [i, v] : llvm::enumerate(s.outputs))
    ret += (i ? ", " : "") + typeOf(s, v);
  return out + ret + "\n}\n";
}

//===----------------------------------------------------------------------===//
// JSON for the float64 reference in Python
//===----------------------------------------------------------------------===//

static void printExprJson(llvm::raw_ostream &os, const Expr &e) {
  using Op = Expr::Op;
  static const char *names[] = {"operand", "constant", "add",   "sub",
                                "mul",     "max",      "min",   "neg",
                                "abs",     "tanh",     "exptanh", "softdiv",
                                "sqrt1p",  "fma",      "select"};
  os << "[\"" << names[static_cast<int>(e.op)] << "\"";
  if (e.op == Op::Operand)
    os << ", " << e.operand;
  else if (e.op == Op::Constant)
    os << ", " << llvm::format("%.9g", static_cast<float>(e.constant));
  for (const Expr &a : e.args) {
    os << ", ";
    printExprJson(os, a);
  }
  os << "]";
}

std::string mlir::motif::fuzz::printJson(const Spec &s) {
  std::string out;
  llvm::raw_string_ostream os(out);
  auto list = [&](ArrayRef<int> v) {
    os << "[";
    llvm::interleaveComma(v, os);
    os << "]";
  };
  os << "{\"seed\": " << s.seed
     << ", \"row_block_min_grid\": " << s.rowBlockMinGrid
     << ", \"runtime_row_dim\": " << runtimeRowDim(s) << ", \"extents\": [";
  llvm::interleaveComma(s.extents, os);
  os << "], \"nodes\": [";
  for (auto [i, n] : llvm::enumerate(s.nodes)) {
    static const char *kinds[] = {"argument", "map",      "reduce",   "combine",
                                  "broadcast", "contract", "transpose"};
    os << (i ? ",\n  " : "\n  ") << "{\"kind\": \""
       << kinds[static_cast<int>(n.kind)] << "\", \"dtype\": \""
       << stringifyElemType(n.elem) << "\", \"dims\": ";
    list(n.dims);
    os << ", \"iter_dims\": ";
    list(n.iterDims);
    os << ", \"operands\": [";
    for (auto [j, v] : llvm::enumerate(n.operands))
      os << (j ? ", " : "") << "[" << v.node << ", " << v.result << "]";
    os << "]";
    if (n.kind == Node::Kind::Map) {
      os << ", \"body_dtype\": \"" << stringifyElemType(n.bodyElem)
         << "\", \"body\": ";
      printExprJson(os, n.body);
    }
    if (n.kind == Node::Kind::Reduce)
      os << ", \"combiner\": \""
         << (n.lawless ? StringRef("lawless") : stringifyCombinerKind(n.builtin))
         << "\"";
    if (n.kind == Node::Kind::Combine)
      os << ", \"combiner\": \""
         << (n.combiner == Node::Combiner::OnlineSoftmax ? "online_softmax"
                                                         : "sum_pair")
         << "\"";
    os << "}";
  }
  os << "],\n \"outputs\": [";
  for (auto [i, v] : llvm::enumerate(s.outputs))
    os << (i ? ", " : "") << "[" << v.node << ", " << v.result << "]";
  os << "]}\n";
  return out;
}
