//===- MotifNVVMOps.td - NVVM ops MLIR 22 lacks ------------*- tablegen -*-===//
//
// The few NVVM-level instructions motif's lowering needs and MLIR 22's NVVM
// dialect does not model. Each implements upstream's
// BasicPtxBuilderOpInterface, so upstream's convert-nvvm-to-llvm lowers it
// (PtxLowering, the pattern every PTX-builder NVVM op goes through, such as
// nvvm.wgmma.mma_async) and nothing here emits inline assembly by hand.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_NVVM_OPS_TD
#define MOTIF_NVVM_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/LLVMIR/LLVMOpBase.td"
include "mlir/Dialect/LLVMIR/BasicPtxBuilderInterface.td"

def MotifNVVM_Dialect : Dialect {
  let name = "motif_nvvm";
  let cppNamespace = "::mlir::motif::nvvm";
  let summary = "NVVM instructions MLIR 22's NVVM dialect lacks";
  let description = [{
    Ops at the level of the NVVM dialect (LLVM types, one PTX instruction
    each) for what MLIR 22 does not model. They lower through upstream's
    `convert-nvvm-to-llvm` (BasicPtxBuilderOpInterface). See
    docs/lowering.md, "P V with P in registers".
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

class MotifNVVM_Op<string mnemonic, list<Trait> traits = []>
    : Op<MotifNVVM_Dialect, mnemonic, traits>;

def MotifNVVM_WgmmaRSOp : MotifNVVM_Op<"wgmma_rs", [
    DeclareOpInterfaceMethods<BasicPtxBuilderOpInterface, ["getAsmValues"]>,
    AllTypesMatch<["inouts", "results"]>]> {
  let summary = "wgmma.mma_async with the A operand in registers";
  let description = [{
    One `wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}.{bf16,f16}`
    of a warpgroup (sm_90a) whose A operand (64 x 16, row-major: K-major)
    comes from registers, B from shared memory through a matrix descriptor:
    the form upstream's `nvvm.wgmma.mma_async` (A by descriptor only) does
    not take.

    Each thread passes its four 32-bit registers of A, two halves packed
    each, in the layout of mma.sync m16n8k16's A fragment for the 16 rows
    of its warp (warp w of the warpgroup holds rows 16 w .. 16 w + 15):
    a0 (g, 2c), a1 (g + 8, 2c), a2 (g, 8 + 2c), a3 (g + 8, 8 + 2c), with g
    = lane / 4, c = lane % 4. `inouts` is the f32 accumulator (N / 2
    elements per thread, the layout of nvvm.wgmma.mma_async's); without
    `accumulate` it is overwritten (scale-d 0). `transposeB` reads B
    MN-major (imm-trans-b 1), else K-major.

    Like nvvm.wgmma.mma_async it is asynchronous: it follows a
    `nvvm.wgmma.fence.aligned`, is committed by
    `nvvm.wgmma.commit.group.sync.aligned`, and its result may be read only
    after a `nvvm.wgmma.wait.group.sync.aligned` covers it; the A registers
    must not change until then either.

    ```mlir
    %d = motif_nvvm.wgmma_rs %acc, [%a0, %a1, %a2, %a3], %descB
           {n = 64 : i64, elementType = bf16, accumulate, transposeB}
           : !llvm.struct<(f32, ...)>
    ```
  }];
  let arguments = (ins LLVM_AnyStruct:$inouts, Variadic<I32>:$a,
                   I64:$descriptorB,
                   ConfinedAttr<I64Attr, [IntMinValue<8>, IntMaxValue<256>]>:$n,
                   TypeAttrOf<AnyTypeOf<[BF16, F16]>>:$elementType,
                   UnitAttr:$accumulate, UnitAttr:$transposeB);
  let results = (outs LLVM_AnyStruct:$results);
  let assemblyFormat = [{
    $inouts `,` `[` $a `]` `,` $descriptorB attr-dict `:` type($inouts)
  }];
  let hasVerifier = 1;
}

#endif // MOTIF_NVVM_OPS_TD
