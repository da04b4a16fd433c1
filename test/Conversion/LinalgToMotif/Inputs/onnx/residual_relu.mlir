// The built-in ONNX model 'residual_relu' (opset 20), imported by
// scripts/import-onnx.py --builtin residual_relu; regenerate, do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @residual_relu(%arg0: tensor<2048x512xf32>, %arg1: tensor<2048x512xf32>) -> tensor<2048x512xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<2048x512xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<2048x512xf32>, tensor<2048x512xf32>) outs(%0 : tensor<2048x512xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %3 = arith.addf %in, %in_0 : f32
      linalg.yield %3 : f32
    } -> tensor<2048x512xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%1 : tensor<2048x512xf32>) outs(%0 : tensor<2048x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %3 = arith.cmpf ugt, %in, %cst : f32
      %4 = arith.select %3, %in, %cst : f32
      linalg.yield %4 : f32
    } -> tensor<2048x512xf32>
    return %2 : tensor<2048x512xf32>
  }
}
