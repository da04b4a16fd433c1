// The built-in ONNX model 'gemm_bias_gelu' (opset 20), imported by
// scripts/import-onnx.py --builtin gemm_bias_gelu --dynamic-rows; regenerate, do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @gemm_bias_gelu(%arg0: tensor<?x384xf32>, %arg1: tensor<384x512xf32>, %arg2: tensor<512xf32>) -> tensor<?x512xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 5.000000e-01 : f32
    %cst_2 = arith.constant 1.41421354 : f32
    %dim = tensor.dim %arg0, %c0 : tensor<?x384xf32>
    %0 = tensor.empty(%dim) : tensor<?x512xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<?x512xf32>) -> tensor<?x512xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<?x384xf32>, tensor<384x512xf32>) outs(%1 : tensor<?x512xf32>) -> tensor<?x512xf32>
    %3 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%2, %arg2 : tensor<?x512xf32>, tensor<512xf32>) outs(%0 : tensor<?x512xf32>) {
    ^bb0(%in: f32, %in_3: f32, %out: f32):
      %5 = arith.addf %in, %in_3 : f32
      linalg.yield %5 : f32
    } -> tensor<?x512xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%3 : tensor<?x512xf32>) outs(%0 : tensor<?x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.divf %in, %cst_2 : f32
      %6 = math.erf %5 : f32
      %7 = arith.addf %6, %cst_0 : f32
      %8 = arith.mulf %7, %cst_1 : f32
      %9 = arith.mulf %in, %8 : f32
      linalg.yield %9 : f32
    } -> tensor<?x512xf32>
    return %4 : tensor<?x512xf32>
  }
}
