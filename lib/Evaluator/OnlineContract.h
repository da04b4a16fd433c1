//===- OnlineContract.h - the meaning of motif.online_contract --*- C++ -*-===//
//
// Internal to the evaluators: both the sequential and the schedule-faithful
// model evaluate an online contraction by this one definition.
//
//===----------------------------------------------------------------------===//
#ifndef MOTIF_LIB_EVALUATOR_ONLINECONTRACT_H
#define MOTIF_LIB_EVALUATOR_ONLINECONTRACT_H

#include "motif/Dialect/Motif/IR/MotifOps.h"
#include "motif/Evaluator/ScalarProgram.h"

#include "llvm/ADT/SmallVector.h"

#include <cmath>
#include <limits>

namespace mlir::motif::detail {

/// y at one result point, in T: per row (every result dim but the value
/// dim), the scores s_j = sum_d a*k (fma, d increasing), t_j = c * s_j,
/// m = max_j t_j, p_j = exp(t_j - m), y_e = (sum_j p_j v_je) / (sum_j p_j).
/// A row whose scores are all -inf gets m = 0 (then p = 0 and y = 0/0 =
/// NaN, what the unfused softmax gives). The row's p and l are kept
/// between calls for the same row. `at(i, point)` reads operand i. With
/// half operands, p meets v rounded to their format when `roundP` (the f32
/// model: a tensor core multiplies half operands; l sums p unrounded), and
/// exactly in the float64 reference.
template <typename T>
struct OnlineContractRows {
  llvm::SmallVector<int64_t> row;
  llvm::SmallVector<T> p;
  /// p rounded to the operands' format (what P.V multiplies), once a row.
  llvm::SmallVector<T> pRounded;
  T l = 0;
  bool valid = false;

  template <typename At>
  T at(OnlineContractOp op, llvm::ArrayRef<int64_t> extents,
       llvm::SmallVectorImpl<int64_t> &point, At &&read, bool roundP) {
    FloatFormat format =
        roundP ? floatFormatOf(op.getLhs().getType().getElementType())
               : FloatFormat::F64;
    int64_t j = op.getKeyDim(), d = op.getContractedDim(),
            e = op.getValueDim();
    llvm::SmallVector<int64_t> key;
    for (int64_t r : op.getResultIterationDims())
      if (r != e)
        key.push_back(point[r]);
    if (!valid || key != row) {
      row = key;
      valid = true;
      T c = static_cast<T>(op.getScale().convertToDouble());
      p.assign(extents[j], T(0));
      T m = -std::numeric_limits<T>::infinity();
      for (int64_t jj = 0; jj < extents[j]; ++jj) {
        point[j] = jj;
        T acc = 0;
        for (int64_t dd = 0; dd < extents[d]; ++dd) {
          point[d] = dd;
          acc = std::fma(static_cast<T>(read(0u, point)),
                         static_cast<T>(read(1u, point)), acc);
        }
        p[jj] = c * acc;
        if (!(p[jj] <= m))
          m = p[jj]; // NaN propagates
      }
      if (m == -std::numeric_limits<T>::infinity())
        m = 0;
      l = 0;
      for (T &x : p) {
        x = std::exp(x - m);
        l += x;
      }
      pRounded.assign(p.begin(), p.end());
      if (format != FloatFormat::F64)
        for (T &x : pRounded)
          x = static_cast<T>(roundToFormat(x, format));
    }
    T acc = 0;
    for (int64_t jj = 0; jj < extents[j]; ++jj) {
      point[j] = jj;
      acc = std::fma(pRounded[jj], static_cast<T>(read(2u, point)), acc);
    }
    return acc / l;
  }
};

} // namespace mlir::motif::detail

#endif
