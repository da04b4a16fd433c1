//===- Passes.td - motif conversion passes -----------------*- tablegen -*-===//
#ifndef MOTIF_CONVERSION_PASSES_TD
#define MOTIF_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMotifToGPU : Pass<"convert-motif-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Lower motif kernels to gpu.func kernels and host launch code";
  let description = [{
    Every `motif.kernel` becomes a `gpu.func` (bare-pointer ABI: one memref
    per buffer) in `gpu.module @motif_kernels`; every motif function becomes
    a destination-passing host function over memrefs that allocates the
    global intermediates and launches the kernels in order (docs/abi.md).

    Inside a kernel each motif is emitted for the iteration instances of the
    executing thread (docs/lowering.md): `register` materializations become
    SSA values (the per-thread instances are unrolled), `shared` ones a
    workgroup buffer followed by `gpu.barrier`, `global` ones stores to the
    kernel's output. Reductions accumulate thread-locally, then combine
    across lanes with a `gpu.shuffle xor` butterfly and across warps through
    a shared scratch buffer and a barrier, leaving the result in every thread.

    With `reverse-rereads` (the default), an elementwise motif that reads a
    global tensor an earlier motif of the same kernel already read walks its
    loops over that tensor's dims in reverse instance order, so it re-reads
    the most recently loaded (still L2-resident) lines first. Each of its
    instances is computed and stored independently: no value changes.
  }];
  let options = [
    Option<"reverseRereads", "reverse-rereads", "bool", /*default=*/"true",
           "Walk an elementwise motif's loops in reverse instance order over "
           "a global tensor an earlier motif of the kernel already read "
           "(bitwise-neutral; re-reads what is still in L2 first)">,
    Option<"groupStores", "group-stores", "bool",
           /*default=*/"true",
           "A map emits its unmasked global stores 16 bytes at a time, "
           "after everything that computes them (a branch in its body, "
           "rule 6's opaque copies), so LLVM can merge them into 128-bit "
           "stores (bitwise-neutral; measured never slower, "
           "docs/lowering.md)">,
    Option<"clusterPush", "cluster-push", "bool", /*default=*/"true",
           "In a cluster kernel, each warp pushes its reduction partial into "
           "every CTA's scratch (st.shared::cluster) before the exchange "
           "barrier and reads the partials from its own CTA after it, so no "
           "CTA reads another's shared memory and the kernel needs no exit "
           "barrier (a start barrier instead; bitwise-neutral; 1.018x on "
           "bf16 1024x131072, H100). false: each CTA pulls the partials "
           "from the others' scratch after the barrier "
           "(ld.shared::cluster) and waits at an exit barrier "
           "(docs/lowering.md, \"Clusters\")">,
    Option<"clusterMbarrier", "cluster-mbarrier", "bool", /*default=*/"true",
           "With cluster-push, an exchange outside any loop, of one result "
           "instance and 32-bit partials, stores its partials with st.async "
           "and counts their bytes on an mbarrier of each receiving CTA, "
           "which waits on its own mbarrier: no cluster barrier after the "
           "start, no MEMBAR (bitwise-neutral; 1.014x on bf16 1024x131072 "
           "and 1.04 - 1.14x on the small cluster kernels, H100; false: "
           "behind cluster barriers; docs/lowering.md, \"Clusters\")">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "Target chip: a contraction on wgmma (`mma m64nNk16`) needs "
           "sm_90a">,
    Option<"wgmmaInFlight", "wgmma-in-flight", "bool", /*default=*/"true",
           "Keep each staged step's wgmma group in flight across the next "
           "step's barrier (wait for at most one pending group; the cp.async "
           "pipeline then copies stages - 2 steps ahead, not stages - 1; needs "
           "3 or more stages, else it has no effect)">,
    Option<"gridGroup", "grid-group", "int64_t", /*default=*/"-1",
           "Order the blocks of a kernel whose grid has two or more static "
           "dims in groups of this many along the second-to-last (the row "
           "blocks of a GEMM), the last running fastest within a group "
           "(Triton's GROUP_M), so blocks running at once share operand "
           "panels in L2; 0 or 1: row-major; -1 (auto, the default): 8 for "
           "a kernel with a contraction on wgmma, row-major otherwise">,
    Option<"mmaFragmentPipeline", "mma-fragment-pipeline", "bool",
           /*default=*/"true",
           "An mma.sync contraction loads the ldmatrix fragments of each "
           "16-wide slice of k one slice ahead, across steps too (the wait and "
           "barrier for the next step before the last slice's mma.sync), as "
           "CUTLASS's multistage mainloop; needs 2 stages and 2 slices a step, "
           "or 3 stages; false: wait, barrier, copy, then the step's slices">,
    Option<"onlineWgmma", "online-wgmma", "bool", /*default=*/"true",
           "On sm_90a, compute a half-precision online contraction's scores "
           "S = Q K^T on wgmma (whole warpgroups, a contracted extent a "
           "multiple of 64)">,
    Option<"onlineWgmmaPV", "online-wgmma-pv", "std::string",
           /*default=*/"\"auto\"",
           "With the scores on wgmma, run P V on wgmma too: P rounded into a "
           "swizzled shared tile, V MN-major (key tiles of 32 or 64, a value "
           "extent a multiple of 64). auto: where it pays "
           "(OnlineContractOp::prefersWgmmaPV, a value extent of 128 or more); "
           "true: wherever it applies; false: P V on mma.sync">,
    Option<"onlineOverlap", "online-overlap", "std::string",
           /*default=*/"\"auto\"",
           "With the scores on wgmma and 3 or more stages, run an online "
           "contraction's P V one key tile behind its scores: step t issues "
           "S_t and P_{t-1} V_{t-1} and reduces S_t while P V runs (the "
           "copies then run stages - 2 tiles ahead; P on wgmma takes two "
           "shared tiles). auto: where P V runs on wgmma too; true: also "
           "with P V on mma.sync; false: each step's P V after its softmax">,
    Option<"onlinePingpong", "online-pingpong", "std::string",
           /*default=*/"\"auto\"",
           "With P V behind the scores and on wgmma, in two warpgroups "
           "(threads(256)): the warpgroups take turns issuing their wgmmas "
           "through named barriers, one's softmax under the other's products "
           "(FlashAttention-3's ping-pong). auto: at a value extent of 128 or "
           "more; true: wherever it applies; false: never">,
    Option<"onlineMbarrier", "online-mbarrier", "std::string",
           /*default=*/"\"auto\"",
           "With P V behind the scores and on wgmma, track the staged key "
           "tiles with mbarriers (a full one the copies arrive on as they "
           "land, an empty one each thread arrives on when done with the "
           "tile) instead of the block's barrier per tile, so that the "
           "warpgroups need not meet every tile. auto: at a value extent of "
           "128 or more; true: wherever it applies; false: never">,
    Option<"onlinePRegisters", "online-p-registers", "bool",
           /*default=*/"true",
           "With P V on wgmma, keep P in registers as the wgmma's A operand "
           "(motif_nvvm.wgmma_rs, the mma.sync A fragments of the scores' "
           "accumulator) instead of rounding it into a swizzled shared tile "
           "that the wgmma reads through a descriptor">
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::func::FuncDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::vector::VectorDialect",
    "::mlir::motif::nvvm::MotifNVVMDialect"
  ];
}

def ConvertLinalgToMotif : Pass<"convert-linalg-to-motif", "::mlir::func::FuncOp"> {
  let summary = "Import linalg-on-tensors (as torch-mlir prints it) as an unfused motif program";
  let description = [{
    Every linalg op of a function over static-shaped f32 tensors becomes one
    `motif.kernel` whose result is materialized `in global`: a parallel
    `linalg.generic` (or elementwise named op) a `motif.map` (a pure
    permutation a `motif.transpose`), a reduction a `motif.reduce` (its
    element function, when it has one, a map kernel before it), a
    sum of products (`linalg.matmul`, `batch_matmul`) a `motif.contract`,
    `linalg.softmax` max / exp / sum / divide. Dead results of
    multi-result reductions (torch-mlir's argmax) are dropped, a
    `linalg.fill` that initializes a reduction is folded when it is the
    combiner's identity, unit-dim `tensor.expand_shape` /
    `collapse_shape` change indexing only. Every motif gets the default
    mapping of docs/import.md (leading dims on blocks, the innermost on
    threads) for `--fuse-materialization` to start from. Anything else is
    a located error naming the op and why (docs/import.md). Functions
    without linalg or tensor ops are left alone.
  }];
  let dependentDialects = [
    "::mlir::motif::MotifDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect"
  ];
}

def PtxL2LoadPolicy : Pass<"motif-ptx-l2-load-policy", "::mlir::ModuleOp"> {
  let summary = "Give the read-only global loads of every PTX kernel an L2 cache eviction policy";
  let description = [{
    Runs after `gpu-module-to-binary` (format isa) on the PTX text of every
    `#gpu.object`: each `ld.global.nc` (a load LLVM proved read-only: a
    kernel input, docs/abi.md) becomes `ld.global.nc.L2::cache_hint ...,
    %motif_l2_policy`, and each function that has one creates the policy
    once on entry (`createpolicy.fractional.L2::<policy>.b64 ..., 1.0`).
    Stores, shared-memory and async copies are left as they are. Values do
    not change (a cache hint; class bitwise).

    Why text: neither LLVM 22's NVPTX back end (whose load-store vectorizer
    forms the 128-bit loads) nor MLIR 22's NVVM dialect can attach an L2
    cache policy to an ordinary load (LLVM after 22 reads `!mem.cache_hint`
    metadata; the upstream `nvvm.prefetch ... evict_last` is a separate
    request per line and measured 25 - 30% slower on the norms).

    Measured on the H200 (docs/lowering.md, "L2 load policy"): evict_last
    makes every memory-bound bench kernel 1.4 - 9% faster after an
    L2-evicting lead, evict_first 3 - 6% slower, evict_normal no change.

    A PTX target below sm_80 (no `createpolicy`) or an object that is not
    PTX is left alone with a remark; every rewritten kernel gets a remark
    with its count of loads.
  }];
  let options = [
    Option<"policy", "policy", "std::string", /*default=*/"\"evict_last\"",
           "evict_last (the default), evict_first, evict_normal, or none "
           "(leave the PTX as it is)">
  ];
}

def RaisePtxIsa : Pass<"motif-raise-ptx-isa", "::mlir::ModuleOp"> {
  let summary = "Raise a kernel module's PTX ISA to what its inline PTX needs";
  let description = [{
    Runs after `nvvm-attach-target`, before `gpu-module-to-binary`. The
    NVPTX back end writes the PTX ISA version the target's features ask for
    (`+ptxNN`), else the least the chip needs (sm_90: 7.8, sm_90a: 8.0), and
    never looks inside inline assembly. An `llvm.inline_asm` of a
    `gpu.module` that needs a later ISA than its `#nvvm.target` gives raises
    that target's `+ptxNN` to it; every other module keeps its PTX as it was
    (a kernel without such an instruction stays PTX 7.8 on sm_90, for
    toolchains before CUDA 12.1).

    The instructions it knows (the ones convert-motif-to-gpu writes as
    inline PTX): `st.async` (cluster-mbarrier's exchange) needs PTX ISA 8.1
    and sm_90. A target below the instruction's chip is an error located at
    the asm (never a PTX that ptxas rejects). Each raise is a remark on the
    module.
  }];
}

def DeviceMath : Pass<"motif-device-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Call libdevice for the math ops no host folder computes as the device does";
  let description = [{
    Before anything folds (the first pass of the kernels' lowering): each
    math op whose device result is libdevice's approximation -- exp, exp2,
    expm1, log, log2, log10, log1p, the trigonometric and hyperbolic
    functions and their inverses, atan2, erf, erfc, cbrt, powf, fpowi,
    rsqrt -- becomes the call of libdevice that `convert-gpu-to-nvvm` would
    emit for it (upstream `populateLibDeviceConversionPatterns`), so that no
    folder computes it on the host. MLIR's math folders call the host's
    libm: `math.tanh` of a constant became the host's `tanhf` of it, which
    can differ from `__nv_tanhf` in the last bit. A fused kernel in which a
    value became constant (a chain of maps over constants, its register
    values passed on) then stored other bits than the unfused kernels,
    where the value came through memory (motif.fuzz_gpu, session 19:
    `bitwise-mismatch` on a program of `motif-fuzz gen --seed=20261219`,
    p184). Correctly rounded ops (sqrt, fma, abs, ceil, floor, round,
    copysign, ...) stay: the host computes their bits too.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def PreciseMath : Pass<"motif-precise-math", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Lower math.sqrt and 16-bit math.fma to their correctly rounded instructions";
  let description = [{
    What the evaluator computes (docs/evaluator.md), the kernels compute:

    * `math.sqrt` of f32, f16 or bf16. `convert-gpu-to-nvvm` lowers an f32
      one to libdevice's `__nv_sqrtf`, which asks
      `__nvvm_reflect("__CUDA_PREC_SQRT")`; MLIR 22's NVVM target does not
      set it (LLVM 22's NVVMReflect reads only `nvvm-reflect-ftz` from the
      module), so the square root was `sqrt.approx.f32`, not libm's `sqrt`
      and not nvcc's default (`-prec-sqrt=true`). It becomes a call of the
      NVPTX intrinsic `llvm.nvvm.sqrt.rn.f` (`sqrt.rn.f32`;
      `convert-gpu-to-nvvm` marks `llvm.intr.sqrt` illegal); an f16 or bf16
      one is extended to f32, takes the same square root and is rounded
      back, which is the correctly rounded 16-bit result (f32 holds more
      than twice the precision). f64 stays with libdevice (`__nv_sqrt`:
      `sqrt.rn.f64`); `math.rsqrt` stays `rsqrt.approx` as in nvcc.
    * `math.fma` of f16 or bf16. `convert-gpu-to-nvvm` extends it to f32,
      calls `__nv_fmaf` and rounds the f32 result: two roundings, which can
      differ from the one of a fused multiply-add by an ulp. It becomes
      `llvm.intr.fma` in its own type (`fma.rn.f16`, `fma.rn.bf16`).

    Class bitwise against the evaluator for these ops.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::arith::ArithDialect"
  ];
}

#endif // MOTIF_CONVERSION_PASSES_TD
