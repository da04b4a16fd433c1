// The built-in ONNX model 'softmax_bf16' (opset 20), imported by
// scripts/import-onnx.py --builtin softmax_bf16; regenerate, do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
#map2 = affine_map<(d0, d1) -> (d0, 0)>
module {
  func.func @softmax_bf16(%arg0: tensor<512x1024xbf16>) -> tensor<512x1024xbf16> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<512x1024xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<512x1024xbf16>) outs(%0 : tensor<512x1024xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %15 = arith.extf %in : bf16 to f32
      linalg.yield %15 : f32
    } -> tensor<512x1024xf32>
    %2 = tensor.empty() : tensor<512xi64>
    %3 = linalg.fill ins(%c0_i64 : i64) outs(%2 : tensor<512xi64>) -> tensor<512xi64>
    %4 = tensor.empty() : tensor<512xf32>
    %5 = linalg.fill ins(%cst : f32) outs(%4 : tensor<512xf32>) -> tensor<512xf32>
    %6:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%1 : tensor<512x1024xf32>) outs(%5, %3 : tensor<512xf32>, tensor<512xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %15 = linalg.index 1 : index
      %16 = arith.index_cast %15 : index to i64
      %17 = arith.maximumf %in, %out : f32
      %18 = arith.cmpf ogt, %in, %out : f32
      %19 = arith.select %18, %16, %out_1 : i64
      linalg.yield %17, %19 : f32, i64
    } -> (tensor<512xf32>, tensor<512xi64>)
    %expanded = tensor.expand_shape %6#0 [[0, 1]] output_shape [512, 1] : tensor<512xf32> into tensor<512x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%1, %expanded : tensor<512x1024xf32>, tensor<512x1xf32>) outs(%0 : tensor<512x1024xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %15 = arith.subf %in, %in_1 : f32
      linalg.yield %15 : f32
    } -> tensor<512x1024xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%7 : tensor<512x1024xf32>) outs(%0 : tensor<512x1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %15 = math.exp %in : f32
      linalg.yield %15 : f32
    } -> tensor<512x1024xf32>
    %9 = tensor.empty() : tensor<512x1xf32>
    %10 = linalg.fill ins(%cst_0 : f32) outs(%9 : tensor<512x1xf32>) -> tensor<512x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map2], iterator_types = ["parallel", "reduction"]} ins(%8 : tensor<512x1024xf32>) outs(%10 : tensor<512x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %15 = arith.addf %in, %out : f32
      linalg.yield %15 : f32
    } -> tensor<512x1xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %11 : tensor<512x1024xf32>, tensor<512x1xf32>) outs(%0 : tensor<512x1024xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %15 = arith.divf %in, %in_1 : f32
      linalg.yield %15 : f32
    } -> tensor<512x1024xf32>
    %13 = tensor.empty() : tensor<512x1024xbf16>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<512x1024xf32>) outs(%13 : tensor<512x1024xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %15 = arith.truncf %in : f32 to bf16
      linalg.yield %15 : bf16
    } -> tensor<512x1024xbf16>
    return %14 : tensor<512x1024xbf16>
  }
}
