//===- MotifOps.td - motif operations ----------------------*- tablegen -*-===//
#ifndef MOTIF_OPS_TD
#define MOTIF_OPS_TD

include "motif/Dialect/Motif/IR/MotifDialect.td"
include "motif/Dialect/Motif/IR/MotifAttributes.td"
include "motif/Dialect/Motif/IR/MotifInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/RegionKindInterface.td"

// A motif tensor: ranked, static in every dim but the leading one, which may
// be `?` -- the function's row count, known at launch (docs/dialect.md,
// "Runtime row counts").
def Motif_Tensor : Type<
    And<[IsTensorTypePred, HasRankPred,
         CPred<"::mlir::motif::hasStaticTrailingDims(::llvm::cast<::mlir::ShapedType>($_self))">]>,
    "tensor static in every dim but the leading one",
    "::mlir::TensorType">;

//===----------------------------------------------------------------------===//
// Kernel and materialization
//===----------------------------------------------------------------------===//

def Motif_KernelOp : Motif_Op<"kernel", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects]> {
  let summary = "one GPU kernel: a block of motifs under one launch";
  let description = [{
    A kernel runs its body once per thread block with `threads` threads per
    block. The grid is the product of the extents of the iteration dims
    mapped to `block` (every motif of the kernel must agree on it). Values
    defined above the kernel are read from global memory. Each result is a
    global materialization: the body yields `motif.materialize ... in global`
    values, which the kernel stores (STG) and later kernels load (LDG).

    ```mlir
    %m = motif.kernel "row_max" threads(256) -> tensor<512xf32> {
      %r = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
             : (tensor<512x1024xf32>) -> tensor<512xf32>
      %g = motif.materialize %r in global : tensor<512xf32>
      motif.yield %g : tensor<512xf32>
    }
    ```

    `cluster(k)` runs the block as a thread-block cluster of k CTAs of
    threads / k threads each (sm_90+; docs/dialect.md, "Clusters"): thread
    `tid` is thread `tid % (threads / k)` of CTA `tid / (threads / k)`, the
    cross-warp step of a reduction reads the other CTAs' partials through
    distributed shared memory, and block barriers are cluster barriers. The
    schedule, and every bit the kernel computes, are those of one block of
    `threads` threads: the attribute chooses how the block is launched.
  }];
  let arguments = (ins StrAttr:$sym_name, I64Attr:$threads,
                       OptionalAttr<I64Attr>:$cluster);
  let results = (outs Variadic<Motif_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  // `$sym_name threads($threads) (cluster($cluster))? (-> types)?
  // attr-dict-with-keyword $body`, written by hand so that the attribute
  // dictionary cannot set `sym_name`, `threads` or `cluster` a second time.
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes, "::llvm::StringRef":$name,
                   "int64_t":$threads)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    ::mlir::motif::YieldOp getYield();
    /// CTAs per cluster: the `cluster` attribute, else 1.
    int64_t getClusterSize() {
      return getCluster() ? static_cast<int64_t>(*getCluster()) : 1;
    }
    /// Threads of one CTA: threads / cluster.
    int64_t getCtaThreads() {
      return static_cast<int64_t>(getThreads()) / getClusterSize();
    }
  }];
}

def Motif_YieldOp : Motif_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["KernelOp", "MapOp", "ReduceOp"]>]> {
  let summary = "yields kernel results or a motif body's scalars";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to yield */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
  let hasVerifier = 1;
}

def Motif_MaterializeOp : Motif_Op<"materialize", [Pure,
    AllTypesMatch<["input", "result"]>, HasParent<"KernelOp">]> {
  let summary = "names where an intermediate lives";
  let description = [{
    The value is the input; the op only states its residency:
    `register` (kept by the thread that computes it, usable by threads that
    own it), `shared` (a workgroup buffer, block barrier between producers and
    consumers), `global` (written to device memory; only as a kernel result).
    `observable` marks a value the outside world may read (a debugging output,
    a value another program reads): it must stay in global memory.
    `--fuse-materialization` rewrites residencies; the verifier checks only
    what is local: a `global` materialization is yielded by its kernel, and
    `register`/`shared` ones are not.

    `register shared_tail(n)` keeps the last `n` of each thread's register
    slots in shared memory instead: a region of the thread's own (no other
    thread reads it, so no barrier), for a row too long for the register
    file but not for registers and shared memory together
    (docs/residency.md, "Shared tails").

    `register recompute` keeps no slots at all: the value's producer, a
    `motif.map` whose result this is (directly), is not run where it stands;
    every reader computes the element it reads from the map's operands, at
    that element (docs/residency.md, "Recompute"). The same operations on the
    same values: the readers see the same bits.
  }];
  let arguments = (ins Motif_Tensor:$input, Motif_ResidencyAttr:$residency,
                       UnitAttr:$observable, OptionalAttr<I64Attr>:$shared_tail,
                       UnitAttr:$recompute);
  let results = (outs Motif_Tensor:$result);
  let builders = [
    OpBuilder<(ins "::mlir::Type":$type, "::mlir::Value":$input,
                   "::mlir::motif::Residency":$residency,
                   CArg<"bool", "false">:$observable), [{
      build($_builder, $_state, type, input, residency, observable,
            ::mlir::IntegerAttr());
    }]>
  ];
  // `$input in <residency> (shared_tail(n))? (recompute)? (observable)?
  // attr-dict : type`,
  // written by hand
  // so that the attribute dictionary cannot set `residency` or `observable`
  // a second time.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Execution motifs
//===----------------------------------------------------------------------===//

class Motif_ComputeOp<string mnemonic, list<Trait> traits = []>
    : Motif_Op<mnemonic, !listconcat(traits, [
        HasParent<"KernelOp">,
        DeclareOpInterfaceMethods<Motif_ComputeOpInterface>])> {
  let hasCustomAssemblyFormat = 1;
  // Bodies are checked after their own ops (so a bad yield reports itself).
  let hasRegionVerifier = 1;
}

def Motif_MapOp : Motif_ComputeOp<"map", [RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "elementwise / affine map with broadcast operands";
  let description = [{
    `y[i, j] = f(x[i, j], m[i])`: the iteration space is the result's shape;
    each operand is indexed by a subset of the result's dims (a broadcast when
    it has fewer). The body is scalar.

    ```mlir
    %e = motif.map (%x[i, j], %m[i]) -> [i, j] over [block, thread]
           : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    ```
  }];
  let arguments = (ins Variadic<Motif_Tensor>:$inputs,
                       ArrayAttr:$indexing, Motif_MappingAttr:$mapping);
  let results = (outs Motif_Tensor:$result);
  let regions = (region SizedRegion<1>:$body);
}

def Motif_ReduceOp : Motif_ComputeOp<"reduce", [RecursiveMemoryEffects]> {
  let summary = "reduction over explicit dims with a built-in or general combiner";
  let description = [{
    Reduces every input over the iteration dims not named in the result.
    A built-in combiner (`<add>`, `<mul>`, `<max>`, `<min>`) takes one input.
    A general combiner takes N inputs (a tuple state), N identity values
    (`init`) and a region of 2N scalars (two states) yielding N: it must be
    associative and commutative for the parallel levels it is mapped to
    (this is how online softmax's (max, sum) state is written). Elements
    are combined in increasing index order inside a thread; across threads
    the tree is the butterfly order (docs/dialect.md).

    ```mlir
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<4x8xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Variadic<Motif_Tensor>:$inputs,
                       DenseI64ArrayAttr:$reduction_dims,
                       OptionalAttr<Motif_CombinerKindAttr>:$kind,
                       OptionalAttr<ArrayAttr>:$init,
                       Motif_MappingAttr:$mapping);
  let results = (outs Variadic<Motif_Tensor>:$results);
  let regions = (region MaxSizedRegion<1>:$combiner);
}

def Motif_BroadcastOp : Motif_ComputeOp<"broadcast", [Pure]> {
  let summary = "broadcast of a (reduction) result to a larger shape";
  let description = [{
    ```mlir
    %b = motif.broadcast %m[i] -> [i, j] over [block, thread]
           : (tensor<4xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Motif_Tensor:$input, DenseI64ArrayAttr:$dims,
                       Motif_MappingAttr:$mapping);
  let results = (outs Motif_Tensor:$result);
}

def Motif_ContractOp : Motif_ComputeOp<"contract", [Pure]> {
  let summary = "contraction: sum over shared dims of lhs * rhs";
  let description = [{
    Iteration dims are the result dims followed by the contracted dims (in
    order of first appearance). The sum runs over contracted indices in
    increasing order with fused multiply-add in the element type.

    ```mlir
    %s = motif.contract (%q[i, d], %k[j, d]) -> [i, j] over [block, thread, seq]
           : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    ```

    With `mma m16n8k16` after the mapping the contraction runs on tensor
    cores (mma.sync m16n8k16, f16/bf16 operands, f32 accumulators): the
    mapping must place the result in the instruction's accumulator layout
    and the sum over each 16-wide step of k is the instruction's, not a
    sequence of fma (class `tolerance`; docs/dialect.md, "Tensor cores").
    `stages(n)` after it sets the buffers of the cp.async pipeline (default 3).
  }];
  let arguments = (ins Motif_Tensor:$lhs, Motif_Tensor:$rhs,
                       DenseI64ArrayAttr:$lhs_dims, DenseI64ArrayAttr:$rhs_dims,
                       Motif_MappingAttr:$mapping,
                       OptionalAttr<Motif_MmaShapeAttr>:$mma,
                       OptionalAttr<I64Attr>:$mma_stages);
  let results = (outs Motif_Tensor:$result);
  // Without `mma`: a contraction of fma.
  let builders = [
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$lhs,
                   "::mlir::Value":$rhs, "::llvm::ArrayRef<int64_t>":$lhs_dims,
                   "::llvm::ArrayRef<int64_t>":$rhs_dims,
                   "::mlir::ArrayAttr":$mapping), [{
      build($_builder, $_state, result, lhs, rhs, lhs_dims, rhs_dims, mapping,
            ::mlir::motif::MmaShapeAttr(), ::mlir::IntegerAttr());
    }]>];
}

def Motif_TransposeOp : Motif_ComputeOp<"transpose", [Pure]> {
  let summary = "layout change: a permutation of dims";
  let description = [{
    `result[p...] = input[...]`: the iteration space is the result's shape;
    `permutation[k]` is the input dim that becomes result dim k.

    ```mlir
    %t = motif.transpose %x[i, j] -> [j, i] over [block, thread]
           : (tensor<4x8xf32>) -> tensor<8x4xf32>
    ```
  }];
  let arguments = (ins Motif_Tensor:$input, DenseI64ArrayAttr:$permutation,
                       Motif_MappingAttr:$mapping);
  let results = (outs Motif_Tensor:$result);
}

def Motif_OnlineContractOp : Motif_ComputeOp<"online_contract", [Pure]> {
  let summary = "softmax over a contraction's result, contracted again: the flash form";
  let description = [{
    `y[b, i, e] = sum_j softmax_j(c * s[b, i, j]) * v[b, j, e]` with
    `s[b, i, j] = sum_d a[b, i, d] * k[b, j, d]` (`c` = `scale`, > 0): the
    online-softmax state (m, l, acc) carried over the keys j in tiles, so
    that neither s nor the probabilities are ever stored (rule 4,
    docs/dialect.md "Online contraction"). Rule 4 derives it from the plain
    program (scores, scale, max, exp, sum, divide, P.V); its class against
    that program is `mathematical` (the sums are rescaled as the max grows,
    and the division moves after the contraction).

    Iteration dims: the result dims, then by first appearance the others.
    Exactly one dim (j) indexes the second and third operands only, and
    exactly one (d) the first and second only; every other dim (batch) of
    the operands indexes all three and the result, and one (i) the first
    and the result, one (e) the third and the result. The mapping puts the
    batch dims on `block`, i on `block x seq(rows)` (a tile of rows per
    block) and every other dim on `seq`; the lowering splits the block's
    work among its threads itself (docs/lowering.md). `splits(s)` (optional,
    fma lowering only) divides the block's threads into s groups, each
    walking a contiguous run of the key tiles with its own state; the
    partial states merge at the end (rule 4's merge) -- for grids too small
    to fill the GPU. `stages(n)` (optional, 1 to 4) sets the copies of the
    key and value tiles in flight (getKeyStages).

    ```mlir
    %y = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e])
           -> [h, i, e] scale(0.125)
           over [block, block x seq(64), seq, seq, seq]
           : (tensor<2x256x64xf32>, tensor<2x256x64xf32>,
              tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
    ```
  }];
  let arguments = (ins Motif_Tensor:$lhs, Motif_Tensor:$rhs,
                       Motif_Tensor:$values,
                       DenseI64ArrayAttr:$lhs_dims, DenseI64ArrayAttr:$rhs_dims,
                       DenseI64ArrayAttr:$values_dims, F64Attr:$scale,
                       Motif_MappingAttr:$mapping,
                       OptionalAttr<I64Attr>:$splits,
                       OptionalAttr<I64Attr>:$stages);
  let results = (outs Motif_Tensor:$result);
  let extraClassDeclaration = [{
    /// Copies of the key and value tiles in shared memory (`stages(n)`, or
    /// the lowering's default: kOnlineMmaStages on tensor cores; on fma
    /// kOnlineStages where the bytes fit and there are no key groups, else
    /// 1). With n > 1 they are copied by cp.async, tile t + n - 1 landing
    /// while tile t is used; with 1, by loads and stores between barriers.
    int64_t getKeyStages();
    /// The roles of the iteration dims (valid after verification).
    int64_t getKeyDim();        // j
    int64_t getContractedDim(); // d
    int64_t getRowDim();        // i
    int64_t getValueDim();      // e
    /// Rows of the row dim per block: its tile's inner size, 1 under 'block'.
    int64_t getRowsPerBlock();
    /// Groups of threads that split the keys (`splits(s)`), 1 without.
    int64_t getKeyGroups() { return getSplits().value_or(1); }
    /// Why the flash lowering (lib/Conversion/MotifToGPU/OnlineContraction)
    /// cannot take this op in a block of `threads` threads, or nullopt: the
    /// operand layout, the contracted and value extents, rows per block.
    /// The rewrite that derives the op asks it first and declines.
    std::optional<std::string> getLoweringLimit(int64_t threads);
    /// The tiles the flash lowering stages in shared memory per block: the
    /// query rows, a tile of keys, the same tile of values.
    SmallVector<OnlineStagedTile> getStagedTiles();
    /// Their bytes, all together (at most kOnlineSharedLimit to lower).
    int64_t getStagedBytes();
    /// Whether the lowering runs the products on tensor cores (f16/bf16
    /// operands: mma.sync m16n8k16, the scores and probabilities in
    /// accumulator fragments); f32 operands run on fma.
    bool usesTensorCores();
    /// Keys per staged tile: kOnlineKeyTile on fma; on tensor cores
    /// kOnlineMmaKeyTile, or half of it when the warp's m-tiles hold more
    /// than 128 value columns (2 m-tiles x E = 128: the scores of a tile
    /// and the accumulators share the 255 registers).
    int64_t getKeyTile();
    /// Warps and m-tiles (16 rows) per warp of the tensor-core lowering for
    /// `rows` rows per block in `threads` threads: 1, 2, 4 or 8 warps of 1
    /// or 2 m-tiles, rows = 16 x warps x m-tiles; {0, 0} for any other
    /// pair. On wgmma every 4 warps are a warpgroup holding 64 x m-tiles
    /// consecutive rows.
    static std::pair<int64_t, int64_t> mmaWarpsAndTiles(int64_t rows,
                                                        int64_t threads);
    /// The threads fuse-materialization gives a block of `rows` rows on
    /// tensor cores: 128 for 128 (4 warps of 2 m-tiles) and 64, 64 for 32,
    /// 32 for 16; 0 for any other count.
    static int64_t defaultMmaThreads(int64_t rows);
    /// mmaWarpsAndTiles of the op's rows in its kernel's threads (in
    /// defaultMmaThreads outside a kernel).
    std::pair<int64_t, int64_t> getMmaWarpsAndTiles();
    /// The n of wgmma.mma_async m64nNk16 (the key tile) when the lowering
    /// for sm_90a runs the scores S = Q K^T on wgmma: half operands, whole
    /// warpgroups (4 or 8 warps, each warpgroup 64 or 128 rows) and a
    /// contracted extent a
    /// multiple of 64; nullopt otherwise (convert-motif-to-gpu's
    /// online-wgmma; docs/lowering.md, "Online contraction on tensor cores").
    std::optional<int64_t> getWgmmaScoresN();
    /// Whether, with its scores on wgmma, the lowering runs P V on wgmma too
    /// (convert-motif-to-gpu's online-wgmma-pv): P the A operand, in
    /// registers (online-p-registers, the default) or rounded into a
    /// swizzled shared tile of rows x keys (64 or 32 keys a row), V staged
    /// MN-major in 64-column atoms (a value extent a multiple of 64), all of
    /// it within the shared memory a block may opt in to (counting P's
    /// tiles, which the form in registers leaves unused).
    bool hasWgmmaPV();
    /// Whether P V on wgmma pays where it applies (hasWgmmaPV), the rule of
    /// online-wgmma-pv=auto. With P in registers (`pInRegisters`, the
    /// default lowering): wherever it applies; measured on the H200, bf16 64
    /// heads x 4096: D = E = 64 0.662 ms against 0.718 on mma.sync (docs/
    /// results/flash-variants-p-registers.txt). With P through shared
    /// memory: at a value extent of 128 or more (E = 128 1.368 ms against
    /// 1.568 on mma.sync; E = 64 0.751 against 0.721; docs/lowering.md).
    bool prefersWgmmaPV(bool pInRegisters = true);
  }];
}

#endif // MOTIF_OPS_TD
