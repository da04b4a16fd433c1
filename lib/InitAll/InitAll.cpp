//===- InitAll.cpp - register every motif and upstream piece --------------===//
#include "motif/InitAll.h"

#include "motif/Dialect/Motif/IR/MotifDialect.h"
#include "motif/Dialect/Motif/Transforms/Passes.h"

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
  registry.insert<MotifDialect, arith::ArithDialect, func::FuncDialect,
                  gpu::GPUDialect, LLVM::LLVMDialect, NVVM::NVVMDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect, vector::VectorDialect>();
}

void mlir::motif::registerAllPasses() {
  registerTransformsPasses();
  motif::registerMotifPasses();
}
