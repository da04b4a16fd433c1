//===- Passes.h - motif conversion passes -----------------------*- C++ -*-===//
#ifndef MOTIF_CONVERSION_PASSES_H
#define MOTIF_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::motif {

#define GEN_PASS_DECL
#include "motif/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "motif/Conversion/Passes.h.inc"

/// The policies motif-ptx-l2-load-policy takes (its option, motif-compile's
/// --l2-load-policy and motif-lower-to-nvvm's l2-load-policy), and their list
/// for an error message ("evict_last, evict_first, evict_normal, none").
ArrayRef<StringRef> l2LoadPolicies();
std::string l2LoadPolicyList();

/// The passes every kernel module (gpu.module) takes from the motif kernels
/// to the LLVM dialect, as motif-lower-to-nvvm and motif-compile run them:
/// nvgpu to NVVM, canonicalize, CSE, scf to cf, motif-precise-math (with
/// `preciseMath`), gpu to NVVM (bare pointers), NVVM to LLVM.
void addKernelToLLVMPasses(OpPassManager &kernels, bool preciseMath);

/// Registers `motif-lower-to-nvvm`: convert-motif-to-gpu followed by the
/// upstream NVVM pipeline down to a gpu.binary holding PTX.
void registerMotifPipelines();

} // namespace mlir::motif

#endif
