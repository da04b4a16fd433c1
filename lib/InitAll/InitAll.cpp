//===- InitAll.cpp - register every motif and upstream piece --------------===//
#include "motif/InitAll.h"

#include "motif/Dialect/Motif/IR/MotifDialect.h"
#include "motif/Dialect/MotifNVVM/IR/MotifNVVMDialect.h"
#include "motif/Dialect/Motif/Transforms/Passes.h"
#include "motif/Conversion/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Transforms/Passes.h"

void mlir::motif::registerAllDialects(DialectRegistry &registry) {
  registry.insert<MotifDialect, nvvm::MotifNVVMDialect>();
  // Everything mlir-opt has: the lowering to PTX goes through many dialects,
  // their interfaces and the LLVM IR translations gpu-module-to-binary uses.
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
}

void mlir::motif::registerAllPasses() {
  mlir::registerAllPasses();
  motif::registerMotifPasses();
  motif::registerMotifConversionPasses();
  motif::registerMotifPipelines();
}
