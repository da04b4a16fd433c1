// The built-in ONNX model 'layernorm' (opset 20), imported by
// scripts/import-onnx.py --builtin layernorm --dynamic-rows; regenerate, do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @layernorm(%arg0: tensor<?x1024xf32>, %arg1: tensor<1024xf32>, %arg2: tensor<1024xf32>) -> tensor<?x1024xf32> {
    %true = arith.constant true
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst_0 = arith.constant 1.024000e+03 : f32
    %cst_1 = arith.constant 9.99999974E-6 : f32
    %dim = tensor.dim %arg0, %c0 : tensor<?x1024xf32>
    %0 = tensor.empty(%dim) : tensor<?x1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x1xf32>) -> tensor<?x1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<?x1024xf32>) outs(%1 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.addf %in, %out : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<?x1xf32>) outs(%0 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.divf %in, %cst_0 : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    %4 = arith.index_cast %dim : index to i64
    %5 = arith.cmpi sge, %4, %c0_i64 : i64
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %6 = tensor.empty(%dim) : tensor<?x1024xf32>
    %7 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%6 : tensor<?x1024xf32>) {
    ^bb0(%out: f32):
      %19 = linalg.index 0 : index
      %20 = arith.cmpi eq, %dim, %c1 : index
      %21 = arith.select %20, %c0, %19 : index
      %extracted = tensor.extract %3[%21, %c0] : tensor<?x1xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x1024xf32>
    cf.assert %true, "mismatched size for broadcast"
    %8 = tensor.empty(%dim) : tensor<?x1024xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %7 : tensor<?x1024xf32>, tensor<?x1024xf32>) outs(%8 : tensor<?x1024xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %19 = arith.subf %in, %in_2 : f32
      linalg.yield %19 : f32
    } -> tensor<?x1024xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %9 : tensor<?x1024xf32>, tensor<?x1024xf32>) outs(%8 : tensor<?x1024xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %19 = arith.mulf %in, %in_2 : f32
      linalg.yield %19 : f32
    } -> tensor<?x1024xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%10 : tensor<?x1024xf32>) outs(%1 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.addf %in, %out : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<?x1xf32>) outs(%0 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.divf %in, %cst_0 : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<?x1xf32>) outs(%0 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.addf %in, %cst_1 : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<?x1xf32>) outs(%0 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = math.rsqrt %in : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    cf.assert %5, "unimplemented: dynamic negative broadcast sizes"
    %15 = linalg.generic {indexing_maps = [#map], iterator_types = ["parallel", "parallel"]} outs(%6 : tensor<?x1024xf32>) {
    ^bb0(%out: f32):
      %19 = linalg.index 0 : index
      %20 = arith.cmpi eq, %dim, %c1 : index
      %21 = arith.select %20, %c0, %19 : index
      %extracted = tensor.extract %14[%21, %c0] : tensor<?x1xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x1024xf32>
    cf.assert %true, "mismatched size for broadcast"
    %16 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%9, %15 : tensor<?x1024xf32>, tensor<?x1024xf32>) outs(%8 : tensor<?x1024xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %19 = arith.mulf %in, %in_2 : f32
      linalg.yield %19 : f32
    } -> tensor<?x1024xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%16, %arg1 : tensor<?x1024xf32>, tensor<1024xf32>) outs(%8 : tensor<?x1024xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %19 = arith.mulf %in, %in_2 : f32
      linalg.yield %19 : f32
    } -> tensor<?x1024xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%17, %arg2 : tensor<?x1024xf32>, tensor<1024xf32>) outs(%8 : tensor<?x1024xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %19 = arith.addf %in, %in_2 : f32
      linalg.yield %19 : f32
    } -> tensor<?x1024xf32>
    return %18 : tensor<?x1024xf32>
  }
}
