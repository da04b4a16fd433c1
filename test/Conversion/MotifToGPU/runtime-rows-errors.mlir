// What the lowering refuses for a runtime row count, each with a located error.
// RUN: motif-opt %s --convert-motif-to-gpu --split-input-file --verify-diagnostics --mlir-print-op-on-diagnostic=false -o /dev/null

// The row count of a result must come from an argument.
func.func @rows_from_nowhere(%x: tensor<8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{computes a tensor with a runtime row count, but no argument of @rows_from_nowhere has one: the row count is read off the arguments at launch}}
  %y = motif.kernel "k" threads(8) -> tensor<?x8xf32> {
    %b = motif.broadcast %x[j] -> [i, j] over [block, thread] : (tensor<8xf32>) -> tensor<?x8xf32>
    %g = motif.materialize %b in global : tensor<?x8xf32>
    motif.yield %g : tensor<?x8xf32>
  }
  return %y : tensor<?x8xf32>
}

// -----

// A copy kernel walks every element of its tensor: not with a row count yet.
func.func @copy_rows(%x: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %y = motif.kernel "k" threads(8) -> tensor<?x8xf32> {
    // expected-error @+1 {{copies a 'tensor<?x8xf32>' as a kernel result: a copy of a tensor with a runtime row count is not supported (compute it with a motif.map)}}
    %g = motif.materialize %x in global : tensor<?x8xf32>
    motif.yield %g : tensor<?x8xf32>
  }
  return %y : tensor<?x8xf32>
}
