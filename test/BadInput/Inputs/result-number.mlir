// A result number the MLIR parser allocates for: motif-fuzz mutate found
// %v#2147483648 aborting it (out of memory), %v#99999999 taking 1.6 GB.
func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %a#2147483648 : tensor<4xf32>
}
