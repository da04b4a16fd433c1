// The built-in ONNX model 'matmul_bf16' (opset 20), imported by
// scripts/import-onnx.py --builtin matmul_bf16; regenerate, do not edit.
#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @matmul_bf16(%arg0: tensor<1024x512xbf16>, %arg1: tensor<512x1024xbf16>) -> tensor<1024x1024xbf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1024x1024xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<1024x512xbf16>, tensor<512x1024xbf16>) outs(%1 : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
    %3 = tensor.empty() : tensor<1024x1024xbf16>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<1024x1024xf32>) outs(%3 : tensor<1024x1024xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %5 = arith.truncf %in : f32 to bf16
      linalg.yield %5 : bf16
    } -> tensor<1024x1024xbf16>
    return %4 : tensor<1024x1024xbf16>
  }
}
