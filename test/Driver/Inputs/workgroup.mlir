// Hand-lowered: one kernel with a workgroup buffer and gpu.barrier.
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @rowsum_sum(%in: memref<128x256xf32>, %out: memref<128xf32>)
        workgroup(%red: memref<256xf32, #gpu.address_space<workgroup>>) kernel
        attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 128, 1, 1>,
                    motif.kernel = "sum", motif.function = "rowsum"} {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %v = memref.load %in[%b, %t] : memref<128x256xf32>
      memref.store %v, %red[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %is0 = arith.cmpi eq, %t, %c0 : index
      scf.if %is0 {
        %z = arith.constant 0.0 : f32
        %s = scf.for %i = %c0 to %c256 step %c1 iter_args(%acc = %z) -> (f32) {
          %x = memref.load %red[%i] : memref<256xf32, #gpu.address_space<workgroup>>
          %y = arith.addf %acc, %x : f32
          scf.yield %y : f32
        }
        memref.store %s, %out[%b] : memref<128xf32>
      }
      gpu.return
    }
  }
  func.func @rowsum(%arg0: memref<128x256xf32> {motif.buffer = "arg0", motif.role = "input"},
                    %arg1: memref<128xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    gpu.launch_func @motif_kernels::@rowsum_sum blocks in (%c128, %c1, %c1) threads in (%c256, %c1, %c1)
        args(%arg0 : memref<128x256xf32>, %arg1 : memref<128xf32>)
    return
  }
}
