// The built-in ONNX model 'residual_relu' (opset 20), imported by
// scripts/import-onnx.py --builtin residual_relu --dynamic-rows; regenerate, do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @residual_relu(%arg0: tensor<?x512xf32>, %arg1: tensor<?x512xf32>) -> tensor<?x512xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %dim = tensor.dim %arg0, %c0 : tensor<?x512xf32>
    %dim_0 = tensor.dim %arg1, %c0 : tensor<?x512xf32>
    %0 = arith.cmpi eq, %dim, %dim_0 : index
    cf.assert %0, "mismatched size for broadcast"
    %1 = tensor.empty(%dim) : tensor<?x512xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<?x512xf32>, tensor<?x512xf32>) outs(%1 : tensor<?x512xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %4 = arith.addf %in, %in_1 : f32
      linalg.yield %4 : f32
    } -> tensor<?x512xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<?x512xf32>) outs(%1 : tensor<?x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.cmpf ugt, %in, %cst : f32
      %5 = arith.select %4, %in, %cst : f32
      linalg.yield %5 : f32
    } -> tensor<?x512xf32>
    return %3 : tensor<?x512xf32>
  }
}
