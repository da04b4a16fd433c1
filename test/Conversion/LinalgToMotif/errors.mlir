// RUN: motif-opt %s --convert-linalg-to-motif -split-input-file -verify-diagnostics

// Only a leading dim may be the runtime row count.
// expected-error @+1 {{cannot be imported into motif: it takes a 'tensor<8x?xf32>'; motif imports f32, f16 and bf16 tensors, static but for a leading row count}}
func.func @dynamic_inner(%x: tensor<8x?xf32>) -> tensor<8x?xf32> {
  %unused = tensor.empty() : tensor<8x4xf32>
  return %x : tensor<8x?xf32>
}

// -----

// A row count is mapped to blocks, never reduced (a column sum over it).
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @reduce_rows(%x: tensor<?x64xf32>) -> tensor<64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  // expected-error @+1 {{cannot be imported into motif: it reduces over d0, the runtime row count (a row count is only mapped to blocks, never reduced)}}
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : tensor<?x64xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  } -> tensor<64xf32>
  return %s : tensor<64xf32>
}

// -----

// A runtime check motif cannot prove from the row-count rule is refused.
func.func @check_rows(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %d = tensor.dim %x, %c0 : tensor<?x64xf32>
  %small = arith.cmpi slt, %d, %c8 : index
  // expected-error @+1 {{cannot be imported into motif: a runtime check other than two row counts being equal ("at most 8 rows")}}
  cf.assert %small, "at most 8 rows"
  return %x : tensor<?x64xf32>
}

// -----

// A size read off anything but a row count.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @dim_of_a_static_dim(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{cannot be imported into motif: it reads a size other than the leading dim of a tensor with a runtime row count}}
  %d = tensor.dim %x, %c1 : tensor<?x64xf32>
  %e = tensor.empty(%d) : tensor<?x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x64xf32>) outs(%e : tensor<?x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}

// -----

// An argmax that is used: motif bodies do not see iteration indices.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @argmax_used(%x: tensor<8x16xf32>, %i0: tensor<8xf32>) -> tensor<8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %ef = tensor.empty() : tensor<8xf32>
  %ff = linalg.fill ins(%ninf : f32) outs(%ef : tensor<8xf32>) -> tensor<8xf32>
  %mx:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%ff, %i0 : tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32, %out_1: f32):
    // expected-error @+1 {{'linalg.index' op cannot be imported into motif: motif bodies see element values, not iteration indices}}
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %m = arith.maximumf %in, %out : f32
    %c = arith.cmpf ogt, %in, %out : f32
    %s = arith.select %c, %fi, %out_1 : f32
    linalg.yield %m, %s : f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>)
  return %mx#1 : tensor<8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @sum_from_one(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  // expected-error @+1 {{cannot be imported into motif: result #0 starts from 1.000000e+00, not the identity of <add> (0.0); motif reductions start from their combiner's identity}}
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// torch-mlir's lowest-float max init is not the identity either.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @max_from_lowest(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %low = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%low : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  // expected-error @+1 {{not the identity of <max> (-inf)}}
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.maximumf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A reduction that starts from a computed tensor.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @sum_from_tensor(%x: tensor<8x16xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{starts from a value that is not a constant fill, not the identity of <add>}}
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%b : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @maxnum(%x: tensor<8x16xf32>) -> tensor<8xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<8xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x16xf32>) outs(%f : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    // expected-error @+1 {{'arith.maxnumf' op cannot be imported into motif: a reduction combines with 'arith.maxnumf'; motif reduces with arith.addf, mulf, maximumf and minimumf (maxnumf/minnumf ignore NaN; motif's <max>/<min> propagate it)}}
    %s = arith.maxnumf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

func.func @reshape(%x: tensor<16x32xf32>) -> tensor<512xf32> {
  // expected-error @+1 {{cannot be imported into motif: group #0 collapses dims that motif holds separately}}
  %c = tensor.collapse_shape %x [[0, 1]] : tensor<16x32xf32> into tensor<512xf32>
  return %c : tensor<512xf32>
}

// -----

func.func @split(%x: tensor<512xf32>) -> tensor<16x32xf32> {
  // expected-error @+1 {{cannot be imported into motif: group #0 splits a dim into 2 dims of extent above 1 (a reshape is not supported; only unit dims may be added)}}
  %c = tensor.expand_shape %x [[0, 1]] output_shape [16, 32] : tensor<512xf32> into tensor<16x32xf32>
  return %c : tensor<16x32xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @weights(%x: tensor<4xf32>) -> tensor<4xf32> {
  %w = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot be imported into motif: an operand is a non-splat constant tensor (pass weights as function arguments)}}
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @int_result(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xi32>
  // expected-error @+1 {{cannot be imported into motif: result #0 is 'tensor<4xi32>'; motif lowers f32, f16 and bf16 tensors}}
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xi32>) {
  ^bb0(%a: f32, %out: i32):
    %r = arith.fptosi %a : f32 to i32
    linalg.yield %r : i32
  } -> tensor<4xi32>
  %e2 = tensor.empty() : tensor<4xf32>
  %z = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%y : tensor<4xi32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%a: i32, %out: f32):
    %r = arith.sitofp %a : i32 to f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %z : tensor<4xf32>
}

// -----

func.func @unsupported_op(%x: tensor<8x16xf32>) -> tensor<8x8xf32> {
  // expected-error @+1 {{'tensor.extract_slice' op cannot be imported into motif: no motif form for this op}}
  %s = tensor.extract_slice %x[0, 0] [8, 8] [1, 1] : tensor<8x16xf32> to tensor<8x8xf32>
  return %s : tensor<8x8xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @body_op(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %out: f32):
    // expected-error @+1 {{'math.trunc' op is not supported in a motif body}}
    %r = math.trunc %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
func.func @reads_empty(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot be imported into motif: it reads the contents of a 'tensor.empty', which are undefined}}
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.addf %a, %out : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

#diag = affine_map<(d0) -> (d0, d0)>
#id = affine_map<(d0) -> (d0)>
func.func @diagonal(%x: tensor<4x4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  // expected-error @+1 {{cannot be imported into motif: operand #0 is read along a diagonal (two of its dims indexed by d0)}}
  %y = linalg.generic {indexing_maps = [#diag, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4x4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

#shift = affine_map<(d0, d1) -> (d0 + d1)>
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @affine_index(%x: tensor<12xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  // expected-error @+1 {{cannot be imported into motif: operand #0 dim 0 is indexed by 'd0 + d1'}}
  %y = linalg.generic {indexing_maps = [#shift, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<12xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A sum over k of a[i, k] * b[j]: k indexes one operand only.
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @one_sided(%a: tensor<4x8xf32>, %b: tensor<16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  // expected-error @+1 {{cannot be imported into motif: it sums over d2, which indexes only one operand (motif.contract sums over dims of both)}}
  %y = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x8xf32>, tensor<16xf32>) outs(%z : tensor<4x16xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %out, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}

// -----

#id = affine_map<(d0) -> (d0)>
#all = affine_map<(d0) -> ()>
func.func @rank0(%x: tensor<16xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32>
  // expected-error @+1 {{cannot be imported into motif: result #0 reduces every dim (rank-0 motif values are not supported)}}
  %y = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction"]}
      ins(%x : tensor<16xf32>) outs(%z : tensor<f32>) {
  ^bb0(%a: f32, %out: f32):
    %s = arith.addf %a, %out : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %y : tensor<f32>
}

// -----

// A unit dim of a function argument read at index 0 in a map over another
// shape: motif cannot drop a dim it holds.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row0 = affine_map<(d0, d1) -> (d0, 0)>
func.func @arg_unit_dim(%x: tensor<8x16xf32>, %m: tensor<8x1xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  // expected-error @+1 {{cannot be imported into motif: operand #1 dim 1 is indexed by '0'}}
  %y = linalg.generic {indexing_maps = [#id, #row0, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : tensor<8x16xf32>, tensor<8x1xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
