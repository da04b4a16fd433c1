// Host functions outside the contract of docs/abi.md: located errors, exit 1.
// RUN: split-file %s %t
// RUN: not motif-compile %t/missing-role.mlir -o %t/out --no-ptxas
// RUN: motif-compile %t/missing-role.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/untagged-operand.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/dynamic-grid.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/block-mismatch.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/not-f32.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/no-output.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/no-launch.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/dynamic-shape.mlir -o %t/out --no-ptxas --verify-diagnostics
// RUN: motif-compile %t/bad-syntax.mlir -o %t/out --no-ptxas --verify-diagnostics
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

//--- not-f32.mlir
module attributes {gpu.container_module} {
  // expected-error @+1 {{buffer 'arg0' has element type 'f16'; the kernel ABI supports f32 only}}
  func.func @f(%arg0: memref<4xf16> {motif.buffer = "arg0", motif.role = "input"})
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
  // expected-error @+1 {{buffer 'arg0' has a dynamic shape ('memref<?xf32>'); the kernel ABI needs static shapes}}
  func.func @f(%arg0: memref<?xf32> {motif.buffer = "arg0", motif.role = "input"})
      attributes {motif.host} {
    return
  }
}

//--- bad-syntax.mlir
// expected-error @+1 {{custom op 'func.funk' is unknown}}
func.funk @f() {
}
