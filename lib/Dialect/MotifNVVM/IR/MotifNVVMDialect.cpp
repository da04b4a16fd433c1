//===- MotifNVVMDialect.cpp - NVVM ops MLIR 22 lacks ----------------------===//
//
// motif_nvvm.wgmma_rs: wgmma.mma_async with A in registers. Lowered by
// upstream's convert-nvvm-to-llvm through BasicPtxBuilderOpInterface, with
// the operand numbering of upstream's nvvm.wgmma.mma_async (manual
// mapping): the N/2 accumulator outputs $0.., their tied inputs, then the
// four A registers, B's descriptor and the immediates.
//
//===----------------------------------------------------------------------===//
#include "motif/Dialect/MotifNVVM/IR/MotifNVVMDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::motif::nvvm;

#include "motif/Dialect/MotifNVVM/IR/MotifNVVMOpsDialect.cpp.inc"

void MotifNVVMDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "motif/Dialect/MotifNVVM/IR/MotifNVVMOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "motif/Dialect/MotifNVVM/IR/MotifNVVMOps.cpp.inc"

LogicalResult WgmmaRSOp::verify() {
  int64_t n = getN();
  if (n % 8 != 0)
    return emitOpError() << "n = " << n
                         << " is not a multiple of 8 (wgmma m64nNk16 takes "
                            "N = 8, 16, ..., 256)";
  if (getA().size() != 4)
    return emitOpError() << "takes 4 registers of A (a 64 x 16 tile of "
                         << getElementType() << ", 2 per register), not "
                         << getA().size();
  auto type = cast<LLVM::LLVMStructType>(getInouts().getType());
  ArrayRef<Type> body = type.getBody();
  if (static_cast<int64_t>(body.size()) != n / 2 ||
      llvm::any_of(body, [](Type t) { return !t.isF32(); }))
    return emitOpError() << "accumulator must be a struct of " << n / 2
                         << " f32 (m64n" << n << " in f32), not " << type;
  return success();
}

std::string WgmmaRSOp::getPtx() {
  int64_t n = getN(), outs = n / 2;
  std::string kind = getElementType().isBF16() ? "bf16" : "f16";
  std::string ptx;
  llvm::raw_string_ostream ss(ptx);
  // Operands: $0 .. $outs-1 the results, $outs .. $2 outs-1 their tied
  // inputs, then a0..a3, B's descriptor, scale-d, and the immediates.
  int64_t a = 2 * outs, desc = a + 4, scaleD = desc + 1;
  ss << "{\n.reg .pred p;\nsetp.ne.b32 p, $" << scaleD << ", 0;\n"
     << "wgmma.mma_async.sync.aligned.m64n" << n << "k16.f32." << kind << "."
     << kind << " {";
  for (int64_t i = 0; i < outs; ++i)
    ss << (i ? ", " : "") << "$" << i;
  ss << "}, {$" << a << ", $" << a + 1 << ", $" << a + 2 << ", $" << a + 3
     << "}, $" << desc << ", p, $" << scaleD + 1 << ", $" << scaleD + 2
     << ", $" << scaleD + 3 << ";\n}\n";
  return ptx;
}

bool WgmmaRSOp::getAsmValues(
    RewriterBase &rewriter,
    SmallVectorImpl<std::pair<Value, NVVM::PTXRegisterMod>> &asmValues) {
  asmValues.push_back({getResults(), NVVM::PTXRegisterMod::Write});
  asmValues.push_back({getInouts(), NVVM::PTXRegisterMod::ReadWrite});
  for (Value v : getA())
    asmValues.push_back({v, NVVM::PTXRegisterMod::Read});
  asmValues.push_back({getDescriptorB(), NVVM::PTXRegisterMod::Read});
  // scale-d (a predicate from a register), imm-scale-a, imm-scale-b (1: not
  // negated), imm-trans-b.
  for (int v : {getAccumulate() ? 1 : 0, 1, 1, getTransposeB() ? 1 : 0})
    asmValues.push_back(
        {makeConstantI32(rewriter, v), NVVM::PTXRegisterMod::Read});
  return true; // the operands are numbered by getPtx (manual mapping)
}
