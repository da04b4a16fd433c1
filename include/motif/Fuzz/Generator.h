//===- Generator.h - random motif programs, seeded ---------------*- C++ -*-===//
//
// The program generator of `motif-fuzz` (docs/testing.md): from a seed, a
// random valid motif program -- a DAG of maps (random scalar bodies,
// broadcast and transposed operands), built-in and general-combiner
// reductions, broadcasts, contractions and transposes over random static
// shapes (1, odd, prime, powers of two, larger; in some programs a leading
// row dim left to the launch, `?`), with random mappings and
// block sizes, some of them tile nests (`block(4) x thread(16) x seq(2)`).
// A program is a Spec; it prints as
//   * the unfused form: one kernel per motif, every intermediate global;
//   * a hand-fused form: kernels merged in program order with residencies
//     chosen at random among those the schedule model allows (register,
//     shared, and values also yielded in global);
//   * an illegal form (its second mode): one defect the tools must refuse
//     with a located error (an illegal residency, a block size no tree can
//     combine, a reduction across blocks, ...).
// and as JSON, which python/motif/fuzz_reference.py evaluates in float64
// independently of the C++ evaluator (the GPU differential run).
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_FUZZ_GENERATOR_H
#define MOTIF_FUZZ_GENERATOR_H

#include "motif/Dialect/Motif/IR/MotifOps.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace mlir::motif::fuzz {

/// A scalar expression of a map body.
struct Expr {
  enum class Op {
    Operand,  // the body argument `operand`
    Constant, // `constant`
    Add,
    Sub,
    Mul,
    Max,
    Min,
    Neg,
    Abs,
    Tanh,
    ExpTanh, // exp(tanh(a))
    SoftDiv, // a / (1 + b * b)
    Sqrt1p,  // sqrt(1 + a * a)
    Fma,     // a * b + c
    Select,  // a < b ? c : d
  };
  Op op = Op::Operand;
  int operand = 0;
  double constant = 0.0;
  std::vector<Expr> args;
};

/// A value: result `result` of node `node`.
struct ValueRef {
  int node = 0;
  int result = 0;
  bool operator==(const ValueRef &o) const {
    return node == o.node && result == o.result;
  }
};

/// One level of a tile nest: `thread(16)` is {Level::Thread, 16}.
/// The element type of a value (docs/fuzzing.md, "Element types"): f32, or
/// a 16-bit float a map rounds to (arith.truncf) and its readers extend
/// (arith.extf, or a reduction's or contraction's f32 accumulation).
enum class ElemType { F32, BF16, F16 };
llvm::StringRef stringifyElemType(ElemType t);

using TileLevel = std::pair<Level, int64_t>;
using TileNest = llvm::SmallVector<TileLevel, 4>;

/// One motif (or a function argument) of a program.
struct Node {
  enum class Kind { Argument, Map, Reduce, Combine, Broadcast, Contract, Transpose };
  /// General combiners of `Combine` (two inputs, two results, both lawful).
  enum class Combiner { OnlineSoftmax, SumPair };

  Kind kind = Kind::Argument;
  /// Result dims (ids into Spec::extents), in result order.
  llvm::SmallVector<int, 4> dims;
  llvm::SmallVector<ValueRef, 3> operands;
  /// Iteration dims in the motif's order, and the level of each.
  llvm::SmallVector<int, 4> iterDims;
  llvm::SmallVector<Level, 4> levels;
  /// Empty, or per iteration dim a tile nest, outermost first (an empty
  /// nest: the dim has the single level in `levels`). A tiled dim's entry in
  /// `levels` is the nest's widest kind -- thread, else block, else seq --
  /// as ComputeOpInterface::getLevel reports it, so code that only reads
  /// levels (is a reduced dim on threads?) sees the same as the verifier.
  llvm::SmallVector<TileNest, 4> tiles;
  Expr body;                                  // Map
  CombinerKind builtin = CombinerKind::Add;   // Reduce
  Combiner combiner = Combiner::SumPair;      // Combine
  /// A non-associative combiner (illegal mode): `acc - x`.
  bool lawless = false;
  int64_t threads = 32;
  /// The global materialization is `observable` (rule 1 keeps it global).
  bool observable = false;
  /// The element type of every result (a combine's are f32).
  ElemType elem = ElemType::F32;
  /// Map: the type its body computes in -- f32, or its 16-bit result type
  /// (every op rounded to it, operands converted to it first).
  ElemType bodyElem = ElemType::F32;

  int numResults() const { return kind == Kind::Combine ? 2 : 1; }
  /// The nest of iteration dim `i` (empty: a single level).
  llvm::ArrayRef<TileLevel> tile(unsigned i) const {
    return tiles.empty() ? llvm::ArrayRef<TileLevel>() : tiles[i];
  }
  bool isTiled() const;
  /// Some nest has a `thread(n)` or `warp(n)` level: the sizes of those then
  /// multiply to `threads` exactly (the verifier's rule), so the motif cannot
  /// be re-blocked.
  bool hasSizedThreads() const;
};

/// A digit of the thread id in a tile nest: `thread(n)`, or `warp(n)` above
/// the lanes (docs/dialect.md, "Tiles").
inline bool isThreadDigit(Level level) {
  return level == Level::Thread || level == Level::Warp;
}

/// Replaces every tile nest of `n` by a single level the verifier accepts
/// with the rest of its mapping: a nest with a block level becomes `block`,
/// the first with a thread level `thread`, every other one `seq`.
void untile(Node &n);

/// A residency for an intermediate of a hand-fused form.
enum class HandResidency { Global, Register, Shared };

/// A random program.
struct Spec {
  uint64_t seed = 0;
  llvm::SmallVector<int64_t, 4> extents; // per dim id
  llvm::SmallVector<Node, 8> nodes;      // arguments first
  llvm::SmallVector<ValueRef, 2> outputs;
  /// One block size for the whole program (most nodes use it).
  int64_t threads = 32;
  /// Kernels of the unfused form may run as thread-block clusters
  /// (clusterOf): drawn from a stream of its own, so programs without
  /// clusters stay what their seeds made before.
  bool clusters = false;
  /// Some values hold bf16 or f16 (fixTypes): drawn from a stream of its
  /// own, so f32 programs stay what their seeds made before.
  bool half = false;
  /// fuse-materialization's row-block-min-grid for this program, 0 for the
  /// pass's default (2048): a small one lets the small generated programs
  /// take rows a block (docs/residency.md, "Row blocks"). Drawn from a
  /// stream of its own, so every other choice stays what the seed made.
  int64_t rowBlockMinGrid = 0;
  /// The program leaves its rows to the launch where it can
  /// (runtimeRowDim): drawn from a stream of its own, so every other choice
  /// stays what the seed made.
  bool runtimeRows = false;
  /// The program opens with a 16-bit matrix product that states no tiles
  /// (the default schedules' tensor-core candidate): drawn from a stream of
  /// its own, so every other program stays what its seed made.
  bool gemm = false;

  int numArguments() const;
};

/// The dim printed `?` (docs/dialect.md, "Runtime row counts"), or -1: with
/// `spec.runtimeRows`, the first dim that leads some argument and meets the
/// rules of a row count in the whole program -- it leads every value that
/// has it, and every motif over it maps it, untiled, to `block` as its
/// outermost grid dim and never reduces it. Computed from the spec as it is,
/// so a minimized or defective program keeps it only while it holds.
int runtimeRowDim(const Spec &spec);

/// The fuse-materialization options the spec asks beyond the equivalence
/// cap (" row-block-min-grid=N", or empty), for the oracle and `gen`.
std::string fuseOptionsOf(const Spec &spec);

/// The cluster kernel `index` of the unfused form states: 1 (none) unless
/// the program has clusters, else one of the cluster sizes its block splits
/// into whole warps (2, 4 or 8 CTAs), or none, fixed by the seed and the
/// index. A cluster changes no bit (docs/dialect.md, "Clusters"): the oracle
/// ignores it; the lowering and the GPU runs are what it tests.
int64_t clusterOf(const Spec &spec, size_t index, int64_t threads);

/// The block size node `n` runs at in a hand-fused form: the program's,
/// except for a motif whose sized thread levels split its own block (it
/// keeps that one; a kernel holds motifs of one block size).
int64_t handThreads(const Spec &spec, const Node &n);

/// Untiles every motif whose nests no longer fit its extents or its block
/// size (after the minimizer or a planted defect changed them).
void untileStale(Spec &spec);

/// Makes the element types legal (docs/dialect.md, "Element types"):
/// broadcasts and transposes keep their operand's type, reductions,
/// combines and contractions give f32, a contraction's operands hold one
/// type and a combine's inputs f32 -- an operand that breaks this goes back
/// to f32 at its source. Returns whether anything changed.
bool fixTypes(Spec &spec);

/// `tensor<4x8xbf16>`: the tensor type of a value over `dims`.
std::string tensorType(const Spec &spec, llvm::ArrayRef<int> dims,
                       ElemType elem);

/// What the illegal mode plants.
enum class Defect {
  None,
  IllegalResidency,   // register read by other threads / shared by other blocks
  TreeBlockSize,      // a lane/warp tree in a block no butterfly combines
  ReduceAcrossBlocks, // a reduced dim mapped to `block`
  RegisterOfArgument, // a register materialization of a function argument
  ZeroExtent,         // a dim of extent 0
  TwoThreadDims,      // two iteration dims at `thread`
  LawlessCombiner,    // acc - x combined across threads
  GridMismatch,       // two motifs of one kernel on different grids
};
llvm::StringRef stringifyDefect(Defect d);

/// Generates a valid program from `seed`.
Spec generate(uint64_t seed);

/// The unfused form: one kernel per motif, every intermediate in global.
std::string printUnfused(const Spec &spec, Defect defect = Defect::None);

/// The JSON description python/motif/fuzz_reference.py evaluates.
std::string printJson(const Spec &spec);

/// Per node, per operand: the residency its value has in a hand-fused
/// form, and where kernels start (`kernelStart[n]`: node n begins a new
/// kernel).
struct HandPlan {
  llvm::SmallVector<bool, 8> kernelStart;
  /// Per value (node, result): the residency of its in-kernel
  /// materialization (Global: none, read from global by later kernels).
  llvm::SmallVector<llvm::SmallVector<HandResidency, 2>, 8> residency;
};

/// Prints a hand-fused form following `plan`.
std::string printHandFused(const Spec &spec, const HandPlan &plan);

/// A small text for a failing seed's test case header.
std::string describe(const Spec &spec);

} // namespace mlir::motif::fuzz

#endif
