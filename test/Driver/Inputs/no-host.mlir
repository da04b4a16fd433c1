// Lowered kernels but no host function (no motif.host).
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @f(%arg0: memref<4xf32>) {
    return
  }
}
