// MLIR 22's parser reads an integer up to 2^N - 1 in `array<iN: ...>` as
// its N-bit pattern: 2147483648 in an i32 array silently meant -2147483648
// (found by motif-fuzz mutate, seed 1, mutant 3093: a known_block_size that
// became negative). In range: -2147483648, 2147483647, 0x7fffffff.
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @copy(%a: memref<4xf32>) kernel
        attributes {known_grid_size = array<i32: -2147483648, 2147483647, 0x7fffffff>,
                    known_block_size = array<i32: 4, 2147483648, 1>} {
      gpu.return
    }
  }
}
