//===- MotifAttributes.td - motif enums and attributes -----*- tablegen -*-===//
#ifndef MOTIF_ATTRIBUTES_TD
#define MOTIF_ATTRIBUTES_TD

include "motif/Dialect/Motif/IR/MotifDialect.td"
include "mlir/IR/EnumAttr.td"

def Motif_Residency : I32EnumAttr<"Residency", "where an intermediate lives", [
    I32EnumAttrCase<"Global", 0, "global">,
    I32EnumAttrCase<"Shared", 1, "shared">,
    I32EnumAttrCase<"Register", 2, "register">]> {
  let cppNamespace = "::mlir::motif";
  let genSpecializedAttr = 0;
}
def Motif_ResidencyAttr : EnumAttr<Motif_Dialect, Motif_Residency, "residency">;

// How one iteration dim of a motif is distributed over the launch hierarchy.
//  block  : one index per thread block (grid dims, row-major linearized)
//  thread : cyclic over all threads of the block (index = k * threads + tid)
//  warp   : one index per warp, computed by lane 0 of that warp
//  lane   : one index per lane, computed by warp 0
//  seq    : a sequential loop inside each executing thread
//  block.warp : one index per warp of the grid (block * warps + warp_id):
//           several rows per block, one per warp
def Motif_Level : I32EnumAttr<"Level", "launch hierarchy level of an iteration dim", [
    I32EnumAttrCase<"Block", 0, "block">,
    I32EnumAttrCase<"Warp", 1, "warp">,
    I32EnumAttrCase<"Lane", 2, "lane">,
    I32EnumAttrCase<"Thread", 3, "thread">,
    I32EnumAttrCase<"Seq", 4, "seq">,
    I32EnumAttrCase<"BlockWarp", 5, "block.warp">]> {
  let cppNamespace = "::mlir::motif";
  let genSpecializedAttr = 0;
}
def Motif_LevelAttr : EnumAttr<Motif_Dialect, Motif_Level, "level">;

// One iteration dim split over a nest of levels, outermost first: the dim's
// index is sum_j c_j * (s_{j+1} * ... * s_{n-1}), where c_j is the
// coordinate of level j (docs/dialect.md, "Tiles"):
//   block(s)  the block's coordinate on this grid dim (outermost only)
//   thread(s) a digit of the thread id: the sized thread levels of a motif,
//             in dim order and outermost first, split tid as a mixed-radix
//             number whose last digit varies fastest; their sizes multiply
//             to the kernel's threads(N)
//   seq(s)    a sequential loop in every thread
// Written `block(64) x thread(16) x seq(8)` in a motif's `over [...]`; an
// outermost `block` or `seq` without a size (`block x thread(16) x seq(8)`,
// `seq x seq(32)`; size 0 here) takes the rest of the extent, so a program
// keeps its tiles when its shapes change.
def Motif_TileAttr : AttrDef<Motif_Dialect, "Tile"> {
  let mnemonic = "tile";
  let summary = "an iteration dim split over a nest of sized levels";
  let parameters = (ins ArrayRefParameter<"::mlir::motif::Level">:$levels,
                        ArrayRefParameter<"int64_t">:$sizes);
  let assemblyFormat = "`<` `[` $levels `]` `,` `[` $sizes `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The sizes for a dim of `extent`: an unsized outermost level (size 0,
    /// written `block x ...` or `seq x ...`) takes what the others leave,
    /// extent / (their product); 0 if that does not divide.
    ::llvm::SmallVector<int64_t> resolvedSizes(int64_t extent) const;
    /// The product of the sizes (an unsized block counts as 1).
    int64_t getInnerExtent() const;
    /// The size of the nest's block level for a dim of `extent`, if any.
    std::optional<int64_t> getBlockSize(int64_t extent) const;
    bool hasLevel(::mlir::motif::Level level) const;
  }];
}

// Each iteration dim: one level (`thread`), or a nest of sized levels.
def Motif_MappingAttr : TypedArrayAttrBase<
    AnyAttrOf<[Motif_LevelAttr, Motif_TileAttr]>, "mapping of iteration dims">;

def Motif_CombinerKind : I32EnumAttr<"CombinerKind", "built-in reduction combiner", [
    I32EnumAttrCase<"Add", 0, "add">,
    I32EnumAttrCase<"Mul", 1, "mul">,
    I32EnumAttrCase<"Max", 2, "max">,
    I32EnumAttrCase<"Min", 3, "min">]> {
  let cppNamespace = "::mlir::motif";
  let genSpecializedAttr = 0;
}
def Motif_CombinerKindAttr : EnumAttr<Motif_Dialect, Motif_CombinerKind, "combiner">;

// The tensor-core instruction a contraction runs on (docs/dialect.md,
// "Tensor cores"): `mma m16n8k16` is mma.sync m16n8k16 with f16 or bf16
// operands and f32 accumulators; `mma m16n8k8` is mma.sync m16n8k8 with f32
// operands rounded to tf32 (an opt-in precision, class `tolerance`) and f32
// accumulators. `mma m64n{64,128,256}k16` is wgmma.mma_async on sm_90a: a
// warpgroup's m64 x N tile, both operands read from 128-byte-swizzled shared
// tiles through matrix descriptors, f16 or bf16 operands, f32 accumulators.
def Motif_MmaShape : I32EnumAttr<"MmaShape", "tensor-core instruction shape", [
    I32EnumAttrCase<"M16N8K16", 0, "m16n8k16">,
    I32EnumAttrCase<"M16N8K8", 1, "m16n8k8">,
    I32EnumAttrCase<"M64N64K16", 2, "m64n64k16">,
    I32EnumAttrCase<"M64N128K16", 3, "m64n128k16">,
    I32EnumAttrCase<"M64N256K16", 4, "m64n256k16">]> {
  let cppNamespace = "::mlir::motif";
  let genSpecializedAttr = 0;
}
def Motif_MmaShapeAttr : EnumAttr<Motif_Dialect, Motif_MmaShape, "mma_shape">;

// Numeric equivalence classes, strongest first (seed 002, section 6).
def Motif_Equivalence : I32EnumAttr<"Equivalence", "numeric equivalence class", [
    I32EnumAttrCase<"Bitwise", 0, "bitwise">,
    I32EnumAttrCase<"Tolerance", 1, "tolerance">,
    I32EnumAttrCase<"Mathematical", 2, "mathematical">,
    I32EnumAttrCase<"Semantic", 3, "semantic">]> {
  let cppNamespace = "::mlir::motif";
  let genSpecializedAttr = 0;
}
def Motif_EquivalenceAttr : EnumAttr<Motif_Dialect, Motif_Equivalence, "equivalence">;

#endif // MOTIF_ATTRIBUTES_TD
