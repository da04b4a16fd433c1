//===- PreciseMath.cpp - correctly rounded sqrt and 16-bit fma -----------===//
//
// motif-precise-math (include/motif/Conversion/Passes.td): before
// convert-gpu-to-nvvm, an f32 math.sqrt becomes llvm.nvvm.sqrt.rn.f
// instead of libdevice's __nv_sqrtf, which MLIR 22 leaves approximate
// (__CUDA_PREC_SQRT is never set); f16 and bf16 take the f32 square root
// between an extension and a rounding. An f16 or bf16 math.fma becomes
// llvm.intr.fma of its type (one rounding) instead of an f32 fma rounded
// again.
//
//===----------------------------------------------------------------------===//

#include "motif/Conversion/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::motif {
#define GEN_PASS_DEF_PRECISEMATH
#include "motif/Conversion/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;

namespace {

/// The correctly rounded f32 square root, `sqrt.rn.f32`. MLIR 22's
/// convert-gpu-to-nvvm marks `llvm.intr.sqrt` illegal (it expects math
/// through libdevice), so the NVPTX intrinsic is called by name.
constexpr llvm::StringLiteral kSqrtRn = "llvm.nvvm.sqrt.rn.f";

/// A scalar `math.sqrt` of f32, f16 or bf16.
struct SqrtToIntrinsic : OpRewritePattern<math::SqrtOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::SqrtOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF16() && !type.isBF16())
      return rewriter.notifyMatchFailure(
          op, "f64 keeps libdevice's sqrt (sqrt.rn.f64); vectors are not "
              "emitted by the kernel emitter");
    Location loc = op.getLoc();
    Type f32 = rewriter.getF32Type();
    Value x = op.getOperand();
    if (!type.isF32())
      x = arith::ExtFOp::create(rewriter, loc, f32, x);
    Value root = LLVM::CallIntrinsicOp::create(
                     rewriter, loc, f32, rewriter.getStringAttr(kSqrtRn),
                     ValueRange{x})
                     .getResult(0);
    if (!type.isF32())
      root = arith::TruncFOp::create(rewriter, loc, type, root);
    rewriter.replaceOp(op, root);
    return success();
  }
};

/// A scalar `math.fma` of f16 or bf16: one rounding, in its own type.
struct HalfFmaToIntrinsic : OpRewritePattern<math::FmaOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::FmaOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF16() && !type.isBF16())
      return rewriter.notifyMatchFailure(
          op, "f32 and f64 fma are libdevice's fma.rn already");
    rewriter.replaceOpWithNewOp<LLVM::FMAOp>(op, type, op.getA(), op.getB(),
                                             op.getC());
    return success();
  }
};

struct PreciseMath : motif::impl::PreciseMathBase<PreciseMath> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<SqrtToIntrinsic, HalfFmaToIntrinsic>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
