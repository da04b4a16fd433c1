// Hand-lowered (docs/abi.md, last section): two kernels with a global
// round trip through the intermediate "scale.out0".
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @rt_scale(%in: memref<64x256xf32>, %out: memref<64x256xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 64, 1, 1>,
                    motif.kernel = "scale", motif.function = "rt"} {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %v = memref.load %in[%b, %t] : memref<64x256xf32>
      %c = arith.constant 2.0 : f32
      %r = arith.mulf %v, %c : f32
      memref.store %r, %out[%b, %t] : memref<64x256xf32>
      gpu.return
    }
    gpu.func @rt_exp(%in: memref<64x256xf32>, %out: memref<64x256xf32>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 64, 1, 1>,
                    motif.kernel = "exp", motif.function = "rt"} {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %v = memref.load %in[%b, %t] : memref<64x256xf32>
      %r = math.exp %v : f32
      memref.store %r, %out[%b, %t] : memref<64x256xf32>
      gpu.return
    }
  }
  func.func @rt(%arg0: memref<64x256xf32> {motif.buffer = "arg0", motif.role = "input"},
                %arg1: memref<64x256xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index
    %t = memref.alloc() {motif.buffer = "scale.out0"} : memref<64x256xf32>
    gpu.launch_func @motif_kernels::@rt_scale blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%arg0 : memref<64x256xf32>, %t : memref<64x256xf32>)
    gpu.launch_func @motif_kernels::@rt_exp blocks in (%c64, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%t : memref<64x256xf32>, %arg1 : memref<64x256xf32>)
    memref.dealloc %t : memref<64x256xf32>
    return
  }
}
