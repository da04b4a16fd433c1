// Host functions outside the contract; each is compiled alone with --function.
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @copy(%a: memref<4xf32>, %b: memref<4xf32>) kernel
        attributes {known_block_size = array<i32: 4, 1, 1>} {
      gpu.return
    }
  }
  func.func @missing_role(%arg0: memref<4xf32> {motif.buffer = "arg0"},
                          %arg1: memref<4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    return
  }
  func.func @untagged_operand(%arg0: memref<4xf32> {motif.buffer = "arg0", motif.role = "input"},
                              %arg1: memref<4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = memref.alloc() : memref<4xf32>
    gpu.launch_func @motif_kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%arg0 : memref<4xf32>, %t : memref<4xf32>)
    return
  }
  func.func @dynamic_grid(%arg0: memref<4xf32> {motif.buffer = "arg0", motif.role = "input"},
                          %arg1: memref<4xf32> {motif.buffer = "result0", motif.role = "output"},
                          %n: index)
      attributes {motif.host} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @motif_kernels::@copy blocks in (%n, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%arg0 : memref<4xf32>, %arg1 : memref<4xf32>)
    return
  }
  func.func @block_mismatch(%arg0: memref<4xf32> {motif.buffer = "arg0", motif.role = "input"},
                            %arg1: memref<4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @motif_kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%arg0 : memref<4xf32>, %arg1 : memref<4xf32>)
    return
  }
  func.func @not_f32(%arg0: memref<4xf16> {motif.buffer = "arg0", motif.role = "input"},
                     %arg1: memref<4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    return
  }
}
