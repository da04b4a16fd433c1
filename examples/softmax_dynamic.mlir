// motif-dims: M=512 N=1024
// motif-rows: M
// Row softmax with a runtime row count: examples/softmax.mlir with its rows
// left to the launch (tensor<?x1024xf32>; docs/dialect.md, "Runtime row
// counts"). Each motif maps the rows to `block`, so the grid is the row count
// and nothing inside a block depends on it: one compiled kernel runs any
// number of rows, and at a given count it is the static program's kernel
// (motif-equiv --rows; test/Pipeline/runtime-rows.test compares the SASS).
func.func @softmax_dynamic(%x: tensor<?x1024xf32>) -> tensor<?x1024xf32> {
  %max = motif.kernel "softmax_max" threads(256) -> tensor<?xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<?x1024xf32>) -> tensor<?xf32>
    %g = motif.materialize %m in global : tensor<?xf32>
    motif.yield %g : tensor<?xf32>
  }
  %exp = motif.kernel "softmax_exp" threads(256) -> tensor<?x1024xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<?x1024xf32>, tensor<?xf32>) -> tensor<?x1024xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<?x1024xf32>
    motif.yield %g : tensor<?x1024xf32>
  }
  %sum = motif.kernel "softmax_sum" threads(256) -> tensor<?xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<?x1024xf32>) -> tensor<?xf32>
    %g = motif.materialize %s in global : tensor<?xf32>
    motif.yield %g : tensor<?xf32>
  }
  %y = motif.kernel "softmax_div" threads(256) -> tensor<?x1024xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<?x1024xf32>, tensor<?xf32>) -> tensor<?x1024xf32> {
    ^bb0(%e: f32, %s: f32):
      %r = arith.divf %e, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<?x1024xf32>
    motif.yield %g : tensor<?x1024xf32>
  }
  return %y : tensor<?x1024xf32>
}

// The same softmax with another mapping: one row per warp (8 rows per block
// of 256 threads), the row spread over the warp's lanes. Its reductions are
// warp butterflies only -- no shared memory, no block barrier -- which suits
// short rows; long rows exceed the register budget per lane and fuse less.
