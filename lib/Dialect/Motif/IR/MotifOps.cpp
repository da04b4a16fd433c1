//===- MotifOps.cpp - motif operations: syntax, verifiers, interface ------===//
//
// The motif ops share one textual shape that reads like index notation:
//
//   %y = motif.<op> (%a[i, j], %b[i]) -> [i, j] over [block, thread] : ...
//
// Index names are local to one op; they name its iteration dims. This file
// parses and prints that shape, verifies each op, and implements the
// iteration-space interface every analysis and lowering relies on.
//
//===----------------------------------------------------------------------===//

#include "motif/Dialect/Motif/IR/MotifOps.h"
#include "motif/Dialect/Motif/IR/TensorCore.h"
#include "motif/Dialect/Motif/IR/ScalarOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <array>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::motif;

#include "motif/Dialect/Motif/IR/MotifInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Shared syntax helpers
//===----------------------------------------------------------------------===//

namespace {
/// One `%v[i, j]` in the textual form.
struct IndexedOperand {
  OpAsmParser::UnresolvedOperand value;
  SmallVector<std::string> names;
  SMLoc loc;
};
} // namespace

/// Parses `[a, b, c]` (possibly empty) into `names`, rejecting repeats.
static ParseResult parseIndexList(OpAsmParser &parser,
                                  SmallVectorImpl<std::string> &names) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            StringRef name;
            if (parser.parseKeyword(&name))
              return failure();
            names.push_back(name.str());
            return success();
          }))
    return failure();
  llvm::StringSet<> seen;
  for (const std::string &n : names)
    if (!seen.insert(n).second)
      return parser.emitError(loc) << "index '" << n << "' is repeated";
  return success();
}

static ParseResult parseIndexedOperand(OpAsmParser &parser,
                                       IndexedOperand &operand) {
  operand.loc = parser.getCurrentLocation();
  if (parser.parseOperand(operand.value) ||
      parseIndexList(parser, operand.names))
    return failure();
  return success();
}

/// Parses `(%a[i], %b[i, j])`.
static ParseResult
parseIndexedOperandList(OpAsmParser &parser,
                        SmallVectorImpl<IndexedOperand> &operands) {
  return parser.parseCommaSeparatedList(
      OpAsmParser::Delimiter::Paren, [&]() -> ParseResult {
        operands.emplace_back();
        return parseIndexedOperand(parser, operands.back());
      });
}

/// Positions of `names` inside `space`; an error at `loc` names a missing one.
static ParseResult resolveNames(OpAsmParser &parser, SMLoc loc,
                                ArrayRef<std::string> names,
                                ArrayRef<std::string> space,
                                SmallVectorImpl<int64_t> &dims,
                                StringRef where) {
  for (const std::string &n : names) {
    const auto *it = llvm::find(space, n);
    if (it == space.end())
      return parser.emitError(loc)
             << "index '" << n << "' does not appear in " << where;
    dims.push_back(it - space.begin());
  }
  return success();
}

/// Parses a bare keyword naming a case of an enum (`symbolize` maps it), or
/// a located error listing `expected`.
template <typename Enum>
static ParseResult parseEnumKeyword(OpAsmParser &parser, StringRef what,
                                    std::optional<Enum> (*symbolize)(StringRef),
                                    StringRef expected, Enum &out) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef kw;
  if (parser.parseKeyword(&kw))
    return failure();
  std::optional<Enum> e = symbolize(kw);
  if (!e)
    return parser.emitError(loc) << "unknown " << what << " '" << kw
                                 << "' (expected " << expected << ")";
  out = *e;
  return success();
}

/// Parses one level keyword.
static ParseResult parseLevel(OpAsmParser &parser, Level &level) {
  level = Level::Seq;
  return parseEnumKeyword<Level>(parser, "level", symbolizeLevel,
                                 "block, block.warp, warp, lane, thread or seq",
                                 level);
}

/// Parses `over [block, thread, seq]`, where an entry may be a tile nest
/// `block(64) x thread(16) x seq(8)`.
static ParseResult parseMapping(OpAsmParser &parser, OperationState &state) {
  SmallVector<Attribute> levels;
  MLIRContext *ctx = parser.getContext();
  if (parser.parseKeyword("over") ||
      parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            SMLoc loc = parser.getCurrentLocation();
            Level level;
            if (parseLevel(parser, level))
              return failure();
            SmallVector<Level> nest;
            SmallVector<int64_t> sizes;
            bool sized = succeeded(parser.parseOptionalLParen());
            if (!sized) {
              // `block x thread(32)`, `seq x seq(32)`: an outermost level
              // sized by the rest.
              if ((level != Level::Block && level != Level::Seq) ||
                  failed(parser.parseOptionalKeyword("x"))) {
                levels.push_back(LevelAttr::get(ctx, level));
                return success();
              }
              nest.push_back(level);
              sizes.push_back(0);
              if (parseLevel(parser, level) || parser.parseLParen())
                return failure();
            }
            while (true) {
              int64_t size = 0;
              if (parser.parseInteger(size) || parser.parseRParen())
                return failure();
              if (size < 1)
                return parser.emitError(loc)
                       << "tile level '" << stringifyLevel(level)
                       << "' has size " << size
                       << ": every size must be at least 1";
              nest.push_back(level);
              sizes.push_back(size);
              if (failed(parser.parseOptionalKeyword("x")))
                break;
              if (parseLevel(parser, level) || parser.parseLParen())
                return failure();
            }
            auto tile = TileAttr::getChecked(
                [&] { return parser.emitError(loc); }, ctx, ArrayRef<Level>(nest),
                ArrayRef<int64_t>(sizes));
            if (!tile)
              return failure();
            levels.push_back(tile);
            return success();
          }))
    return failure();
  state.addAttribute("mapping", parser.getBuilder().getArrayAttr(levels));
  return success();
}

/// A short, math-like name for iteration dim `d`.
static std::string dimName(int64_t d) {
  static const char *kNames[] = {"i", "j", "k", "l", "m", "n", "p",
                                 "q", "r", "s", "t", "u", "v", "w"};
  if (d < static_cast<int64_t>(std::size(kNames)))
    return kNames[d];
  return "d" + std::to_string(d);
}

static void printIndexList(OpAsmPrinter &p, ArrayRef<int64_t> dims) {
  p << "[";
  llvm::interleaveComma(dims, p, [&](int64_t d) { p << dimName(d); });
  p << "]";
}

static void printMapping(OpAsmPrinter &p, ArrayAttr mapping) {
  p << " over [";
  llvm::interleaveComma(mapping, p, [&](Attribute a) {
    if (auto level = dyn_cast<LevelAttr>(a)) {
      p << stringifyLevel(level.getValue());
      return;
    }
    auto tile = cast<TileAttr>(a);
    llvm::interleave(
        llvm::zip(tile.getLevels(), tile.getSizes()), p,
        [&](auto ls) {
          p << stringifyLevel(std::get<0>(ls));
          if (std::get<1>(ls))
            p << "(" << std::get<1>(ls) << ")";
        },
        " x ");
  });
  p << "]";
}

//===----------------------------------------------------------------------===//
// TileAttr
//===----------------------------------------------------------------------===//

int64_t TileAttr::getInnerExtent() const {
  int64_t e = 1;
  for (int64_t s : getSizes())
    if (s > 0 && llvm::MulOverflow(e, s, e))
      return std::numeric_limits<int64_t>::max();
  return e;
}

SmallVector<int64_t> TileAttr::resolvedSizes(int64_t extent) const {
  SmallVector<int64_t> sizes(getSizes());
  int64_t inner = getInnerExtent();
  // An unsized level takes what is left of the extent; an outermost block
  // level the ceiling (the last block partial: its instances past the
  // extent are masked: docs/dialect.md, "Partial last tiles").
  for (auto [l, s] : llvm::zip(getLevels(), sizes))
    if (s == 0)
      s = inner <= 0            ? 0
          : extent % inner == 0 ? extent / inner
          : l == getLevels().front() && l == Level::Block
              ? llvm::divideCeil(extent, inner)
              : 0;
  return sizes;
}

std::optional<int64_t> TileAttr::getBlockSize(int64_t extent) const {
  SmallVector<int64_t> sizes = resolvedSizes(extent);
  for (auto [l, s] : llvm::zip(getLevels(), sizes))
    if (l == Level::Block)
      return s;
  return std::nullopt;
}

bool TileAttr::hasLevel(Level level) const {
  return llvm::is_contained(getLevels(), level);
}

LogicalResult TileAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<Level> levels, ArrayRef<int64_t> sizes) {
  if (levels.empty() || levels.size() != sizes.size())
    return emitError() << "a tile nest needs one size per level (got "
                       << levels.size() << " levels, " << sizes.size()
                       << " sizes)";
  for (auto [j, ls] : llvm::enumerate(llvm::zip(levels, sizes))) {
    auto [l, s] = ls;
    if (s < 1 && !(s == 0 && j == 0 &&
                   (l == Level::Block || l == Level::Seq)))
      return emitError() << "tile level '" << stringifyLevel(l)
                         << "' has size " << s
                         << ": every size must be at least 1 (only an "
                            "outermost block or seq may be unsized, 0)";
    if (l == Level::Lane || l == Level::BlockWarp)
      return emitError()
             << "'" << stringifyLevel(l)
             << "' is not supported inside a tile nest (use block, warp, "
                "thread and seq; a thread(n) level already spans warps and "
                "lanes)";
    if (l == Level::Block && j != 0)
      return emitError() << "'block' must be the outermost level of a tile "
                            "nest (a block holds one contiguous tile)";
    if ((l == Level::Thread || l == Level::Warp) && s > kMaxThreadsPerBlock)
      return emitError() << "tile level '" << stringifyLevel(l)
                         << "' has size " << s << ", more than a block's "
                         << kMaxThreadsPerBlock << " threads";
  }
  int64_t product = 1;
  for (int64_t s : sizes)
    if (llvm::MulOverflow(product, s, product) ||
        product > kMaxIterationInstances)
      return emitError() << "tile sizes multiply past 2^40";
  return success();
}

/// ` (%a[i, j], %b[i]) -> [i, j]`: every operand with its index names, then
/// the result's.
static void printIndexedOperands(OpAsmPrinter &p, ComputeOpInterface op) {
  p << " (";
  llvm::interleaveComma(llvm::enumerate(op->getOperands()), p, [&](auto it) {
    p << it.value();
    printIndexList(p, op.getOperandIterationDims(it.index()));
  });
  p << ") -> ";
  printIndexList(p, op.getResultIterationDims());
}

static SmallVector<int64_t> iota(int64_t n) {
  return llvm::to_vector(llvm::seq<int64_t>(0, n));
}

/// Parses `: (types) -> types` and resolves the operands against it.
static ParseResult parseSignature(OpAsmParser &parser, OperationState &state,
                                  ArrayRef<IndexedOperand> operands) {
  SMLoc loc = parser.getCurrentLocation();
  FunctionType type;
  if (parser.parseColonType(type))
    return failure();
  if (type.getNumInputs() != operands.size())
    return parser.emitError(loc)
           << "expected " << operands.size() << " operand types, got "
           << type.getNumInputs();
  for (auto [operand, t] : llvm::zip(operands, type.getInputs()))
    if (parser.resolveOperand(operand.value, t, state.operands))
      return failure();
  state.addTypes(type.getResults());
  return success();
}

/// The custom<Residency> directive: a bare `global`, `shared` or `register`.
static ParseResult parseResidency(OpAsmParser &parser, ResidencyAttr &attr) {
  Residency r = Residency::Global;
  if (parseEnumKeyword<Residency>(parser, "residency", symbolizeResidency,
                                  "global, shared or register", r))
    return failure();
  attr = ResidencyAttr::get(parser.getContext(), r);
  return success();
}

static void printResidency(OpAsmPrinter &p, Operation *, ResidencyAttr attr) {
  p << stringifyResidency(attr.getValue());
}

/// Parses an optional `keyword(N)` clause into the i64 attribute `name`.
static ParseResult parseOptionalIntegerClause(OpAsmParser &parser,
                                              OperationState &state,
                                              StringRef keyword,
                                              StringRef name) {
  if (failed(parser.parseOptionalKeyword(keyword)))
    return success();
  int64_t value = 0;
  if (parser.parseLParen() || parser.parseInteger(value) ||
      parser.parseRParen())
    return failure();
  state.addAttribute(name, parser.getBuilder().getI64IntegerAttr(value));
  return success();
}

/// Refuses an attribute dictionary that names an inherent attribute the
/// syntax already gives (it would silently win).
static ParseResult checkNoInherent(OpAsmParser &parser, SMLoc loc,
                                   NamedAttrList &attrs,
                                   ArrayRef<StringRef> inherent) {
  for (StringRef name : inherent)
    if (attrs.get(name))
      return parser.emitError(loc)
             << "attribute '" << name
             << "' occurs more than once: the syntax of the op gives it";
  return success();
}

//===----------------------------------------------------------------------===//
// Shared verification of the iteration space
//===----------------------------------------------------------------------===//

/// Checks the tile nests of a motif's mapping against its iteration space:
/// each nest multiplies to its dim's extent, a reduced dim's nest is
/// sequential, and the sized thread levels split the kernel's threads
/// exactly (docs/dialect.md, "Tiles").
static LogicalResult verifyTiles(ComputeOpInterface op,
                                 ArrayRef<int64_t> extents,
                                 int unsizedThreadLevels) {
  Operation *operation = op.getOperation();
  SmallVector<int64_t> reduced = op.getReductionIterationDims();
  bool anyTile = false, anyThread = false, anyWarp = false;
  int64_t lanes = 1;
  for (int64_t d = 0, e = extents.size(); d < e; ++d) {
    TileAttr tile = op.getTile(d);
    if (!tile)
      continue;
    anyTile = true;
    bool unsizedBlock = llvm::is_contained(tile.getSizes(), 0);
    int64_t inner = tile.getInnerExtent();
    // An outermost block level may leave the last block partial; any
    // other unsized level takes exactly what the inner levels leave.
    bool partialBlock = unsizedBlock &&
                        tile.getLevels().front() == Level::Block &&
                        tile.getSizes().front() == 0;
    // A partial block's inner levels may cover more than the extent (M = 1
    // in 16-row tensor-core tiles), but not without bound: one block,
    // nearly all of it masked, and an inner product that may overflow.
    constexpr int64_t kMaxOverhangingTile = 4096;
    if (partialBlock && inner > extents[d] && inner > kMaxOverhangingTile)
      return operation->emitOpError()
             << "tiles iteration dim '" << dimName(d) << "' into tiles of "
             << (inner == std::numeric_limits<int64_t>::max()
                     ? std::string("more than 2^63")
                     : std::to_string(inner))
             << " elements, more than its extent " << extents[d]
             << " and than " << kMaxOverhangingTile
             << " (a partial last tile may cover more than the extent only "
                "up to "
             << kMaxOverhangingTile << " elements)";
    if (unsizedBlock && !partialBlock && extents[d] % inner != 0)
      return operation->emitOpError()
             << "tiles iteration dim '" << dimName(d) << "' into tiles of "
             << inner << ", which do not divide its extent " << extents[d]
             << " (only an outermost unsized 'block' level may leave a "
                "partial last tile)";
    if (!unsizedBlock && inner != extents[d])
      return operation->emitOpError()
             << "tiles iteration dim '" << dimName(d) << "' into sizes that "
             << "multiply to " << inner << ", but its extent is " << extents[d]
             << " (only an outermost unsized 'block' level may leave a partial "
                "last tile)";
    bool isReduced = llvm::is_contained(reduced, d);
    for (auto [l, size] : llvm::zip(tile.getLevels(), tile.getSizes())) {
      if (isReduced && l != Level::Seq)
        return operation->emitOpError()
               << "tiles the reduced dim '" << dimName(d) << "' over '"
               << stringifyLevel(l)
               << "': a reduced dim's tile nest is sequential (seq levels "
                  "only); map it to an unsized 'thread' to reduce across "
                  "threads";
      anyThread |= l == Level::Thread || l == Level::Warp;
      anyWarp |= l == Level::Warp;
      if (l == Level::Thread)
        lanes = std::min<int64_t>(lanes * size, kMaxIterationInstances);
    }
  }
  if (!anyTile)
    return success();
  // `warp(n)` numbers whole warps: the thread(n) levels below are a warp's
  // lanes (docs/dialect.md, "Tiles").
  if (anyWarp && lanes != kWarpSize)
    return operation->emitOpError()
           << "has 'warp(n)' tile levels, whose digits number whole warps, "
              "but its 'thread(n)' tile levels multiply to "
           << lanes << ", not the " << kWarpSize << " lanes of a warp";
  if (anyThread && unsizedThreadLevels)
    return operation->emitOpError()
           << "mixes sized 'thread(n)' tile levels with an unsized "
              "thread, warp, lane or block.warp level: with tiles, every "
              "thread level has a size";
  // The thread sizes against the block: blockSizeError.
  return success();
}

/// Why a motif's sized thread levels cannot split a block of `threads`.
static std::optional<std::string> tileThreadsError(ComputeOpInterface op,
                                                   int64_t threads) {
  int64_t product = 1;
  bool any = false;
  for (int64_t d = 0, e = op.getIterationExtents().size(); d < e; ++d)
    if (TileAttr tile = op.getTile(d))
      for (auto [l, size] : llvm::zip(tile.getLevels(), tile.getSizes()))
        if (l == Level::Thread || l == Level::Warp) {
          any = true;
          product = std::min<int64_t>(product * size, kMaxIterationInstances);
        }
  if (!any || product == threads)
    return std::nullopt;
  return "splits the block's threads into tile levels whose sizes multiply "
         "to " +
         std::to_string(product) + ", but the kernel has threads(" +
         std::to_string(threads) + ")";
}

bool mlir::motif::isTensorElementType(Type t) {
  return t.isF32() || t.isF16() || t.isBF16();
}

bool mlir::motif::hasStaticTrailingDims(ShapedType t) {
  if (!t.hasRank())
    return false;
  ArrayRef<int64_t> shape = t.getShape();
  return llvm::none_of(shape.drop_front(std::min<size_t>(1, shape.size())),
                       ShapedType::isDynamic);
}

bool mlir::motif::hasDynamicRows(Type t) {
  auto shaped = dyn_cast<ShapedType>(t);
  return shaped && shaped.hasRank() && shaped.getRank() > 0 &&
         shaped.isDynamicDim(0);
}

int64_t mlir::motif::elementsPerRow(ShapedType t) {
  int64_t n = 1;
  for (int64_t e : t.getShape())
    n *= ShapedType::isDynamic(e) ? 1 : e;
  return n;
}

std::string mlir::motif::formatExtent(int64_t e) {
  return ShapedType::isDynamic(e) ? std::string("?") : std::to_string(e);
}

/// The element types of a motif (docs/dialect.md, "Element types"): every
/// tensor holds f32, f16 or bf16; data movement keeps the type; a reduction
/// with a built-in combiner and a contraction accumulate in f32, which is
/// their result type; a combiner region folds f32 states.
static LogicalResult verifyElementTypes(ComputeOpInterface op) {
  Operation *operation = op.getOperation();
  auto elementOf = [](Value v) {
    return cast<ShapedType>(v.getType()).getElementType();
  };
  for (auto [i, v] : llvm::enumerate(operation->getOperands()))
    if (!isTensorElementType(elementOf(v)))
      return operation->emitOpError()
             << "operand #" << i << " holds " << elementOf(v)
             << ": motif tensors hold f32, f16 or bf16 elements";
  for (auto [i, v] : llvm::enumerate(operation->getResults()))
    if (!isTensorElementType(elementOf(v)))
      return operation->emitOpError()
             << "result #" << i << " holds " << elementOf(v)
             << ": motif tensors hold f32, f16 or bf16 elements";
  if (isa<BroadcastOp, TransposeOp>(operation) &&
      elementOf(operation->getOperand(0)) != elementOf(operation->getResult(0)))
    return operation->emitOpError()
           << "moves " << elementOf(operation->getOperand(0))
           << " elements into a tensor of " << elementOf(operation->getResult(0))
           << ": data movement keeps the element type (convert in a "
              "motif.map)";
  if (auto contract = dyn_cast<ContractOp>(operation)) {
    Type l = elementOf(contract.getLhs()), r = elementOf(contract.getRhs());
    if (l != r)
      return operation->emitOpError()
             << "multiplies " << l << " by " << r
             << ": both operands of a contraction hold the same type";
    if (!elementOf(contract.getResult()).isF32())
      return operation->emitOpError()
             << "accumulates into " << elementOf(contract.getResult())
             << ": a contraction accumulates in f32, its result type (round "
                "it in a motif.map)";
  }
  if (auto reduce = dyn_cast<ReduceOp>(operation)) {
    for (auto [i, r] : llvm::enumerate(reduce.getResults()))
      if (!elementOf(r).isF32())
        return operation->emitOpError()
               << "result #" << i << " holds " << elementOf(r)
               << ": a reduction accumulates in f32, its result type (round "
                  "it in a motif.map)";
    if (!reduce.getKind())
      for (auto [i, v] : llvm::enumerate(reduce.getInputs()))
        if (!elementOf(v).isF32())
          return operation->emitOpError()
                 << "input #" << i << " holds " << elementOf(v)
                 << ": a combiner region folds f32 states (extend the input "
                    "to f32 in a motif.map first)";
  }
  return success();
}

/// Checks what every motif shares: the mapping's length and legality, and
/// that every operand and result dim agrees with its iteration dim's extent.
static LogicalResult verifyIterationSpace(ComputeOpInterface op) {
  Operation *operation = op.getOperation();
  if (failed(verifyElementTypes(op)))
    return failure();
  SmallVector<int64_t> extents = op.getIterationExtents();
  ArrayAttr mapping = op.getMapping();
  if (mapping.size() != extents.size())
    return operation->emitOpError()
           << "mapping has " << mapping.size()
           << " levels but the iteration space has " << extents.size()
           << " dims";
  int threadDims = 0, warpDims = 0, laneDims = 0;
  for (Attribute a : mapping) {
    auto level = dyn_cast<LevelAttr>(a);
    if (!level)
      continue; // tile nests: verifyTiles
    switch (level.getValue()) {
    case Level::Thread:
      ++threadDims;
      break;
    case Level::Warp:
    case Level::BlockWarp:
      ++warpDims;
      break;
    case Level::Lane:
      ++laneDims;
      break;
    default:
      break;
    }
  }
  if (threadDims > 1 || warpDims > 1 || laneDims > 1)
    return operation->emitOpError()
           << "maps more than one iteration dim to the same thread level "
              "(at most one 'thread', one 'warp' or 'block.warp', and one "
              "'lane')";
  if (threadDims && (warpDims || laneDims))
    return operation->emitOpError()
           << "mixes 'thread' with 'warp'/'lane': 'thread' already spans "
              "every warp and lane of the block";

  // A dynamic extent is the function's row count, known at launch: the
  // grid's outermost dim, one block per index (docs/dialect.md, "Runtime
  // row counts"), so that nothing inside a block depends on it.
  SmallVector<int64_t> reduced = op.getReductionIterationDims();
  for (auto [d, e] : llvm::enumerate(extents)) {
    if (!ShapedType::isDynamic(e))
      continue;
    auto level = dyn_cast<LevelAttr>(mapping[d]);
    if (llvm::is_contained(reduced, static_cast<int64_t>(d)))
      return operation->emitOpError()
             << "reduces over iteration dim '" << dimName(d)
             << "', whose extent is dynamic: a dynamic extent (the row "
                "count) is only mapped to 'block', never reduced";
    if (!level || level.getValue() != Level::Block)
      return operation->emitOpError()
             << "maps iteration dim '" << dimName(d)
             << "', whose extent is dynamic, to '"
             << (level ? stringifyLevel(level.getValue()).str()
                       : std::string("a tile nest"))
             << "': a dynamic extent (the row count, known at launch) must "
                "be mapped to 'block'";
    for (int64_t before = 0; before < static_cast<int64_t>(d); ++before)
      if (op.getLevel(before) == Level::Block ||
          op.getLevel(before) == Level::BlockWarp)
        return operation->emitOpError()
               << "maps iteration dim '" << dimName(d)
               << "', whose extent is dynamic, to the grid after iteration "
                  "dim '"
               << dimName(before)
               << "': only the outermost grid dim may be dynamic";
  }

  if (failed(verifyTiles(op, extents, threadDims + warpDims + laneDims)))
    return failure();

  // Sizes: every extent at least 1, and few enough instances that every
  // index and byte count the tools compute fits in 64 bits (a dynamic
  // extent is checked at launch).
  // The online contraction's instances are the scores (rows x keys x the
  // contracted dim) and the accumulation (rows x keys x the value dim), a
  // sum, not the product of all its dims.
  SmallVector<int64_t> counted(extents.begin(), extents.end());
  if (auto online = dyn_cast<OnlineContractOp>(operation)) {
    int64_t c = online.getContractedDim(), v = online.getValueDim();
    if (c >= 0 && v >= 0 && c < static_cast<int64_t>(counted.size()) &&
        v < static_cast<int64_t>(counted.size()) &&
        !ShapedType::isDynamic(counted[c]) &&
        !ShapedType::isDynamic(counted[v]) && counted[c] >= 1 &&
        counted[v] >= 1 && counted[c] <= kMaxIterationInstances &&
        counted[v] <= kMaxIterationInstances) {
      counted[c] += counted[v];
      counted[v] = 1;
    }
  }
  int64_t instances = 1;
  for (auto [d, e] : llvm::enumerate(extents)) {
    if (ShapedType::isDynamic(e))
      continue;
    if (e < 1)
      return operation->emitOpError()
             << "iteration dim '" << dimName(d) << "' has extent " << e
             << ": every extent must be at least 1";
    if (llvm::MulOverflow(instances, counted[d], instances) ||
        instances > kMaxIterationInstances)
      return operation->emitOpError()
             << "has more than " << kMaxIterationInstances
             << " iteration instances (2^40): sizes past that limit are not "
                "supported";
  }
  // A reduction across the block's threads must be one the lowering can
  // combine (shuffle butterfly, then shared memory across warps).
  if (auto kernel = operation->getParentOfType<KernelOp>())
    if (std::optional<std::string> why =
            blockSizeError(op, kernel.getThreads()))
      return operation->emitOpError() << *why;

  Type elementType;
  auto checkTensor = [&](Value v, ArrayRef<int64_t> dims,
                         StringRef what) -> LogicalResult {
    auto type = cast<RankedTensorType>(v.getType());
    if (!elementType)
      elementType = type.getElementType();
    if (type.getRank() != static_cast<int64_t>(dims.size()))
      return operation->emitOpError()
             << what << " has rank " << type.getRank() << " but is indexed by "
             << dims.size() << " dims";
    for (auto [pos, d] : llvm::enumerate(dims)) {
      if (type.getDimSize(pos) != extents[d])
        return operation->emitOpError()
               << what << " dim " << pos << " has extent "
               << formatExtent(type.getDimSize(pos)) << " but iteration dim '"
               << dimName(d) << "' has extent " << formatExtent(extents[d]);
    }
    return success();
  };
  for (auto [i, v] : llvm::enumerate(operation->getOperands()))
    if (failed(checkTensor(v, op.getOperandIterationDims(i),
                           "operand #" + std::to_string(i))))
      return failure();
  for (auto [i, v] : llvm::enumerate(operation->getResults()))
    if (failed(checkTensor(v, op.getResultIterationDims(),
                           "result #" + std::to_string(i))))
      return failure();

  // Inside a kernel, tensors computed by the kernel reach another motif only
  // through an explicit materialization point.
  auto kernel = operation->getParentOfType<KernelOp>();
  for (auto [i, v] : llvm::enumerate(operation->getOperands())) {
    Operation *def = v.getDefiningOp();
    if (def && kernel && def->getParentOp() == kernel &&
        !isa<MaterializeOp>(def))
      return operation->emitOpError()
             << "operand #" << i
             << " is computed in this kernel but not materialized: pass it "
                "through 'motif.materialize ... in register|shared'";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

int64_t mlir::motif::warpsPerBlockOf(Operation *op) {
  auto kernel = op->getParentOfType<KernelOp>();
  if (!kernel)
    return 1;
  return std::max<int64_t>(1, llvm::divideCeil(kernel.getThreads(), kWarpSize));
}

std::optional<std::string> mlir::motif::blockSizeError(ComputeOpInterface op,
                                                      int64_t threads) {
  // Sized thread levels split exactly this many threads.
  if (std::optional<std::string> why = tileThreadsError(op, threads))
    return why;
  // Warps and lanes together address lane l of every warp: a last warp with
  // fewer lanes would leave its elements uncomputed.
  bool warp = false, lane = false;
  for (int64_t d = 0, e = op.getIterationExtents().size(); d < e; ++d) {
    Level l = op.getLevel(d);
    warp |= l == Level::Warp || l == Level::BlockWarp;
    lane |= l == Level::Lane;
  }
  if (warp && lane && threads > kWarpSize && threads % kWarpSize)
    return "maps dims to both a warp level and 'lane' with threads(" +
           std::to_string(threads) + "): the last warp has only " +
           std::to_string(threads % kWarpSize) +
           " of its 32 lanes; use a multiple of 32";
  bool acrossLanes = false, acrossWarps = false;
  for (int64_t d : op.getReductionIterationDims()) {
    Level l = op.getLevel(d);
    acrossLanes |= l == Level::Thread || l == Level::Lane;
    acrossWarps |= l == Level::Thread || l == Level::Warp;
  }
  return crossThreadCombineError(threads, acrossLanes, acrossWarps);
}

std::optional<std::string>
mlir::motif::crossThreadCombineError(int64_t threads, bool acrossLanes,
                                     bool acrossWarps) {
  int64_t lanes = std::min<int64_t>(threads, kWarpSize);
  if (acrossLanes && lanes > 1 &&
      (!llvm::isPowerOf2_64(lanes) || (threads > kWarpSize && threads % kWarpSize)))
    return "reduces across lanes with threads(" + std::to_string(threads) +
           "): the shuffle butterfly needs a power of two up to 32 or a "
           "multiple of 32";
  if (acrossWarps && threads > kWarpSize && threads % kWarpSize)
    return "reduces across warps with threads(" + std::to_string(threads) +
           "), not a multiple of 32";
  return std::nullopt;
}

std::optional<std::string>
mlir::motif::clusterShapeError(int64_t threads, std::optional<uint64_t> cluster) {
  if (!cluster)
    return std::nullopt;
  int64_t k = static_cast<int64_t>(*cluster);
  if (k < 1 || k > kMaxClusterSize)
    return "cluster must be in [1, " + std::to_string(kMaxClusterSize) +
           "] CTAs (the portable cluster size), got " + std::to_string(k);
  if (threads % k)
    return "splits threads(" + std::to_string(threads) + ") into cluster(" +
           std::to_string(k) + "): the threads must divide into the CTAs";
  if ((threads / k) % kWarpSize)
    return "splits threads(" + std::to_string(threads) + ") into cluster(" +
           std::to_string(k) + ") CTAs of " + std::to_string(threads / k) +
           " threads: each CTA must hold whole warps (a multiple of 32)";
  return std::nullopt;
}

std::optional<std::string> mlir::motif::clusterBlocker(Operation *op) {
  if (auto mat = dyn_cast<MaterializeOp>(op)) {
    if (mat.getResidency() == Residency::Shared)
      return std::string("a shared value is read by other threads of the "
                         "block, which may be in another CTA of the cluster "
                         "(clusters take register and global values, and "
                         "shared tails)");
    return std::nullopt;
  }
  if (isa<OnlineContractOp>(op))
    return std::string("the online contraction stages its tiles in the "
                       "CTA's shared memory");
  if (auto contract = dyn_cast<ContractOp>(op))
    if (contract.getMma())
      return std::string("a tensor-core contraction stages its tiles in the "
                         "CTA's shared memory");
  return std::nullopt;
}

std::pair<Operation *, std::string> mlir::motif::clusterBlocker(KernelOp kernel) {
  for (Operation &op : kernel.getBodyBlock())
    if (std::optional<std::string> why = clusterBlocker(&op))
      return {&op, *why};
  return {nullptr, std::string()};
}

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  StringAttr name;
  IntegerAttr threads;
  SmallVector<Type, 1> types;
  if (parser.parseAttribute(name, parser.getBuilder().getType<NoneType>()) ||
      parser.parseKeyword("threads") || parser.parseLParen() ||
      parser.parseAttribute(threads, parser.getBuilder().getIntegerType(64)) ||
      parser.parseRParen())
    return failure();
  result.getOrAddProperties<Properties>().sym_name = name;
  result.getOrAddProperties<Properties>().threads = threads;
  if (succeeded(parser.parseOptionalKeyword("cluster"))) {
    IntegerAttr cluster;
    if (parser.parseLParen() ||
        parser.parseAttribute(cluster,
                              parser.getBuilder().getIntegerType(64)) ||
        parser.parseRParen())
      return failure();
    result.getOrAddProperties<Properties>().cluster = cluster;
  }
  if (succeeded(parser.parseOptionalArrow()) && parser.parseTypeList(types))
    return failure();
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes) ||
      checkNoInherent(parser, loc, result.attributes,
                      {"sym_name", "threads", "cluster"}))
    return failure();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body))
    return failure();
  ensureTerminator(*body, parser.getBuilder(), result.location);
  result.addTypes(types);
  return success();
}

void KernelOp::print(OpAsmPrinter &p) {
  p << ' ';
  p.printAttributeWithoutType(getSymNameAttr());
  p << " threads(";
  p.printAttributeWithoutType(getThreadsAttr());
  p << ")";
  if (IntegerAttr cluster = getClusterAttr()) {
    p << " cluster(";
    p.printAttributeWithoutType(cluster);
    p << ")";
  }
  if (!getResults().empty())
    p << " -> " << getResults().getTypes();
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(),
                                     {"sym_name", "threads", "cluster"});
  p << ' ';
  // The implicit empty yield is elided, as SingleBlockImplicitTerminator
  // formats do.
  Operation *term = getBody().empty() ? nullptr : getBody().front().getTerminator();
  bool printTerminator = !term || !term->getAttrDictionary().empty() ||
                         term->getNumOperands() != 0;
  p.printRegion(getBody(), /*printEntryBlockArgs=*/true, printTerminator);
}

ParseResult MaterializeOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand input;
  ResidencyAttr residency;
  SMLoc inputLoc = parser.getCurrentLocation();
  if (parser.parseOperand(input) || parser.parseKeyword("in") ||
      parseResidency(parser, residency))
    return failure();
  result.getOrAddProperties<Properties>().residency = residency;
  if (succeeded(parser.parseOptionalKeyword("shared_tail"))) {
    int64_t tail = 0;
    if (parser.parseLParen() || parser.parseInteger(tail) ||
        parser.parseRParen())
      return failure();
    result.getOrAddProperties<Properties>().shared_tail =
        parser.getBuilder().getI64IntegerAttr(tail);
  }
  if (succeeded(parser.parseOptionalKeyword("recompute")))
    result.getOrAddProperties<Properties>().recompute =
        parser.getBuilder().getUnitAttr();
  if (succeeded(parser.parseOptionalKeyword("observable")))
    result.getOrAddProperties<Properties>().observable =
        parser.getBuilder().getUnitAttr();
  SMLoc loc = parser.getCurrentLocation();
  RankedTensorType type;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      checkNoInherent(parser, loc, result.attributes,
                      {"residency", "observable", "shared_tail",
                       "recompute"}) ||
      parser.parseColon() || parser.parseType(type))
    return failure();
  result.addTypes(type);
  return parser.resolveOperand(input, type, result.operands);
  (void)inputLoc;
}

void MaterializeOp::print(OpAsmPrinter &p) {
  p << ' ' << getInput() << " in ";
  printResidency(p, *this, getResidencyAttr());
  if (std::optional<int64_t> tail = getSharedTail())
    p << " shared_tail(" << *tail << ")";
  if (getRecompute())
    p << " recompute";
  if (getObservable())
    p << " observable";
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"residency", "observable", "shared_tail",
                           "recompute"});
  p << " : ";
  p.printStrippedAttrOrType(getResult().getType());
}

void KernelOp::build(OpBuilder &builder, OperationState &state,
                     TypeRange resultTypes, StringRef name, int64_t threads) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addAttribute(getThreadsAttrName(state.name),
                     builder.getI64IntegerAttr(threads));
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  KernelOp::ensureTerminator(*body, builder, state.location);
}

YieldOp KernelOp::getYield() {
  return cast<YieldOp>(getBodyBlock().getTerminator());
}

LogicalResult KernelOp::verifyRegions() {
  int64_t threads = getThreadsAttr().getInt();
  if (threads < 1 || threads > kMaxThreadsPerBlock)
    return emitOpError() << "threads must be in [1, " << kMaxThreadsPerBlock
                         << "], got " << threads;
  if (std::optional<std::string> why = clusterShapeError(threads, getCluster()))
    return emitOpError() << *why;
  if (getCluster())
    if (auto [op, why] = clusterBlocker(*this); op)
      return op->emitOpError()
             << "cannot run in kernel '" << getSymName() << "' of cluster("
             << *getCluster() << "): " << why;
  YieldOp yield = getYield();
  if (yield.getNumOperands() != getNumResults())
    return emitOpError() << "yields " << yield.getNumOperands()
                         << " values but has " << getNumResults()
                         << " results";
  for (auto [i, v] : llvm::enumerate(yield.getOperands())) {
    for (unsigned j = 0; j < i; ++j)
      if (yield.getOperand(j) == v)
        return emitOpError()
               << "yields the same materialization twice (results #" << j
               << " and #" << i
               << "): each kernel result is its own buffer; return one "
                  "result twice instead";
    if (v.getType() != getResult(i).getType())
      return emitOpError() << "result #" << i << " has type "
                           << getResult(i).getType() << " but yields "
                           << v.getType();
    auto mat = v.getDefiningOp<MaterializeOp>();
    if (mat && mat->getParentOp() == getOperation() &&
        mat.getResidency() != Residency::Global)
      continue; // MaterializeOp::verify reports it.
    if (!mat || mat->getParentOp() != getOperation() ||
        mat.getResidency() != Residency::Global)
      return emitOpError()
             << "result #" << i
             << " must be yielded from a 'motif.materialize ... in global' "
                "of this kernel: kernel results live in global memory";
  }
  std::optional<SmallVector<int64_t>> grid;
  Operation *gridOp = nullptr;
  for (Operation &op : getBodyBlock()) {
    if (isa<MaterializeOp, YieldOp>(op))
      continue;
    auto motif = dyn_cast<ComputeOpInterface>(op);
    if (!motif)
      return op.emitOpError()
             << "is not allowed directly in a motif.kernel: only motifs and "
                "materializations (scalar code belongs in a motif.map body)";
    SmallVector<int64_t> g = motif.getGridExtents();
    if (!grid) {
      grid = g;
      gridOp = &op;
    } else if (*grid != g) {
      auto fmt = [](ArrayRef<int64_t> v) {
        std::string s = "[";
        llvm::raw_string_ostream os(s);
        llvm::interleaveComma(v, os,
                              [&](int64_t e) { os << formatExtent(e); });
        return s + "]";
      };
      return op.emitOpError()
             << "maps " << fmt(g) << " to blocks but '" << gridOp->getName()
             << "' in the same kernel maps " << fmt(*grid)
             << ": every motif of a kernel runs on the same grid";
    }
  }
  if (grid) {
    int64_t blocks = 1;
    for (int64_t g : *grid)
      if (!ShapedType::isDynamic(g) && // the row count: checked at launch
          (llvm::MulOverflow(blocks, g, blocks) || blocks > kMaxGridBlocks))
        return gridOp->emitOpError()
               << "launches more than " << kMaxGridBlocks
               << " blocks (the grid limit, 2^31-1)";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// YieldOp and MaterializeOp
//===----------------------------------------------------------------------===//

LogicalResult YieldOp::verify() {
  // Kernel yields are checked by the kernel; map/reduce bodies yield scalars.
  if (isa<KernelOp>((*this)->getParentOp()))
    return success();
  for (Type t : getOperandTypes())
    if (isa<ShapedType>(t))
      return emitOpError() << "in a motif body must yield scalars, got " << t;
  return success();
}

LogicalResult MaterializeOp::verify() {
  // The size rules of motifs hold for copies too (a kernel with no motif).
  auto type = getType();
  if (!isTensorElementType(type.getElementType()))
    return emitOpError() << "holds " << type.getElementType()
                         << ": motif tensors hold f32, f16 or bf16 elements";
  int64_t elements = 1;
  for (auto [d, e] : llvm::enumerate(type.getShape())) {
    if (ShapedType::isDynamic(e))
      continue; // the row count, checked at launch
    if (e < 1)
      return emitOpError() << "has extent " << e << " in dim " << d
                           << ": every extent must be at least 1";
    if (llvm::MulOverflow(elements, e, elements) ||
        elements > kMaxIterationInstances)
      return emitOpError() << "has more than " << kMaxIterationInstances
                           << " elements (2^40): sizes past that limit are "
                              "not supported";
  }
  if (std::optional<int64_t> tail = getSharedTail()) {
    if (getResidency() != Residency::Register)
      return emitOpError() << "has a shared tail in '"
                           << stringifyResidency(getResidency())
                           << "': only a register value keeps part of its "
                              "slots in shared memory";
    if (*tail < 1)
      return emitOpError() << "has a shared tail of " << *tail
                           << " slots: it must be at least 1";
  }
  if (getRecompute()) {
    if (getResidency() != Residency::Register)
      return emitOpError() << "recomputes a value in '"
                           << stringifyResidency(getResidency())
                           << "': only a register value is recomputed by its "
                              "readers";
    if (getSharedTail())
      return emitOpError() << "recomputes a value with a shared tail: a "
                              "recomputed value keeps no slots";
    Operation *def = getInput().getDefiningOp();
    if (!def || !isa<MapOp>(def) || def->getParentOp() != (*this)->getParentOp())
      return emitOpError() << "recomputes a value that is not the result of "
                              "a motif.map of this kernel: only a map's body "
                              "is computed again by its readers";
  }
  if (getObservable() && getResidency() != Residency::Global)
    return emitOpError() << "marks an observable value '"
                         << stringifyResidency(getResidency())
                         << "': an observable value must stay in global memory";
  if (getResidency() != Residency::Global) {
    // Only a motif's result can live in registers or shared memory: follow
    // materializations back to the value's origin in this kernel.
    // A tensor from outside the kernel `in shared` is an operand tile each
    // block stages for its readers (docs/dialect.md, "Operand tiles").
    Value v = getInput();
    Operation *kernel = (*this)->getParentOp();
    Operation *def = v.getDefiningOp();
    bool outside = !def || def->getParentOp() != kernel;
    if (outside && getResidency() == Residency::Shared)
      return success();
    // Op verifiers run before dominance is checked, so a chain that uses
    // its own result (`%s = motif.materialize %s`) is a cycle here: stop at
    // the first op seen twice and let dominance report it.
    llvm::SmallPtrSet<Operation *, 8> seen;
    while (def && def->getParentOp() == kernel && isa<MaterializeOp>(def)) {
      if (!seen.insert(def).second)
        return success();
      v = cast<MaterializeOp>(def).getInput();
      def = v.getDefiningOp();
    }
    if (!def || def->getParentOp() != kernel || !isa<ComputeOpInterface>(def))
      return emitOpError()
             << "in " << stringifyResidency(getResidency())
             << " names a value no motif of this kernel computes: values "
                "from outside the kernel live in global memory";
  }
  for (Operation *user : getResult().getUsers()) {
    bool yielded = isa<YieldOp>(user) && user->getParentOp() == (*this)->getParentOp();
    if (getResidency() == Residency::Global && !yielded)
      return emitOpError()
             << "in global is used inside its kernel by '" << user->getName()
             << "': a global materialization is only yielded (a kernel "
                "boundary); use 'register' or 'shared' inside a kernel";
    if (getResidency() != Residency::Global && isa<YieldOp>(user) &&
        isa<KernelOp>(user->getParentOp()))
      return emitOpError() << "in " << stringifyResidency(getResidency())
                           << " is yielded: kernel results live in global "
                              "memory";
  }
  if (getResidency() == Residency::Global &&
      !llvm::any_of(getResult().getUsers(), [&](Operation *u) {
        return isa<YieldOp>(u) && u->getParentOp() == (*this)->getParentOp();
      }))
    return emitOpError() << "in global is not yielded: a global "
                            "materialization is a kernel result";
  return success();
}

//===----------------------------------------------------------------------===//
// MapOp
//===----------------------------------------------------------------------===//

ParseResult MapOp::parse(OpAsmParser &parser, OperationState &state) {
  SmallVector<IndexedOperand> operands;
  SmallVector<std::string> resultNames;
  SMLoc resultLoc;
  if (parseIndexedOperandList(parser, operands) || parser.parseArrow())
    return failure();
  resultLoc = parser.getCurrentLocation();
  if (parseIndexList(parser, resultNames))
    return failure();
  SmallVector<Attribute> indexing;
  for (IndexedOperand &o : operands) {
    SmallVector<int64_t> dims;
    if (resolveNames(parser, o.loc, o.names, resultNames, dims, "the result"))
      return failure();
    indexing.push_back(parser.getBuilder().getDenseI64ArrayAttr(dims));
  }
  (void)resultLoc;
  state.addAttribute("indexing", parser.getBuilder().getArrayAttr(indexing));
  if (parseMapping(parser, state) ||
      parser.parseOptionalAttrDict(state.attributes) ||
      parseSignature(parser, state, operands))
    return failure();
  Region *body = state.addRegion();
  if (parser.parseRegion(*body, /*arguments=*/{}))
    return failure();
  MapOp::ensureTerminator(*body, parser.getBuilder(), state.location);
  return success();
}

void MapOp::print(OpAsmPrinter &p) {
  printIndexedOperands(p, *this);
  printMapping(p, getMapping());
  p.printOptionalAttrDict((*this)->getAttrs(), {"indexing", "mapping"});
  p << " : ";
  p.printFunctionalType(getOperation());
  p << " ";
  p.printRegion(getBody(), /*printEntryBlockArgs=*/true,
                /*printBlockTerminators=*/true);
}

SmallVector<int64_t> MapOp::getIterationExtents() {
  return llvm::to_vector(getResult().getType().getShape());
}
SmallVector<int64_t> MapOp::getOperandIterationDims(unsigned i) {
  return llvm::to_vector(cast<DenseI64ArrayAttr>(getIndexing()[i]).asArrayRef());
}
SmallVector<int64_t> MapOp::getResultIterationDims() {
  return iota(cast<RankedTensorType>(getResult().getType()).getRank());
}

/// Checks a scalar body: argument types and yielded types.
static LogicalResult verifyScalarBody(Operation *op, Region &body,
                                      TypeRange argTypes, TypeRange yieldTypes,
                                      StringRef what) {
  Block &block = body.front();
  if (block.getNumArguments() != argTypes.size() ||
      !llvm::equal(block.getArgumentTypes(), argTypes)) {
    std::string expected;
    llvm::raw_string_ostream os(expected);
    llvm::interleaveComma(argTypes, os);
    return op->emitOpError() << what << " must take " << argTypes.size()
                             << " scalar arguments (" << expected << ")";
  }
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return op->emitOpError() << what << " must end in 'motif.yield'";
  if (!llvm::equal(yield.getOperandTypes(), yieldTypes)) {
    std::string expected;
    llvm::raw_string_ostream os(expected);
    llvm::interleaveComma(yieldTypes, os);
    return op->emitOpError() << what << " must yield " << yieldTypes.size()
                             << " value(s) of type (" << expected << ")";
  }
  // Every op is one the whole pipeline supports (ScalarOps.def): scalar
  // arith/math code over values of the body, no nested regions.
  for (Operation &inner : block)
    if (failed(verifyScalarBodyOp(&inner)))
      return failure();
  return success();
}

LogicalResult MapOp::verifyRegions() {
  if (getIndexing().size() != getInputs().size())
    return emitOpError() << "has " << getInputs().size()
                         << " inputs but indexing for " << getIndexing().size();
  int64_t rank = cast<RankedTensorType>(getResult().getType()).getRank();
  for (auto [i, a] : llvm::enumerate(getIndexing())) {
    auto dims = dyn_cast<DenseI64ArrayAttr>(a);
    if (!dims)
      return emitOpError() << "indexing #" << i << " must be an i64 array";
    llvm::SmallSet<int64_t, 4> seen;
    for (int64_t d : dims.asArrayRef())
      if (d < 0 || d >= rank || !seen.insert(d).second)
        return emitOpError() << "indexing #" << i
                             << " must name distinct result dims in [0, "
                             << rank << ")";
  }
  if (failed(verifyIterationSpace(*this)))
    return failure();
  SmallVector<Type> argTypes;
  for (Value v : getInputs())
    argTypes.push_back(cast<ShapedType>(v.getType()).getElementType());
  return verifyScalarBody(*this, getBody(), argTypes,
                          {getResult().getType().getElementType()}, "body");
}

//===----------------------------------------------------------------------===//
// ReduceOp
//===----------------------------------------------------------------------===//

ParseResult ReduceOp::parse(OpAsmParser &parser, OperationState &state) {
  Builder &b = parser.getBuilder();
  if (succeeded(parser.parseOptionalLess())) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef kw;
    if (parser.parseKeyword(&kw) || parser.parseGreater())
      return failure();
    std::optional<CombinerKind> kind = symbolizeCombinerKind(kw);
    if (!kind)
      return parser.emitError(loc) << "unknown combiner '" << kw
                                   << "' (expected add, mul, max or min)";
    state.addAttribute("kind", CombinerKindAttr::get(b.getContext(), *kind));
  }
  SmallVector<IndexedOperand> operands;
  SmallVector<std::string> resultNames;
  if (parseIndexedOperandList(parser, operands) || parser.parseArrow())
    return failure();
  SMLoc resultLoc = parser.getCurrentLocation();
  if (parseIndexList(parser, resultNames))
    return failure();
  if (operands.empty())
    return parser.emitError(resultLoc) << "expected at least one input";
  ArrayRef<std::string> space = operands.front().names;
  for (IndexedOperand &o : operands)
    if (o.names != operands.front().names)
      return parser.emitError(o.loc)
             << "every input of a reduction is indexed alike";
  SmallVector<int64_t> kept;
  if (resolveNames(parser, resultLoc, resultNames, space, kept, "the inputs"))
    return failure();
  if (!llvm::is_sorted(kept))
    return parser.emitError(resultLoc)
           << "the result keeps the inputs' dims in their order";
  SmallVector<int64_t> reduced;
  for (int64_t d = 0, e = space.size(); d < e; ++d)
    if (!llvm::is_contained(kept, d))
      reduced.push_back(d);
  state.addAttribute("reduction_dims", b.getDenseI64ArrayAttr(reduced));
  if (succeeded(parser.parseOptionalKeyword("init"))) {
    ArrayAttr init;
    if (parser.parseAttribute(init))
      return failure();
    state.addAttribute("init", init);
  }
  if (parseMapping(parser, state) ||
      parser.parseOptionalAttrDict(state.attributes) ||
      parseSignature(parser, state, operands))
    return failure();
  Region *combiner = state.addRegion();
  if (succeeded(parser.parseOptionalKeyword("combiner")))
    if (parser.parseRegion(*combiner, /*arguments=*/{}))
      return failure();
  return success();
}

void ReduceOp::print(OpAsmPrinter &p) {
  if (getKind())
    p << " <" << stringifyCombinerKind(*getKind()) << ">";
  printIndexedOperands(p, *this);
  if (getInit()) {
    p << " init ";
    p.printAttribute(*getInit());
  }
  printMapping(p, getMapping());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"mapping", "kind", "init", "reduction_dims"});
  p << " : ";
  p.printFunctionalType(getOperation());
  if (!getCombiner().empty()) {
    p << " combiner ";
    p.printRegion(getCombiner(), /*printEntryBlockArgs=*/true,
                  /*printBlockTerminators=*/true);
  }
}

SmallVector<int64_t> ReduceOp::getIterationExtents() {
  return llvm::to_vector(
      cast<RankedTensorType>(getInputs().front().getType()).getShape());
}
SmallVector<int64_t> ReduceOp::getOperandIterationDims(unsigned) {
  return iota(getIterationExtents().size());
}
SmallVector<int64_t> ReduceOp::getResultIterationDims() {
  SmallVector<int64_t> out;
  ArrayRef<int64_t> reduced = getReductionDims();
  for (int64_t d = 0, e = getIterationExtents().size(); d < e; ++d)
    if (!llvm::is_contained(reduced, d))
      out.push_back(d);
  return out;
}

LogicalResult ReduceOp::verifyRegions() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one input";
  if (getInputs().size() != getResults().size())
    return emitOpError() << "has " << getInputs().size() << " inputs but "
                         << getResults().size() << " results";
  auto shape = cast<RankedTensorType>(getInputs().front().getType()).getShape();
  for (Value v : getInputs())
    if (cast<RankedTensorType>(v.getType()).getShape() != shape)
      return emitOpError() << "inputs must all have the same shape";
  ArrayRef<int64_t> reduced = getReductionDims();
  if (reduced.empty())
    return emitOpError() << "must reduce at least one dim";
  for (auto [i, d] : llvm::enumerate(reduced))
    if (d < 0 || d >= static_cast<int64_t>(shape.size()) ||
        (i > 0 && reduced[i - 1] >= d))
      return emitOpError() << "reduction_dims must be sorted, unique and in "
                              "[0, "
                           << shape.size() << ")";
  bool hasRegion = !getCombiner().empty();
  if (getKind() && hasRegion)
    return emitOpError() << "has both a built-in combiner and a combiner "
                            "region";
  if (!getKind() && !hasRegion)
    return emitOpError()
           << "needs a built-in combiner (<add>, <mul>, <max>, <min>) or a "
              "combiner region";
  if (getKind() && getInputs().size() != 1)
    return emitOpError() << "a built-in combiner reduces exactly one input";
  if (getKind() && getInit())
    return emitOpError() << "a built-in combiner has its own identity; 'init' "
                            "is for combiner regions";
  if (failed(verifyIterationSpace(*this)))
    return failure();
  if (hasRegion) {
    size_t n = getInputs().size();
    if (!getInit() || getInit()->size() != n)
      return emitOpError() << "a combiner region needs 'init' with one "
                              "identity per input ("
                           << n << ")";
    SmallVector<Type> stateTypes;
    ArrayAttr init = *getInit(); // not a temporary: the loop below outlives it
    for (auto [v, a] : llvm::zip(getInputs(), init)) {
      Type et = cast<ShapedType>(v.getType()).getElementType();
      auto typed = dyn_cast<TypedAttr>(a);
      if (!typed || typed.getType() != et)
        return emitOpError() << "init value " << a << " must be a " << et;
      stateTypes.push_back(et);
    }
    SmallVector<Type> argTypes(stateTypes);
    argTypes.append(stateTypes);
    return verifyScalarBody(*this, getCombiner(), argTypes, stateTypes,
                            "combiner");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// BroadcastOp
//===----------------------------------------------------------------------===//

ParseResult BroadcastOp::parse(OpAsmParser &parser, OperationState &state) {
  IndexedOperand input;
  SmallVector<std::string> resultNames;
  if (parseIndexedOperand(parser, input) || parser.parseArrow() ||
      parseIndexList(parser, resultNames))
    return failure();
  SmallVector<int64_t> dims;
  if (resolveNames(parser, input.loc, input.names, resultNames, dims,
                   "the result"))
    return failure();
  state.addAttribute("dims", parser.getBuilder().getDenseI64ArrayAttr(dims));
  if (parseMapping(parser, state) ||
      parser.parseOptionalAttrDict(state.attributes) ||
      parseSignature(parser, state, {input}))
    return failure();
  return success();
}

/// `%x[...] -> [...] over [...] {attrs} : (type) -> type`, shared by the
/// one-input data-movement motifs (broadcast, transpose).
static void printOneInputMotif(OpAsmPrinter &p, ComputeOpInterface op,
                               StringRef indexAttr) {
  Operation *operation = op.getOperation();
  p << " " << operation->getOperand(0);
  printIndexList(p, op.getOperandIterationDims(0));
  p << " -> ";
  printIndexList(p, op.getResultIterationDims());
  printMapping(p, op.getMapping());
  p.printOptionalAttrDict(operation->getAttrs(), {indexAttr, "mapping"});
  p << " : ";
  p.printFunctionalType(operation);
}

void BroadcastOp::print(OpAsmPrinter &p) {
  printOneInputMotif(p, *this, "dims");
}

SmallVector<int64_t> BroadcastOp::getIterationExtents() {
  return llvm::to_vector(getResult().getType().getShape());
}
SmallVector<int64_t> BroadcastOp::getOperandIterationDims(unsigned) {
  return llvm::to_vector(getDims());
}
SmallVector<int64_t> BroadcastOp::getResultIterationDims() {
  return iota(cast<RankedTensorType>(getResult().getType()).getRank());
}

LogicalResult BroadcastOp::verifyRegions() {
  int64_t rank = cast<RankedTensorType>(getResult().getType()).getRank();
  ArrayRef<int64_t> dims = getDims();
  for (auto [i, d] : llvm::enumerate(dims))
    if (d < 0 || d >= rank || (i > 0 && dims[i - 1] >= d))
      return emitOpError() << "dims must be increasing result dims in [0, "
                           << rank << ")";
  if (static_cast<int64_t>(dims.size()) >= rank)
    return emitOpError() << "must add at least one dim";
  return verifyIterationSpace(*this);
}

//===----------------------------------------------------------------------===//
// ContractOp
//===----------------------------------------------------------------------===//

ParseResult ContractOp::parse(OpAsmParser &parser, OperationState &state) {
  SmallVector<IndexedOperand> operands;
  SmallVector<std::string> resultNames;
  SMLoc start = parser.getCurrentLocation();
  if (parseIndexedOperandList(parser, operands) || parser.parseArrow() ||
      parseIndexList(parser, resultNames))
    return failure();
  if (operands.size() != 2)
    return parser.emitError(start) << "a contraction takes two operands";
  // Iteration space: result dims, then contracted dims by first appearance.
  SmallVector<std::string> space(resultNames);
  for (IndexedOperand &o : operands)
    for (const std::string &n : o.names)
      if (!llvm::is_contained(space, n)) {
        bool inBoth = llvm::is_contained(operands[0].names, n) &&
                      llvm::is_contained(operands[1].names, n);
        if (!inBoth)
          return parser.emitError(o.loc)
                 << "index '" << n
                 << "' appears in one operand only and not in the result";
        space.push_back(n);
      }
  SmallVector<int64_t> lhs, rhs;
  if (resolveNames(parser, operands[0].loc, operands[0].names, space, lhs,
                   "the iteration space") ||
      resolveNames(parser, operands[1].loc, operands[1].names, space, rhs,
                   "the iteration space"))
    return failure();
  Builder &b = parser.getBuilder();
  state.addAttribute("lhs_dims", b.getDenseI64ArrayAttr(lhs));
  state.addAttribute("rhs_dims", b.getDenseI64ArrayAttr(rhs));
  if (parseMapping(parser, state))
    return failure();
  // `mma m16n8k16` / `mma m16n8k8`: on tensor cores (docs/dialect.md,
  // "Tensor cores").
  if (succeeded(parser.parseOptionalKeyword("mma"))) {
    MmaShape shape = MmaShape::M16N8K16;
    if (parseEnumKeyword<MmaShape>(parser, "tensor-core shape",
                                   symbolizeMmaShape,
                                   "m16n8k16, m16n8k8, m64n64k16, m64n128k16 "
                                   "or m64n256k16",
                                   shape))
      return failure();
    state.addAttribute("mma", MmaShapeAttr::get(b.getContext(), shape));
    if (parseOptionalIntegerClause(parser, state, "stages", "mma_stages"))
      return failure();
  }
  if (parser.parseOptionalAttrDict(state.attributes) ||
      parseSignature(parser, state, operands))
    return failure();
  return success();
}

void ContractOp::print(OpAsmPrinter &p) {
  printIndexedOperands(p, *this);
  printMapping(p, getMapping());
  if (std::optional<MmaShape> shape = getMma()) {
    p << " mma " << stringifyMmaShape(*shape);
    if (std::optional<int64_t> stages = getMmaStages())
      p << " stages(" << *stages << ")";
  }
  // (Stages without `mma` do not verify: the generic form prints them.)
  p.printOptionalAttrDict(
      (*this)->getAttrs(),
      {"lhs_dims", "rhs_dims", "mapping", "mma", "mma_stages"});
  p << " : ";
  p.printFunctionalType(getOperation());
}

SmallVector<int64_t> ContractOp::getIterationExtents() {
  int64_t rank = cast<RankedTensorType>(getResult().getType()).getRank();
  int64_t lhsRank = getLhs().getType().getRank();
  int64_t rhsRank = getRhs().getType().getRank();
  // Robust before verification (the verifier calls it after its own checks
  // of the dims lists): out-of-range entries are ignored.
  int64_t bound = rank + lhsRank + rhsRank;
  int64_t n = rank;
  for (int64_t d : llvm::concat<const int64_t>(getLhsDims(), getRhsDims()))
    if (d >= 0 && d < bound)
      n = std::max(n, d + 1);
  SmallVector<int64_t> extents(n, 1);
  for (int64_t d = 0; d < rank; ++d)
    extents[d] = cast<RankedTensorType>(getResult().getType()).getDimSize(d);
  for (auto [pos, d] : llvm::enumerate(getLhsDims()))
    if (d >= rank && d < n && static_cast<int64_t>(pos) < lhsRank)
      extents[d] = getLhs().getType().getDimSize(pos);
  for (auto [pos, d] : llvm::enumerate(getRhsDims()))
    if (d >= rank && d < n && static_cast<int64_t>(pos) < rhsRank &&
        !llvm::is_contained(getLhsDims(), d))
      extents[d] = getRhs().getType().getDimSize(pos);
  return extents;
}
SmallVector<int64_t> ContractOp::getOperandIterationDims(unsigned i) {
  return llvm::to_vector(i == 0 ? getLhsDims() : getRhsDims());
}
SmallVector<int64_t> ContractOp::getResultIterationDims() {
  return iota(cast<RankedTensorType>(getResult().getType()).getRank());
}

LogicalResult ContractOp::verifyRegions() {
  int64_t rank = cast<RankedTensorType>(getResult().getType()).getRank();
  // getIterationExtents trusts the dims lists: check them against the
  // operands first (the generic form can give anything).
  int64_t lhsRank = getLhs().getType().getRank();
  int64_t rhsRank = getRhs().getType().getRank();
  if (static_cast<int64_t>(getLhsDims().size()) != lhsRank)
    return emitOpError() << "operand #0 has rank " << lhsRank
                         << " but is indexed by " << getLhsDims().size()
                         << " dims";
  if (static_cast<int64_t>(getRhsDims().size()) != rhsRank)
    return emitOpError() << "operand #1 has rank " << rhsRank
                         << " but is indexed by " << getRhsDims().size()
                         << " dims";
  int64_t bound = rank + lhsRank + rhsRank;
  for (ArrayRef<int64_t> dims : {getLhsDims(), getRhsDims()})
    for (int64_t d : dims)
      if (d < 0 || d >= bound)
        return emitOpError() << "operand dim " << d
                             << " is not an iteration dim (there are at most "
                             << bound << ")";
  SmallVector<int64_t> extents = getIterationExtents();
  int64_t n = extents.size();
  for (ArrayRef<int64_t> dims : {getLhsDims(), getRhsDims()}) {
    llvm::SmallSet<int64_t, 4> seen;
    for (int64_t d : dims)
      if (d < 0 || !seen.insert(d).second)
        return emitOpError() << "operand dims must be distinct iteration dims";
  }
  for (int64_t d = 0; d < n; ++d) {
    bool inL = llvm::is_contained(getLhsDims(), d);
    bool inR = llvm::is_contained(getRhsDims(), d);
    if (d >= rank && !(inL && inR))
      return emitOpError() << "contracted dim '" << dimName(d)
                           << "' must index both operands";
    if (d < rank && !inL && !inR)
      return emitOpError() << "result dim '" << dimName(d)
                           << "' indexes neither operand";
  }
  if (n == rank)
    return emitOpError() << "contracts no dim (use motif.map for a product)";
  if (failed(verifyIterationSpace(*this)))
    return failure();
  if (getMmaStages() && !getMma())
    return emitOpError() << "states pipeline stages but no tensor-core "
                            "instruction: 'stages(n)' follows 'mma m16n8k16'";
  std::string why;
  if (std::optional<MmaShape> shape = getMma();
      shape && failed(mmaTilingOf(*this, why)))
    return emitOpError() << "runs on tensor cores (mma "
                         << stringifyMmaShape(*shape) << "), but " << why;
  return success();
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

ParseResult TransposeOp::parse(OpAsmParser &parser, OperationState &state) {
  IndexedOperand input;
  SmallVector<std::string> resultNames;
  if (parseIndexedOperand(parser, input) || parser.parseArrow())
    return failure();
  SMLoc resultLoc = parser.getCurrentLocation();
  if (parseIndexList(parser, resultNames))
    return failure();
  if (resultNames.size() != input.names.size())
    return parser.emitError(resultLoc)
           << "a transpose keeps every index of its input";
  SmallVector<int64_t> perm;
  if (resolveNames(parser, resultLoc, resultNames, input.names, perm,
                   "the input"))
    return failure();
  state.addAttribute("permutation",
                     parser.getBuilder().getDenseI64ArrayAttr(perm));
  if (parseMapping(parser, state) ||
      parser.parseOptionalAttrDict(state.attributes) ||
      parseSignature(parser, state, {input}))
    return failure();
  return success();
}

void TransposeOp::print(OpAsmPrinter &p) {
  // Input dims are named by the iteration dim they land on.
  printOneInputMotif(p, *this, "permutation");
}

SmallVector<int64_t> TransposeOp::getIterationExtents() {
  return llvm::to_vector(getResult().getType().getShape());
}
SmallVector<int64_t> TransposeOp::getOperandIterationDims(unsigned) {
  // Input dim a is result dim k where permutation[k] == a.
  ArrayRef<int64_t> perm = getPermutation();
  SmallVector<int64_t> dims(perm.size(), 0);
  for (auto [k, a] : llvm::enumerate(perm))
    if (a >= 0 && a < static_cast<int64_t>(perm.size()))
      dims[a] = k;
  return dims;
}
SmallVector<int64_t> TransposeOp::getResultIterationDims() {
  return iota(cast<RankedTensorType>(getResult().getType()).getRank());
}

LogicalResult TransposeOp::verifyRegions() {
  ArrayRef<int64_t> perm = getPermutation();
  int64_t rank = cast<RankedTensorType>(getResult().getType()).getRank();
  SmallVector<int64_t> sorted(perm);
  llvm::sort(sorted);
  if (static_cast<int64_t>(perm.size()) != rank || sorted != iota(rank))
    return emitOpError() << "permutation is not a permutation of [0, " << rank
                         << ")";
  return verifyIterationSpace(*this);
}

#define GET_OP_CLASSES
#include "motif/Dialect/Motif/IR/MotifOps.cpp.inc"

//===----------------------------------------------------------------------===//
// OnlineContractOp
//===----------------------------------------------------------------------===//

ParseResult OnlineContractOp::parse(OpAsmParser &parser,
                                    OperationState &state) {
  SmallVector<IndexedOperand> operands;
  SmallVector<std::string> resultNames;
  SMLoc start = parser.getCurrentLocation();
  if (parseIndexedOperandList(parser, operands) || parser.parseArrow() ||
      parseIndexList(parser, resultNames))
    return failure();
  if (operands.size() != 3)
    return parser.emitError(start)
           << "an online contraction takes three operands (scores' two "
              "factors, then the values)";
  // Iteration space: result dims, then the others by first appearance.
  SmallVector<std::string> space(resultNames);
  for (IndexedOperand &o : operands)
    for (const std::string &n : o.names)
      if (!llvm::is_contained(space, n))
        space.push_back(n);
  SmallVector<int64_t> dims[3];
  for (unsigned k = 0; k < 3; ++k)
    if (resolveNames(parser, operands[k].loc, operands[k].names, space,
                     dims[k], "the iteration space"))
      return failure();
  Builder &b = parser.getBuilder();
  state.addAttribute("lhs_dims", b.getDenseI64ArrayAttr(dims[0]));
  state.addAttribute("rhs_dims", b.getDenseI64ArrayAttr(dims[1]));
  state.addAttribute("values_dims", b.getDenseI64ArrayAttr(dims[2]));
  double scale = 0.0;
  if (parser.parseKeyword("scale") || parser.parseLParen() ||
      parser.parseFloat(scale) || parser.parseRParen())
    return failure();
  state.addAttribute("scale", b.getF64FloatAttr(scale));
  if (parseOptionalIntegerClause(parser, state, "splits", "splits") ||
      parseOptionalIntegerClause(parser, state, "stages", "stages"))
    return failure();
  SMLoc attrLoc;
  if (parseMapping(parser, state))
    return failure();
  attrLoc = parser.getCurrentLocation();
  NamedAttrList extra;
  if (parser.parseOptionalAttrDict(extra) ||
      checkNoInherent(parser, attrLoc, extra,
                      {"lhs_dims", "rhs_dims", "values_dims", "scale",
                       "mapping", "splits", "stages"}))
    return failure();
  state.attributes.append(extra);
  return parseSignature(parser, state, operands);
}

void OnlineContractOp::print(OpAsmPrinter &p) {
  printIndexedOperands(p, *this);
  p << " scale(";
  p.printFloat(getScaleAttr().getValue());
  p << ")";
  if (std::optional<uint64_t> splits = getSplits())
    p << " splits(" << static_cast<int64_t>(*splits) << ")";
  if (std::optional<uint64_t> stages = getStages())
    p << " stages(" << static_cast<int64_t>(*stages) << ")";
  printMapping(p, getMapping());
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {"lhs_dims", "rhs_dims", "values_dims", "scale",
                           "mapping", "splits", "stages"});
  p << " : ";
  p.printFunctionalType(getOperation());
}

SmallVector<int64_t> OnlineContractOp::getIterationExtents() {
  int64_t rank = cast<RankedTensorType>(getResult().getType()).getRank();
  std::array<std::pair<ArrayRef<int64_t>, RankedTensorType>, 3> ops = {
      std::make_pair(getLhsDims(), cast<RankedTensorType>(getLhs().getType())),
      std::make_pair(getRhsDims(), cast<RankedTensorType>(getRhs().getType())),
      std::make_pair(getValuesDims(), cast<RankedTensorType>(getValues().getType()))};
  // Robust before verification: out-of-range entries are ignored.
  int64_t bound = rank;
  for (auto &[dims, type] : ops)
    bound += type.getRank();
  int64_t n = rank;
  for (auto &[dims, type] : ops)
    for (int64_t d : dims)
      if (d >= 0 && d < bound)
        n = std::max(n, d + 1);
  SmallVector<int64_t> extents(n, 1);
  SmallVector<bool> known(n, false);
  for (int64_t d = 0; d < rank; ++d) {
    extents[d] = cast<RankedTensorType>(getResult().getType()).getDimSize(d);
    known[d] = true;
  }
  for (auto &[dims, type] : ops)
    for (auto [pos, d] : llvm::enumerate(dims))
      if (d >= 0 && d < n && !known[d] &&
          static_cast<int64_t>(pos) < type.getRank()) {
        extents[d] = type.getDimSize(pos);
        known[d] = true;
      }
  return extents;
}
SmallVector<int64_t> OnlineContractOp::getOperandIterationDims(unsigned i) {
  return llvm::to_vector(i == 0   ? getLhsDims()
                         : i == 1 ? getRhsDims()
                                  : getValuesDims());
}
SmallVector<int64_t> OnlineContractOp::getResultIterationDims() {
  return iota(cast<RankedTensorType>(getResult().getType()).getRank());
}

/// The iteration dim indexing exactly the operands in `in` (a bit mask over
/// lhs, rhs, values, result), or -1.
static int64_t dimWithRoles(OnlineContractOp op, unsigned in) {
  int64_t n = op.getIterationExtents().size();
  int64_t rank = cast<RankedTensorType>(op.getResult().getType()).getRank();
  for (int64_t d = 0; d < n; ++d) {
    unsigned mask = (llvm::is_contained(op.getLhsDims(), d) ? 1u : 0u) |
                    (llvm::is_contained(op.getRhsDims(), d) ? 2u : 0u) |
                    (llvm::is_contained(op.getValuesDims(), d) ? 4u : 0u) |
                    (d < rank ? 8u : 0u);
    if (mask == in)
      return d;
  }
  return -1;
}
std::optional<std::string>
OnlineContractOp::getLoweringLimit(int64_t threads) {
  int64_t rank = cast<RankedTensorType>(getResult().getType()).getRank();
  int64_t iDim = getRowDim(), eDim = getValueDim();
  int64_t jDim = getKeyDim(), dDim = getContractedDim();
  SmallVector<int64_t> extents = getIterationExtents();
  // Row-major operands, batch dims first in the result's order, the
  // contracted and value dims innermost.
  SmallVector<int64_t> batch;
  for (int64_t d = 0; d < rank; ++d)
    if (d != iDim && d != eDim)
      batch.push_back(d);
  auto expect = [&](ArrayRef<int64_t> got, int64_t a, int64_t b) {
    SmallVector<int64_t> want(batch);
    want.push_back(a);
    want.push_back(b);
    return llvm::equal(got, want);
  };
  SmallVector<int64_t> resultDims =
      llvm::to_vector(llvm::seq<int64_t>(0, rank));
  if (!expect(getLhsDims(), iDim, dDim) || !expect(getRhsDims(), jDim, dDim) ||
      !expect(getValuesDims(), jDim, eDim) || !expect(resultDims, iDim, eDim))
    return std::string("is lowered for row-major operands a[batch..., i, d], "
                       "k[batch..., j, d], v[batch..., j, e] and a result "
                       "y[batch..., i, e]; transpose the operands first");
  int64_t D = extents[dDim], E = extents[eDim];
  int64_t rows = getRowsPerBlock();
  int64_t splits = getKeyGroups();
  auto stagedBytesError = [&]() -> std::optional<std::string> {
    int64_t bytes = getStagedBytes();
    if (bytes <= kOnlineSharedLimit)
      return std::nullopt;
    return ("stages " + Twine(bytes) +
            " bytes of tiles in shared memory, over the " +
            Twine(kOnlineSharedLimit) + " a block may opt in to")
        .str();
  };
  if (usesTensorCores()) {
    if (splits > 1)
      return ("splits the keys into " + Twine(splits) +
              " groups: the tensor-core lowering runs one group per block "
              "(splits are lowered on fma, for f32 operands)")
          .str();
    if (getKeyStages() < 2)
      return std::string("keeps one copy of the key and value tiles "
                         "(stages(1)): the tensor-core lowering pipelines "
                         "them with cp.async and needs 2 to 4");
    auto [warps, mTiles] = mmaWarpsAndTiles(rows, threads);
    if (D % 16 || D > 256 || E % 16 || E > 128)
      return ("has a contracted extent " + Twine(D) + " and a value extent " +
              Twine(E) +
              ": the tensor-core lowering (mma.sync m16n8k16) needs both "
              "multiples of 16, the first up to 256 and the second up to 128")
          .str();
    if (!warps)
      return ("has " + Twine(rows) + " rows per block in threads(" +
              Twine(threads) +
              "): the tensor-core lowering takes 1, 2, 4 or 8 warps of 1 or "
              "2 m-tiles of 16 rows each (rows = 16 x warps x m-tiles: 128 "
              "rows in 128 or 256 threads, 64 in 128 or 64, 32 in 64 or 32, "
              "16 in 32, 256 in 256)")
          .str();
    return stagedBytesError();
  }
  if (D % 4 || D > 256 || E % 16 || E > 128)
    return ("has a contracted extent " + Twine(D) + " and a value extent " +
            Twine(E) +
            ": the lowering needs the first a multiple of 4 up to 256 and the "
            "second a multiple of 16 up to 128")
        .str();
  if (threads % splits || (threads / splits) % 32)
    return ("splits the keys into " + Twine(splits) + " groups in threads(" +
            Twine(threads) +
            "): each group is a whole number of warps (threads a multiple of "
            "32 x splits)")
        .str();
  if (splits > 1 && getKeyStages() > 1)
    return ("keeps " + Twine(getKeyStages()) +
            " copies of the key and value tiles with " + Twine(splits) +
            " key groups: the groups stage one copy each (omit stages or "
            "say stages(1))")
        .str();
  int64_t group = threads / splits;
  if (group % 32 || (rows * 4) % group || rows * 4 / group > 4 ||
      rows * 4 / group < 1)
    return ("has " + Twine(rows) + " rows per block in threads(" +
            Twine(threads) + ")" +
            (splits > 1 ? " (" + Twine(group) + " a key group)" : Twine("")) +
            ": the lowering needs a multiple of 32 threads and 1, 2 or 4 rows "
            "per quad of 4 threads (rows = threads / 4 * R" +
            (splits > 1 ? " in each key group)" : ")"))
        .str();
  return stagedBytesError();
}

SmallVector<OnlineStagedTile> OnlineContractOp::getStagedTiles() {
  SmallVector<int64_t> extents = getIterationExtents();
  int64_t d = extents[getContractedDim()], e = extents[getValueDim()];
  if (usesTensorCores()) {
    int64_t bytes =
        getLhs().getType().getElementType().getIntOrFloatBitWidth() / 8;
    int64_t pad = kOnlineMmaPad, keys = getKeyTile();
    int64_t stages = getKeyStages();
    return {{"query rows", getRowsPerBlock(), d + pad, pad, bytes, 1},
            {"key tile", keys, d + pad, pad, bytes, stages},
            {"value tile", keys, e + pad, pad, bytes, stages}};
  }
  // With key groups: a key and a value tile per group, and the partial
  // states of groups 1.. (acc, then m and l in the row's padding) that
  // group 0 merges. Without: kOnlineStages copies of the key and value
  // tiles (cp.async) where they fit, else one.
  int64_t pad = kOnlinePad, keys = kOnlineKeyTile, groups = getKeyGroups();
  int64_t rows = getRowsPerBlock();
  int64_t stages = getKeyStages();
  SmallVector<OnlineStagedTile> tiles = {
      {"query rows", rows, d + pad, pad, 4, 1},
      {"key tile", keys * groups, d + pad, pad, 4, stages},
      {"value tile", keys * groups, e + pad, pad, 4, stages}};
  if (groups > 1)
    tiles.push_back(
        {"partial states", (groups - 1) * getRowsPerBlock(), e + pad, pad, 4, 1});
  return tiles;
}

int64_t OnlineContractOp::getKeyStages() {
  if (std::optional<uint64_t> stages = getStages())
    return static_cast<int64_t>(*stages);
  if (usesTensorCores())
    return kOnlineMmaStages;
  if (getKeyGroups() > 1)
    return 1;
  SmallVector<int64_t> extents = getIterationExtents();
  int64_t d = extents[getContractedDim()], e = extents[getValueDim()];
  int64_t bytes = 4 * (getRowsPerBlock() * (d + kOnlinePad) +
                       kOnlineStages * kOnlineKeyTile * (d + e + 2 * kOnlinePad));
  return bytes <= kOnlineSharedLimit ? kOnlineStages : 1;
}

int64_t OnlineContractOp::getStagedBytes() {
  int64_t bytes = 0;
  for (const OnlineStagedTile &t : getStagedTiles())
    bytes += t.bytes();
  return bytes;
}

int64_t OnlineContractOp::getKeyTile() {
  if (!usesTensorCores())
    return kOnlineKeyTile;
  int64_t e = getIterationExtents()[getValueDim()];
  return getMmaWarpsAndTiles().second * e > 128 ? kOnlineMmaKeyTile / 2
             : kOnlineMmaKeyTile;
}

std::optional<int64_t> OnlineContractOp::getWgmmaScoresN() {
  if (!usesTensorCores())
    return std::nullopt;
  int64_t keys = getKeyTile();
  int64_t d = getIterationExtents()[getContractedDim()];
  if (getMmaWarpsAndTiles().first % 4 != 0 || d % 64 != 0 ||
      keys % 8 != 0 || keys > 256)
    return std::nullopt;
  return keys;
}

bool OnlineContractOp::hasWgmmaPV() {
  if (!getWgmmaScoresN())
    return false;
  SmallVector<int64_t> extents = getIterationExtents();
  int64_t d = extents[getContractedDim()], e = extents[getValueDim()];
  int64_t keys = getKeyTile(), rows = getRowsPerBlock();
  if ((keys != 64 && keys != 32) || e % 64 != 0)
    return false;
  // Q, the K and V stages and P (two tiles with 3 or more stages, where
  // P V may run one key tile behind the scores: convert-motif-to-gpu's
  // online-overlap), unpadded, each 1024-byte aligned (up to 1008 bytes
  // lost before each of the four in dynamic shared memory).
  int64_t bytes = getLhs().getType().getElementType().getIntOrFloatBitWidth() / 8;
  int64_t stages = getKeyStages(), pTiles = stages >= 3 ? 2 : 1;
  int64_t total =
      (rows * d + stages * keys * (d + e) + pTiles * rows * keys) * bytes +
      4 * (1024 - 16);
  return total <= kOnlineSharedLimit;
}

bool OnlineContractOp::prefersWgmmaPV(bool pInRegisters) {
  return hasWgmmaPV() &&
         (pInRegisters || getIterationExtents()[getValueDim()] >= 128);
}

bool OnlineContractOp::usesTensorCores() {
  Type t = getLhs().getType().getElementType();
  return t.isF16() || t.isBF16();
}

std::pair<int64_t, int64_t>
OnlineContractOp::mmaWarpsAndTiles(int64_t rows, int64_t threads) {
  if (threads % 32)
    return {0, 0};
  int64_t warps = threads / 32;
  if (warps != 1 && warps != 2 && warps != 4 && warps != 8)
    return {0, 0};
  for (int64_t mTiles : {1, 2})
    if (rows == 16 * warps * mTiles)
      return {warps, mTiles};
  return {0, 0};
}

int64_t OnlineContractOp::defaultMmaThreads(int64_t rows) {
  switch (rows) {
  case 128:
  case 64:
    return 128;
  case 32:
    return 64;
  case 16:
    return 32;
  default:
    return 0;
  }
}

std::pair<int64_t, int64_t> OnlineContractOp::getMmaWarpsAndTiles() {
  int64_t rows = getRowsPerBlock();
  auto kernel = (*this)->getParentOfType<KernelOp>();
  return mmaWarpsAndTiles(rows, kernel ? kernel.getThreads()
                                       : defaultMmaThreads(rows));
}

int64_t OnlineContractOp::getRowsPerBlock() {
  if (TileAttr tile = getTile(getRowDim()))
    return tile.resolvedSizes(getIterationExtents()[getRowDim()])[1];
  return 1;
}

int64_t OnlineContractOp::getKeyDim() { return dimWithRoles(*this, 2 | 4); }
int64_t OnlineContractOp::getContractedDim() {
  return dimWithRoles(*this, 1 | 2);
}
int64_t OnlineContractOp::getRowDim() { return dimWithRoles(*this, 1 | 8); }
int64_t OnlineContractOp::getValueDim() { return dimWithRoles(*this, 4 | 8); }

LogicalResult OnlineContractOp::verifyRegions() {
  int64_t rank = cast<RankedTensorType>(getResult().getType()).getRank();
  std::array<std::pair<ArrayRef<int64_t>, RankedTensorType>, 3> ops = {
      std::make_pair(getLhsDims(), cast<RankedTensorType>(getLhs().getType())),
      std::make_pair(getRhsDims(), cast<RankedTensorType>(getRhs().getType())),
      std::make_pair(getValuesDims(), cast<RankedTensorType>(getValues().getType()))};
  int64_t bound = rank;
  for (auto &[dims, type] : ops)
    bound += type.getRank();
  for (auto [k, entry] : llvm::enumerate(ops)) {
    auto &[dims, type] = entry;
    if (static_cast<int64_t>(dims.size()) != type.getRank())
      return emitOpError() << "operand #" << k << " has rank "
                           << type.getRank() << " but is indexed by "
                           << dims.size() << " dims";
    llvm::SmallSet<int64_t, 4> seen;
    for (int64_t d : dims)
      if (d < 0 || d >= bound || !seen.insert(d).second)
        return emitOpError()
               << "operand dims must be distinct iteration dims";
  }
  if (!(getScale().convertToDouble() > 0) ||
      !std::isfinite(getScale().convertToDouble()))
    return emitOpError() << "scale must be a finite number > 0, got "
                         << getScale().convertToDouble();
  if (std::optional<uint64_t> splits = getSplits();
      splits && (static_cast<int64_t>(*splits) < 2 ||
                 static_cast<int64_t>(*splits) > 32))
    return emitOpError() << "splits the keys into "
                         << static_cast<int64_t>(*splits)
                         << " groups: splits(s) takes 2 to 32 (omit it for "
                            "one group)";
  if (std::optional<uint64_t> stages = getStages();
      stages && (static_cast<int64_t>(*stages) < 1 ||
                 static_cast<int64_t>(*stages) > 4))
    return emitOpError() << "keeps " << static_cast<int64_t>(*stages)
                         << " copies of the key and value tiles: stages(n) "
                            "takes 1 to 4";
  // Every dim has one role: batch (all three and the result), i (first and
  // result), e (third and result), j (second and third), d (first and
  // second).
  int64_t n = getIterationExtents().size();
  int roles[16] = {0};
  for (int64_t d = 0; d < n; ++d) {
    unsigned mask = (llvm::is_contained(getLhsDims(), d) ? 1u : 0u) |
                    (llvm::is_contained(getRhsDims(), d) ? 2u : 0u) |
                    (llvm::is_contained(getValuesDims(), d) ? 4u : 0u) |
                    (d < rank ? 8u : 0u);
    if (mask != 15 && mask != (1 | 8) && mask != (4 | 8) && mask != (2 | 4) &&
        mask != (1 | 2))
      return emitOpError()
             << "iteration dim '" << dimName(d)
             << "' has no role: each dim indexes all three operands and the "
                "result (batch), the first operand and the result (rows), the "
                "values and the result, the second operand and the values "
                "(keys), or the first two operands (contracted)";
    ++roles[mask];
  }
  for (auto [mask, what] :
       {std::make_pair(1u | 8u, "row dim (first operand and result)"),
        std::make_pair(4u | 8u, "value dim (values and result)"),
        std::make_pair(2u | 4u, "key dim (second operand and values)"),
        std::make_pair(1u | 2u, "contracted dim (first two operands)")})
    if (roles[mask] != 1)
      return emitOpError() << "needs exactly one " << what << ", has "
                           << roles[mask];
  if (failed(verifyIterationSpace(*this)))
    return failure();
  // Element types: three f32 operands and an f32 result (fma), or three
  // operands of one half type (tensor cores) and a result of f32 or that
  // type (the output rounded once, after the division).
  Type element = getLhs().getType().getElementType();
  for (unsigned k = 1; k < 3; ++k)
    if (Type t = cast<ShapedType>(getOperation()->getOperand(k).getType())
                     .getElementType();
        t != element)
      return emitOpError() << "operand #" << k << " holds " << t
                           << " but operand #0 holds " << element
                           << ": the three operands hold one element type";
  if (!element.isF32() && !element.isF16() && !element.isBF16())
    return emitOpError() << "operands hold " << element
                         << ": the online contraction takes f32, f16 or bf16";
  if (Type r = getResult().getType().getElementType();
      !r.isF32() && r != element)
    return emitOpError() << "result holds " << r << " for operands of "
                         << element
                         << ": the result is f32 or the operands' type";
  // The mapping: batch dims on blocks, the rows a tile per block, the rest
  // sequential (the lowering splits the block's work itself).
  for (int64_t d = 0; d < n; ++d) {
    Attribute a = getMapping()[d];
    bool batch = d < rank && d != getRowDim() && d != getValueDim();
    if (batch) {
      if (getLevel(d) != Level::Block || getTile(d))
        return emitOpError() << "maps batch dim '" << dimName(d)
                             << "' to other than 'block'";
      continue;
    }
    if (d == getRowDim()) {
      TileAttr tile = getTile(d);
      bool ok = tile && tile.getLevels().size() == 2 &&
                tile.getLevels()[0] == Level::Block &&
                tile.getLevels()[1] == Level::Seq;
      if (!ok && !(isa<LevelAttr>(a) && getLevel(d) == Level::Block))
        return emitOpError() << "maps row dim '" << dimName(d)
                             << "' to other than 'block x seq(rows)' (a tile "
                                "of rows per block) or 'block'";
      continue;
    }
    if (!isa<LevelAttr>(a) || getLevel(d) != Level::Seq)
      return emitOpError() << "maps iteration dim '" << dimName(d)
                           << "' to other than 'seq' (the lowering splits a "
                              "block's keys, values and contracted dim among "
                              "its threads)";
  }
  return success();
}
