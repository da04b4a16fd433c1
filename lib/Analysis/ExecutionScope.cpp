//===- ExecutionScope.cpp - who computes and who reads an element ---------===//
#include "motif/Analysis/ExecutionScope.h"

using namespace mlir;
using namespace mlir::motif;

EdgeScope mlir::motif::classifyEdge(ComputeOpInterface producer,
                                    ComputeOpInterface consumer,
                                    unsigned operandIndex, int64_t threads) {
  MotifSchedule p(producer, threads);
  return classifyEdge(p, MotifSchedule(consumer, p.getBlock().threads),
                      operandIndex);
}

int64_t mlir::motif::elementsPerThread(ComputeOpInterface producer,
                                       int64_t threads) {
  return registerLayoutOf(MotifSchedule(producer, threads)).slots;
}

int64_t mlir::motif::bytesPerBlock(ComputeOpInterface producer, Value value) {
  return sharedLayoutOf(MotifSchedule(producer),
                        cast<ShapedType>(value.getType()).getElementType())
      .bytes;
}

bool mlir::motif::reducesAcrossThreads(ComputeOpInterface op) {
  for (int64_t d : op.getReductionIterationDims()) {
    Level l = op.getLevel(d);
    if (l == Level::Thread || l == Level::Warp || l == Level::Lane)
      return true;
  }
  return false;
}
