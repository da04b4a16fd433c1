// RUN: motif-opt %s --convert-linalg-to-motif -split-input-file | FileCheck %s

// A parallel generic with a broadcast operand, a scalar constant captured from
// the function and a splat tensor<f32> constant: one map kernel, both constants
// copied into the body, the broadcast operand indexed by the result dims it
// reads.
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#scalar = affine_map<(d0, d1) -> ()>
func.func @bias_scale(%x: tensor<64x128xf32>, %b: tensor<128xf32>) -> tensor<64x128xf32> {
  %two = arith.constant 2.0 : f32
  %half = arith.constant dense<0.5> : tensor<f32>
  %e = tensor.empty() : tensor<64x128xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #scalar, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b, %half : tensor<64x128xf32>, tensor<128xf32>, tensor<f32>) outs(%e : tensor<64x128xf32>) {
  ^bb0(%a: f32, %c: f32, %h: f32, %out: f32):
    %s = arith.addf %a, %c : f32
    %m = arith.mulf %s, %two : f32
    %r = arith.mulf %m, %h : f32
    linalg.yield %r : f32
  } -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}
// CHECK-LABEL: func.func @bias_scale
// CHECK-SAME: (%[[X:.*]]: tensor<64x128xf32>, %[[B:.*]]: tensor<128xf32>)
// CHECK: %[[K:.*]] = motif.kernel "map_0" threads(128) -> tensor<64x128xf32>
// CHECK-NEXT: %[[M:.*]] = motif.map (%[[X]][i, j], %[[B]][j]) -> [i, j] over [block, thread]
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[C:.*]]: f32):
// CHECK-NEXT: %[[H:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[A]], %[[C]]
// CHECK-NEXT: %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[S2:.*]] = arith.mulf %[[S]], %[[TWO]]
// CHECK-NEXT: %[[R:.*]] = arith.mulf %[[S2]], %[[H]]
// CHECK-NEXT: motif.yield %[[R]]
// CHECK: motif.materialize %[[M]] in global
// CHECK-NOT: linalg.
// CHECK-NOT: tensor.empty
// CHECK: return %[[K]]

// -----

// torch-mlir's row max: a (max, argmax) reduction whose argmax is dead, then
// expand_shape to 512x1 and a map reading it through the unit dim: the
// argmax and its fill are dropped, the max is a motif.reduce <max> (its -inf
// fill folded), the map reads the row statistic as m[i], and the 512x1 sum
// (its 0.0 fill folded) is returned through a copy kernel that adds the
// unit dim back.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#row0 = affine_map<(d0, d1) -> (d0, 0)>
func.func @rows(%x: tensor<512x1024xf32>) -> (tensor<512x1024xf32>, tensor<512x1xf32>) {
  %c0_i64 = arith.constant 0 : i64
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %ei = tensor.empty() : tensor<512xi64>
  %fi = linalg.fill ins(%c0_i64 : i64) outs(%ei : tensor<512xi64>) -> tensor<512xi64>
  %ef = tensor.empty() : tensor<512xf32>
  %ff = linalg.fill ins(%ninf : f32) outs(%ef : tensor<512xf32>) -> tensor<512xf32>
  %mx:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<512x1024xf32>) outs(%ff, %fi : tensor<512xf32>, tensor<512xi64>) {
  ^bb0(%in: f32, %out: f32, %out_1: i64):
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %m = arith.maximumf %in, %out : f32
    %c = arith.cmpf ogt, %in, %out : f32
    %s = arith.select %c, %ii, %out_1 : i64
    linalg.yield %m, %s : f32, i64
  } -> (tensor<512xf32>, tensor<512xi64>)
  %ex = tensor.expand_shape %mx#0 [[0, 1]] output_shape [512, 1] : tensor<512xf32> into tensor<512x1xf32>
  %e = tensor.empty() : tensor<512x1024xf32>
  %d = linalg.generic {indexing_maps = [#id, #row0, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ex : tensor<512x1024xf32>, tensor<512x1xf32>) outs(%e : tensor<512x1024xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %r = arith.subf %in, %in_1 : f32
    linalg.yield %r : f32
  } -> tensor<512x1024xf32>
  %e1 = tensor.empty() : tensor<512x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<512x1xf32>) -> tensor<512x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row0], iterator_types = ["parallel", "reduction"]}
      ins(%d : tensor<512x1024xf32>) outs(%z : tensor<512x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<512x1xf32>
  return %d, %sum : tensor<512x1024xf32>, tensor<512x1xf32>
}
// CHECK-LABEL: func.func @rows
// CHECK-SAME: (%[[X:.*]]: tensor<512x1024xf32>)
// CHECK: %[[MAX:.*]] = motif.kernel "max_0" threads(256) -> tensor<512xf32>
// CHECK-NEXT: motif.reduce <max> (%[[X]][i, j]) -> [i] over [block, thread] : (tensor<512x1024xf32>) -> tensor<512xf32>
// CHECK: %[[D:.*]] = motif.kernel "map_1" threads(256) -> tensor<512x1024xf32>
// CHECK-NEXT: motif.map (%[[X]][i, j], %[[MAX]][i]) -> [i, j] over [block, thread]
// CHECK: arith.subf
// CHECK: %[[SUM:.*]] = motif.kernel "sum_2" threads(256) -> tensor<512xf32>
// CHECK-NEXT: motif.reduce <add> (%[[D]][i, j]) -> [i] over [block, thread]
// CHECK: %[[COPY:.*]] = motif.kernel "copy_3" threads(32) -> tensor<512x1xf32>
// CHECK-NEXT: motif.map (%[[SUM]][i]) -> [i, j] over [block, thread]
// CHECK: return %[[D]], %[[COPY]]
// CHECK-NOT: i64

// -----

// The element function of a reduction (torch-mlir fuses (x - m)^2 into a
// variance's sum): a map kernel computing it over the full space, then the
// reduction; the statistic's consumer over exactly its dims runs on the rows'
// grid ([block], the reduction's block size).
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#id1 = affine_map<(d0) -> (d0)>
func.func @variance(%x: tensor<256x512xf32>, %m: tensor<256xf32>) -> tensor<256xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 512.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %v = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : tensor<256x512xf32>, tensor<256xf32>) outs(%z : tensor<256xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %d = arith.subf %a, %b : f32
    %sq = arith.mulf %d, %d : f32
    %r = arith.addf %sq, %out : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%v : tensor<256xf32>) outs(%e : tensor<256xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.divf %a, %n : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  return %mean : tensor<256xf32>
}
// CHECK-LABEL: func.func @variance
// CHECK-SAME: (%[[X:.*]]: tensor<256x512xf32>, %[[M:.*]]: tensor<256xf32>)
// CHECK: %[[SQ:.*]] = motif.kernel "map_0" threads(256) -> tensor<256x512xf32>
// CHECK-NEXT: motif.map (%[[X]][i, j], %[[M]][i]) -> [i, j] over [block, thread]
// CHECK: %[[D:.*]] = arith.subf
// CHECK-NEXT: %[[S:.*]] = arith.mulf %[[D]], %[[D]]
// CHECK-NEXT: motif.yield %[[S]]
// CHECK: %[[V:.*]] = motif.kernel "sum_1" threads(256) -> tensor<256xf32>
// CHECK-NEXT: motif.reduce <add> (%[[SQ]][i, j]) -> [i] over [block, thread]
// CHECK: %[[MEAN:.*]] = motif.kernel "map_2" threads(256) -> tensor<256xf32>
// CHECK-NEXT: motif.map (%[[V]][i]) -> [i] over [block]
// CHECK: arith.constant 5.120000e+02
// CHECK: return %[[MEAN]]

// -----

// A reduction over unit dims only is a map that combines with the init.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @unit_reduction(%x: tensor<64xf32>) -> tensor<64xf32> {
  %one = arith.constant 1.0 : f32
  %ex = tensor.expand_shape %x [[0, 1]] output_shape [64, 1] : tensor<64xf32> into tensor<64x1xf32>
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%one : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%ex : tensor<64x1xf32>) outs(%f : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}
// CHECK-LABEL: func.func @unit_reduction
// CHECK-SAME: (%[[X:.*]]: tensor<64xf32>)
// CHECK: motif.kernel "map_0" threads(32) -> tensor<64xf32>
// CHECK-NEXT: motif.map (%[[X]][i]) -> [i] over [block x thread(32)]
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32):
// CHECK-NEXT: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: arith.addf %[[A]], %[[ONE]]
