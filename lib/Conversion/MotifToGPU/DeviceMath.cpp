//===- DeviceMath.cpp - libdevice calls before any folding ----------------===//
//
// motif-device-math (include/motif/Conversion/Passes.td): the math ops whose
// device result is libdevice's approximation become libdevice calls before
// the canonicalizer runs, so that no folder computes them with the host's
// libm and a constant operand gives the bits the device gives.
//
//===----------------------------------------------------------------------===//

#include "motif/Conversion/Passes.h"

#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::motif {
#define GEN_PASS_DEF_DEVICEMATH
#include "motif/Conversion/Passes.h.inc"
} // namespace mlir::motif

using namespace mlir;

namespace {

struct DeviceMath : motif::impl::DeviceMathBase<DeviceMath> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    LLVMTypeConverter converter(ctx);
    configureGpuToNVVMTypeConverter(converter);
    RewritePatternSet patterns(ctx);
    populateLibDeviceConversionPatterns(converter, patterns);
    // Everything stays but the approximated ops (scalars: the kernel emitter
    // writes no vector math).
    ConversionTarget target(*ctx);
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    target.addDynamicallyLegalOp<
        math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp, math::Log2Op,
        math::Log10Op, math::Log1pOp, math::SinOp, math::CosOp, math::TanOp,
        math::AsinOp, math::AcosOp, math::AtanOp, math::Atan2Op, math::SinhOp,
        math::CoshOp, math::TanhOp, math::AsinhOp, math::AcoshOp,
        math::AtanhOp, math::ErfOp, math::ErfcOp, math::CbrtOp, math::PowFOp,
        math::FPowIOp, math::RsqrtOp>([](Operation *op) {
      return isa<VectorType>(op->getResult(0).getType());
    });
    // The conversion itself would fold a math op of constants first.
    ConversionConfig config;
    config.foldingMode = DialectConversionFoldingMode::Never;
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns), config)))
      signalPassFailure();
  }
};

} // namespace
