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
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect", "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect", "::mlir::func::FuncDialect"
  ];
}

#endif // MOTIF_CONVERSION_PASSES_TD
