// The built-in ONNX model 'rmsnorm' (opset 20), imported by
// scripts/import-onnx.py --builtin rmsnorm --dynamic-rows; regenerate, do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0, 0)>
#map2 = affine_map<(d0, d1) -> ()>
#map3 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @rmsnorm(%arg0: tensor<?x512xf32>, %arg1: tensor<512xf32>) -> tensor<?x512xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant dense<9.99999997E-7> : tensor<f32>
    %cst_1 = arith.constant 5.120000e+02 : f32
    %dim = tensor.dim %arg0, %c0 : tensor<?x512xf32>
    %0 = tensor.empty(%dim) : tensor<?x512xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg0 : tensor<?x512xf32>, tensor<?x512xf32>) outs(%0 : tensor<?x512xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %10 = arith.mulf %in, %in_2 : f32
      linalg.yield %10 : f32
    } -> tensor<?x512xf32>
    %2 = tensor.empty(%dim) : tensor<?x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<?x1xf32>) -> tensor<?x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<?x512xf32>) outs(%3 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = arith.addf %in, %out : f32
      linalg.yield %10 : f32
    } -> tensor<?x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<?x1xf32>) outs(%2 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = arith.divf %in, %cst_1 : f32
      linalg.yield %10 : f32
    } -> tensor<?x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%5, %cst_0 : tensor<?x1xf32>, tensor<f32>) outs(%2 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %10 = arith.addf %in, %in_2 : f32
      linalg.yield %10 : f32
    } -> tensor<?x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<?x1xf32>) outs(%2 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = math.sqrt %in : f32
      linalg.yield %10 : f32
    } -> tensor<?x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %7 : tensor<?x512xf32>, tensor<?x1xf32>) outs(%0 : tensor<?x512xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %10 = arith.divf %in, %in_2 : f32
      linalg.yield %10 : f32
    } -> tensor<?x512xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %arg1 : tensor<?x512xf32>, tensor<512xf32>) outs(%0 : tensor<?x512xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %10 = arith.mulf %in, %in_2 : f32
      linalg.yield %10 : f32
    } -> tensor<?x512xf32>
    return %9 : tensor<?x512xf32>
  }
}
