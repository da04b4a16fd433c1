//===- InitAll.h - register every motif and upstream piece ------*- C++ -*-===//
#ifndef MOTIF_INITALL_H
#define MOTIF_INITALL_H

namespace mlir {
class DialectRegistry;
namespace motif {
/// The motif dialect and every upstream dialect the pipeline touches.
void registerAllDialects(DialectRegistry &registry);
/// Motif passes and pipelines plus the upstream passes used to reach PTX.
void registerAllPasses();
} // namespace motif
} // namespace mlir

#endif
