// Host functions outside the contract of docs/abi.md: located errors, exit 1.
// RUN: split-file %s %t
// RUN: not motif-compile %t/missing-role.mlir -o %t/out --no-ptxas
// RUN: motif-compile %t/missing-role.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/untagged-operand.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/dynamic-grid.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/rows-grid-mismatch.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/rows-without-bound.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/block-mismatch.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/unsupported-dtype.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/no-output.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/no-launch.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/dynamic-shape.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/bad-syntax.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/huge-argument.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/huge-intermediate.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/huge-motif.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/grid-too-large.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/block-too-deep.mlir -o %t/out --no-ptxas --verify-diagnostics
// Nothing is written for a function that fails.
// RUN: not ls %t/out/f.json

//--- missing-role.mlir
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @f_k(%a: memref<4xf32>) kernel { gpu.return }
  }
  // expected-error @+1 {{argument #0 ('arg0') needs motif.role = "input" or "output"}}
  func.func @f(%arg0: memref<4xf32> {motif.buffer = "arg0"}) attributes {motif.host} {
    return
  }
}

//--- untagged-operand.mlir
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @f_k(%a: memref<4xf32>, %b: memref<4xf32>) kernel { gpu.return }
  }
  func.func @f(%arg0: memref<4xf32> {motif.buffer = "arg0", motif.role = "input"},
               %arg1: memref<4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %t = memref.alloc() : memref<4xf32>
    // expected-error @+1 {{kernel operand #1 is neither a host function argument nor a memref.alloc tagged 'motif.buffer'}}
    gpu.launch_func @motif_kernels::@f_k blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%arg0 : memref<4xf32>, %t : memref<4xf32>)
    return
  }
}

//--- dynamic-grid.mlir
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @f_k(%a: memref<4xf32>, %b: memref<4xf32>) kernel { gpu.return }
  }
  func.func @f(%arg0: memref<4xf32> {motif.buffer = "arg0", motif.role = "input"},
               %arg1: memref<4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %n = index.casts %c4 : index to i64
    %m = index.casts %n : i64 to index
    // expected-error @+1 {{grid size x is not a constant}}
    gpu.launch_func @motif_kernels::@f_k blocks in (%m, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%arg0 : memref<4xf32>, %arg1 : memref<4xf32>)
    return
  }
}

//--- rows-grid-mismatch.mlir
// A kernel over the row count launches rows x blocks_per_row blocks; a host
// function that launches another number is refused.
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @f_k(%a: memref<64x4xf32>, %b: memref<64x4xf32>) kernel attributes {motif.blocks_per_row = 2 : i64} { gpu.return }
  }
  func.func @f(%arg0: memref<?x4xf32> {motif.buffer = "arg0", motif.role = "input"},
               %arg1: memref<?x4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host, motif.max_rows = 64 : i64} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %rows = memref.dim %arg0, %c0 : memref<?x4xf32>
    %g = arith.muli %rows, %c3 : index
    %a = memref.cast %arg0 : memref<?x4xf32> to memref<64x4xf32>
    %b = memref.cast %arg1 : memref<?x4xf32> to memref<64x4xf32>
    // expected-error @+1 {{grid size x of @f_k (motif.blocks_per_row = 2) is not the row count times 2 (memref.dim of a buffer's leading dim)}}
    gpu.launch_func @motif_kernels::@f_k blocks in (%g, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%a : memref<64x4xf32>, %b : memref<64x4xf32>)
    return
  }
}

//--- rows-without-bound.mlir
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @f_k(%a: memref<64x4xf32>, %b: memref<64x4xf32>) kernel attributes {motif.blocks_per_row = 1 : i64} { gpu.return }
  }
  // expected-error @+1 {{host function @f has buffers with a runtime row count but no positive 'motif.max_rows'}}
  func.func @f(%arg0: memref<?x4xf32> {motif.buffer = "arg0", motif.role = "input"},
               %arg1: memref<?x4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %rows = memref.dim %arg0, %c0 : memref<?x4xf32>
    %a = memref.cast %arg0 : memref<?x4xf32> to memref<64x4xf32>
    %b = memref.cast %arg1 : memref<?x4xf32> to memref<64x4xf32>
    gpu.launch_func @motif_kernels::@f_k blocks in (%rows, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%a : memref<64x4xf32>, %b : memref<64x4xf32>)
    return
  }
}

//--- block-mismatch.mlir
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @f_k(%a: memref<4xf32>, %b: memref<4xf32>) kernel
        attributes {known_block_size = array<i32: 4, 1, 1>} { gpu.return }
  }
  func.func @f(%arg0: memref<4xf32> {motif.buffer = "arg0", motif.role = "input"},
               %arg1: memref<4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    // expected-error @+1 {{block size (8, 1, 1) differs from the known_block_size of @f_k (4, 1, 1)}}
    gpu.launch_func @motif_kernels::@f_k blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%arg0 : memref<4xf32>, %arg1 : memref<4xf32>)
    return
  }
}

//--- unsupported-dtype.mlir
module attributes {gpu.container_module} {
  // expected-error @+1 {{buffer 'arg0' has element type 'f64'; the kernel ABI supports f32, f16 and bf16 only}}
  func.func @f(%arg0: memref<4xf64> {motif.buffer = "arg0", motif.role = "input"})
      attributes {motif.host} {
    return
  }
}

//--- no-output.mlir
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @f_k(%a: memref<4xf32>) kernel { gpu.return }
  }
  // expected-error @+1 {{host function @f has no output buffer}}
  func.func @f(%arg0: memref<4xf32> {motif.buffer = "arg0", motif.role = "input"})
      attributes {motif.host} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @motif_kernels::@f_k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%arg0 : memref<4xf32>)
    return
  }
}

//--- no-launch.mlir
module attributes {gpu.container_module} {
  // expected-error @+1 {{host function @f launches no kernel (no gpu.launch_func)}}
  func.func @f(%arg0: memref<4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    return
  }
}

//--- dynamic-shape.mlir
module attributes {gpu.container_module} {
  // expected-error @+1 {{buffer 'arg0' has a dynamic shape ('memref<4x?xf32>'); the kernel ABI needs static shapes, but for a leading runtime row count}}
  func.func @f(%arg0: memref<4x?xf32> {motif.buffer = "arg0", motif.role = "input"})
      attributes {motif.host} {
    return
  }
}

//--- bad-syntax.mlir
// expected-error @+1 {{custom op 'func.funk' is unknown}}
func.funk @f() {
}

//--- huge-argument.mlir
// Sizes are computed with overflow checks: never a wrapped "bytes" in f.json.
module attributes {gpu.container_module} {
  // expected-error @+1 {{buffer 'arg0' ('memref<4611686018427387904xf32>') is too large: its size in bytes overflows a 64-bit integer}}
  func.func @f(%arg0: memref<4611686018427387904xf32> {motif.buffer = "arg0", motif.role = "output"})
      attributes {motif.host} {
    return
  }
}

//--- huge-intermediate.mlir
module attributes {gpu.container_module} {
  func.func @f(%arg0: memref<4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    // expected-error @+1 {{buffer 't' ('memref<4294967296x4294967296xf32>') is too large: its size in bytes overflows a 64-bit integer}}
    %t = memref.alloc() {motif.buffer = "t"} : memref<4294967296x4294967296xf32>
    return
  }
}

//--- huge-motif.mlir
// The same as motif IR (a tensor of INT64_MAX elements): the verifier
// refuses it before anything is lowered.
func.func @f(%x: tensor<9223372036854775807xf32>) -> tensor<9223372036854775807xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<9223372036854775807xf32> {
    // expected-error @+1 {{'motif.map' op has more than 1099511627776 iteration instances (2^40)}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<9223372036854775807xf32>) -> tensor<9223372036854775807xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<9223372036854775807xf32>
    motif.yield %g : tensor<9223372036854775807xf32>
  }
  return %y : tensor<9223372036854775807xf32>
}

//--- grid-too-large.mlir
// The header's grid is `unsigned grid[3]`: CUDA's limits are checked.
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @f_k(%a: memref<4xf32>) kernel { gpu.return }
  }
  func.func @f(%arg0: memref<4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    %c1 = arith.constant 1 : index
    %big = arith.constant 4294967297 : index
    // expected-error @+1 {{grid size y is 4294967297; CUDA allows at most 65535}}
    gpu.launch_func @motif_kernels::@f_k blocks in (%c1, %big, %c1) threads in (%c1, %c1, %c1)
        args(%arg0 : memref<4xf32>)
    return
  }
}

//--- block-too-deep.mlir
module attributes {gpu.container_module} {
  gpu.module @motif_kernels {
    gpu.func @f_k(%a: memref<4xf32>) kernel { gpu.return }
  }
  func.func @f(%arg0: memref<4xf32> {motif.buffer = "result0", motif.role = "output"})
      attributes {motif.host} {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    // expected-error @+1 {{block size z is 128; CUDA allows at most 64}}
    gpu.launch_func @motif_kernels::@f_k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c128)
        args(%arg0 : memref<4xf32>)
    return
  }
}
