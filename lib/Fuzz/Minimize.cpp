//===- Minimize.cpp - shrink a failing program ----------------------------===//
//
// Greedy delta debugging on the program spec (not on its text, so every
// candidate is a valid program): replace a motif by a function argument of
// its shape, drop motifs nothing reads, shrink extents, simplify bodies and
// mappings (tile nests to single levels), one block size; keep a change when
// the failure persists. A change that leaves a tile nest off its extent or
// its block size untiles that motif (untileStale), so every candidate still
// verifies and a failure is not traded for a refusal.
//
//===----------------------------------------------------------------------===//
#include "motif/Fuzz/Oracle.h"

using namespace mlir;
using namespace mlir::motif;
using namespace mlir::motif::fuzz;

/// Removes nodes no output reaches, renumbering the rest.
static Spec compact(const Spec &s) {
  int n = s.nodes.size();
  SmallVector<bool> live(n, false);
  SmallVector<int> work;
  for (ValueRef v : s.outputs)
    work.push_back(v.node);
  while (!work.empty()) {
    int i = work.pop_back_val();
    if (live[i])
      continue;
    live[i] = true;
    for (ValueRef v : s.nodes[i].operands)
      work.push_back(v.node);
  }
  // Arguments are kept (the signature), motifs only when live.
  SmallVector<int> renumber(n, -1);
  Spec out = s;
  out.nodes.clear();
  for (int i = 0; i < n; ++i)
    if (live[i] || s.nodes[i].kind == Node::Kind::Argument) {
      renumber[i] = out.nodes.size();
      out.nodes.push_back(s.nodes[i]);
    }
  for (Node &node : out.nodes)
    for (ValueRef &v : node.operands)
      v.node = renumber[v.node];
  for (ValueRef &v : out.outputs)
    v.node = renumber[v.node];
  return out;
}

/// Node `i` becomes a function argument of its shape (results other than
/// #0 become further arguments).
static std::optional<Spec> toArgument(const Spec &s, int i) {
  const Node &n = s.nodes[i];
  if (n.kind == Node::Kind::Argument)
    return std::nullopt;
  Spec out = s;
  // Outputs must be kernel results: drop those this node provided.
  SmallVector<ValueRef> outputs;
  for (ValueRef v : out.outputs)
    if (v.node != i)
      outputs.push_back(v);
  if (outputs.empty())
    return std::nullopt;
  out.outputs.assign(outputs.begin(), outputs.end());
  Node arg;
  arg.kind = Node::Kind::Argument;
  arg.dims = n.dims;
  arg.elem = n.elem;
  int second = -1;
  if (n.numResults() > 1) {
    second = out.nodes.size();
    out.nodes.push_back(arg);
  }
  out.nodes[i] = arg;
  for (Node &node : out.nodes)
    for (ValueRef &v : node.operands)
      if (v.node == i) {
        if (v.result > 0)
          v.node = second;
        v.result = 0;
      }
  return compact(out);
}

static void collectSubexprs(const Expr &e, SmallVectorImpl<const Expr *> &out) {
  for (const Expr &a : e.args) {
    out.push_back(&a);
    collectSubexprs(a, out);
  }
}

Spec mlir::motif::fuzz::minimize(const Spec &start,
                                 const std::function<bool(const Spec &)> &stillFails,
                                 unsigned budget) {
  Spec best = compact(start);
  unsigned tries = 0;
  auto attempt = [&](const Spec &candidate) {
    if (tries >= budget)
      return false;
    ++tries;
    if (!stillFails(candidate))
      return false;
    best = candidate;
    return true;
  };
  bool progress = true;
  while (progress && tries < budget) {
    progress = false;
    // Fewer motifs: the latest first (their consumers are fewer).
    for (int i = best.nodes.size() - 1; i >= 0 && tries < budget; --i)
      if (i < static_cast<int>(best.nodes.size()))
        if (std::optional<Spec> c = toArgument(best, i))
          progress |= attempt(*c);
    // Smaller extents.
    for (size_t d = 0; d < best.extents.size() && tries < budget; ++d)
      for (int64_t e : {int64_t(1), best.extents[d] / 2, int64_t(2), int64_t(3)}) {
        if (e < 1 || e >= best.extents[d])
          continue;
        Spec c = best;
        c.extents[d] = e;
        untileStale(c);
        if (attempt(c)) {
          progress = true;
          break;
        }
      }
    // One block size, then smaller blocks.
    for (int64_t t : {best.threads, int64_t(32), int64_t(1)}) {
      Spec c = best;
      c.threads = t;
      bool changed = t != best.threads;
      for (Node &n : c.nodes)
        if (n.kind != Node::Kind::Argument && n.threads != t) {
          n.threads = t;
          changed = true;
        }
      untileStale(c);
      if (changed && tries < budget)
        progress |= attempt(c);
    }
    // f32 everywhere, else one 16-bit body, then one 16-bit value after
    // another, in f32.
    if (best.half && tries < budget) {
      Spec c = best;
      for (Node &n : c.nodes) {
        n.elem = ElemType::F32;
        n.bodyElem = ElemType::F32;
      }
      fixTypes(c);
      progress |= attempt(c);
    }
    for (size_t i = 0; i < best.nodes.size() && best.half && tries < budget; ++i)
      if (best.nodes[i].bodyElem != ElemType::F32) {
        Spec c = best;
        c.nodes[i].bodyElem = ElemType::F32;
        progress |= attempt(c);
      }
    for (size_t i = 0; i < best.nodes.size() && best.half && tries < budget; ++i)
      if (best.nodes[i].elem != ElemType::F32 &&
          (best.nodes[i].kind == Node::Kind::Argument ||
           best.nodes[i].kind == Node::Kind::Map)) {
        Spec c = best;
        c.nodes[i].elem = ElemType::F32;
        fixTypes(c);
        progress |= attempt(c);
      }
    // Simpler bodies and mappings.
    for (size_t i = 0; i < best.nodes.size() && tries < budget; ++i) {
      const Node &n = best.nodes[i];
      if (n.kind == Node::Kind::Map && !n.body.args.empty()) {
        SmallVector<const Expr *> subs;
        collectSubexprs(n.body, subs);
        for (const Expr *e : subs) {
          Spec c = best;
          c.nodes[i].body = *e;
          if (attempt(c)) {
            progress = true;
            break;
          }
        }
      }
      // A tiled motif: all its nests to single levels at once (a nest's
      // thread sizes are tied to the others'), then those without thread
      // digits one by one.
      if (best.nodes[i].isTiled() && tries < budget) {
        Spec c = best;
        untile(c.nodes[i]);
        progress |= attempt(c);
      }
      for (size_t d = 0; d < best.nodes[i].tiles.size() && tries < budget; ++d) {
        ArrayRef<TileLevel> nest = best.nodes[i].tile(d);
        if (nest.empty() || llvm::any_of(nest, [](const TileLevel &l) {
              return isThreadDigit(l.first);
            }))
          continue;
        Spec c = best;
        c.nodes[i].tiles[d].clear();
        if (!c.nodes[i].isTiled())
          c.nodes[i].tiles.clear();
        progress |= attempt(c);
      }
      for (size_t d = 0; d < best.nodes[i].levels.size() && tries < budget; ++d)
        if (best.nodes[i].levels[d] != Level::Seq &&
            best.nodes[i].tile(d).empty()) {
          Spec c = best;
          c.nodes[i].levels[d] = Level::Seq;
          progress |= attempt(c);
        }
    }
  }
  return best;
}
