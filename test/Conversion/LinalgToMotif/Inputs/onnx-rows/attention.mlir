// The built-in ONNX model 'attention' (opset 20), imported by
// scripts/import-onnx.py --builtin attention --dynamic-rows; regenerate, do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
#map2 = affine_map<(d0, d1) -> (d0)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @attention(%arg0: tensor<?x64xf32>, %arg1: tensor<256x64xf32>, %arg2: tensor<256x64xf32>) -> tensor<?x64xf32> {
    %c0 = arith.constant 0 : index
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<1.250000e-01> : tensor<f32>
    %0 = tensor.empty() : tensor<64x256xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<256x64xf32>) outs(%0 : tensor<64x256xf32>) permutation = [1, 0] 
    %dim = tensor.dim %arg0, %c0 : tensor<?x64xf32>
    %1 = tensor.empty(%dim) : tensor<?x256xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<?x256xf32>) -> tensor<?x256xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<?x64xf32>, tensor<64x256xf32>) outs(%2 : tensor<?x256xf32>) -> tensor<?x256xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %cst_1 : tensor<?x256xf32>, tensor<f32>) outs(%1 : tensor<?x256xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %19 = arith.mulf %in, %in_2 : f32
      linalg.yield %19 : f32
    } -> tensor<?x256xf32>
    %5 = tensor.empty(%dim) : tensor<?xi64>
    %6 = linalg.fill ins(%c0_i64 : i64) outs(%5 : tensor<?xi64>) -> tensor<?xi64>
    %7 = tensor.empty(%dim) : tensor<?xf32>
    %8 = linalg.fill ins(%cst_0 : f32) outs(%7 : tensor<?xf32>) -> tensor<?xf32>
    %9:2 = linalg.generic {indexing_maps = [#map, #map2, #map2], iterator_types = ["parallel", "reduction"]} ins(%4 : tensor<?x256xf32>) outs(%8, %6 : tensor<?xf32>, tensor<?xi64>) {
    ^bb0(%in: f32, %out: f32, %out_2: i64):
      %19 = linalg.index 1 : index
      %20 = arith.index_cast %19 : index to i64
      %21 = arith.maximumf %in, %out : f32
      %22 = arith.cmpf ogt, %in, %out : f32
      %23 = arith.select %22, %20, %out_2 : i64
      linalg.yield %21, %23 : f32, i64
    } -> (tensor<?xf32>, tensor<?xi64>)
    %expanded = tensor.expand_shape %9#0 [[0, 1]] output_shape [%dim, 1] : tensor<?xf32> into tensor<?x1xf32>
    %10 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%4, %expanded : tensor<?x256xf32>, tensor<?x1xf32>) outs(%1 : tensor<?x256xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %19 = arith.subf %in, %in_2 : f32
      linalg.yield %19 : f32
    } -> tensor<?x256xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<?x256xf32>) outs(%1 : tensor<?x256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = math.exp %in : f32
      linalg.yield %19 : f32
    } -> tensor<?x256xf32>
    %12 = tensor.empty(%dim) : tensor<?x1xf32>
    %13 = linalg.fill ins(%cst : f32) outs(%12 : tensor<?x1xf32>) -> tensor<?x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["parallel", "reduction"]} ins(%11 : tensor<?x256xf32>) outs(%13 : tensor<?x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %19 = arith.addf %in, %out : f32
      linalg.yield %19 : f32
    } -> tensor<?x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map3, #map], iterator_types = ["parallel", "parallel"]} ins(%11, %14 : tensor<?x256xf32>, tensor<?x1xf32>) outs(%1 : tensor<?x256xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %19 = arith.divf %in, %in_2 : f32
      linalg.yield %19 : f32
    } -> tensor<?x256xf32>
    %16 = tensor.empty(%dim) : tensor<?x64xf32>
    %17 = linalg.fill ins(%cst : f32) outs(%16 : tensor<?x64xf32>) -> tensor<?x64xf32>
    %18 = linalg.matmul ins(%15, %arg2 : tensor<?x256xf32>, tensor<256x64xf32>) outs(%17 : tensor<?x64xf32>) -> tensor<?x64xf32>
    return %18 : tensor<?x64xf32>
  }
}
