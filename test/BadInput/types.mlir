// Unsupported types and shapes, in function signatures (the lowering takes
// static-shaped f32, f16 and bf16 tensors only) and in motif operands and
// results (the verifier: motif tensors hold f32, f16 or bf16), and
// sizes past the limits: zero extents, huge extents, products that overflow
// 64 bits, too many blocks, block sizes out of range. Each is a located error
// and a non-zero exit, whether the verifier or --convert-motif-to-gpu
// refuses it.
// RUN: motif-opt %s -split-input-file --convert-motif-to-gpu -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s --convert-motif-to-gpu | FileCheck %s --check-prefix=EACH
// EACH: 28 cases, 28 refused properly

// expected-error @+1 {{has a 'tensor<4xf8E4M3FN>' in its signature: the GPU lowering takes f32, f16 and bf16 tensors, static but for a leading row count}}
func.func @f8_argument(%x: tensor<4xf8E4M3FN>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %r = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%y[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @i32_copy(%x: tensor<4xi32>) -> tensor<4xi32> {
  %r = motif.kernel "k" threads(4) -> tensor<4xi32> {
    // expected-error @+1 {{'motif.materialize' op holds 'i32': motif tensors hold f32, f16 or bf16 elements}}
    %g = motif.materialize %x in global : tensor<4xi32>
    motif.yield %g : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}

// -----

func.func @index_map(%x: tensor<4xindex>) -> tensor<4xindex> {
  %r = motif.kernel "k" threads(4) -> tensor<4xindex> {
    // expected-error @+1 {{'motif.map' op operand #0 holds 'index': motif tensors hold f32, f16 or bf16 elements}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xindex>) -> tensor<4xindex> {
    ^bb0(%a: index):
      motif.yield %a : index
    }
    %g = motif.materialize %m in global : tensor<4xindex>
    motif.yield %g : tensor<4xindex>
  }
  return %r : tensor<4xindex>
}

// -----

func.func @complex_map(%x: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
  %r = motif.kernel "k" threads(4) -> tensor<4xcomplex<f32>> {
    // expected-error @+1 {{'motif.map' op operand #0 holds 'complex<f32>': motif tensors hold f32, f16 or bf16 elements}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
    ^bb0(%a: complex<f32>):
      motif.yield %a : complex<f32>
    }
    %g = motif.materialize %m in global : tensor<4xcomplex<f32>>
    motif.yield %g : tensor<4xcomplex<f32>>
  }
  return %r : tensor<4xcomplex<f32>>
}

// -----

func.func @f64_result(%x: tensor<4xf32>) -> tensor<4xf64> {
  %r = motif.kernel "k" threads(4) -> tensor<4xf64> {
    // expected-error @+1 {{'motif.map' op result #0 holds 'f64': motif tensors hold f32, f16 or bf16 elements}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf64> {
    ^bb0(%a: f32):
      %e = arith.extf %a : f32 to f64
      motif.yield %e : f64
    }
    %g = motif.materialize %m in global : tensor<4xf64>
    motif.yield %g : tensor<4xf64>
  }
  return %r : tensor<4xf64>
}

// -----

// expected-error @+1 {{has a 'vector<4xf32>' in its signature}}
func.func @vector_argument(%v: vector<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %g = motif.materialize %x in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{has a 'tensor<*xf32>' in its signature}}
func.func @unranked_argument(%u: tensor<*xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %g = motif.materialize %x in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Only the leading dim may be the runtime row count.
// expected-error @+1 {{has a 'tensor<4x?xf32>' in its signature}}
func.func @dynamic_argument(%d: tensor<4x?xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %g = motif.materialize %x in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// expected-error @+1 {{has a 'memref<4xf32>' in its signature}}
func.func @memref_argument(%m: memref<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %g = motif.materialize %x in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// An i32 intermediate inside an f32 program.
func.func @i32_intermediate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    // expected-error @+1 {{'motif.map' op result #0 holds 'i32': motif tensors hold f32, f16 or bf16 elements}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xi32> {
    ^bb0(%a: f32):
      %b = arith.fptosi %a : f32 to i32
      motif.yield %b : i32
    }
    %r = motif.materialize %m in register : tensor<4xi32>
    %n = motif.map (%r[i]) -> [i] over [thread] : (tensor<4xi32>) -> tensor<4xf32> {
    ^bb0(%a: i32):
      %b = arith.sitofp %a : i32 to f32
      motif.yield %b : f32
    }
    %g = motif.materialize %n in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @f64_intermediate_in_shared(%x: tensor<4xf32>) -> tensor<f32> {
  %y = motif.kernel "k" threads(4) -> tensor<f32> {
    // expected-error @+1 {{'motif.map' op result #0 holds 'f64': motif tensors hold f32, f16 or bf16 elements}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf64> {
    ^bb0(%a: f32):
      %b = arith.extf %a : f32 to f64
      motif.yield %b : f64
    }
    %s = motif.materialize %m in shared : tensor<4xf64>
    %n = motif.map (%s[i]) -> [i] over [thread] : (tensor<4xf64>) -> tensor<4xf32> {
    ^bb0(%a: f64):
      %b = arith.truncf %a : f64 to f32
      motif.yield %b : f32
    }
    %t = motif.materialize %n in register : tensor<4xf32>
    %r = motif.reduce <add> (%t[i]) -> [] over [thread] : (tensor<4xf32>) -> tensor<f32>
    %g = motif.materialize %r in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}

// -----

// A mask of i1 is no tensor the kernels can hold.
func.func @i1_intermediate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    // expected-error @+1 {{'motif.map' op result #0 holds 'i1': motif tensors hold f32, f16 or bf16 elements}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xi1> {
    ^bb0(%a: f32):
      %z = arith.constant 0.0 : f32
      %b = arith.cmpf ogt, %a, %z : f32
      motif.yield %b : i1
    }
    %r = motif.materialize %m in register : tensor<4xi1>
    %n = motif.map (%r[i], %x[i]) -> [i] over [thread] : (tensor<4xi1>, tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%c: i1, %a: f32):
      %z = arith.constant 0.0 : f32
      %b = arith.select %c, %a, %z : f32
      motif.yield %b : f32
    }
    %g = motif.materialize %n in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @dynamic_motif_operand(%x: tensor<?xf32>) {
  motif.kernel "k" threads(4) {
    // expected-error @+1 {{'motif.map' op operand #0 dim 0 has extent ? but iteration dim 'i' has extent 4}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<?xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @unranked_reduce_operand(%x: tensor<*xf32>) {
  motif.kernel "k" threads(4) {
    // expected-error @+1 {{'motif.reduce' op operand #0 must be variadic of tensor static in every dim but the leading one, but got 'tensor<*xf32>'}}
    %s = motif.reduce <add> (%x[i]) -> [] over [thread] : (tensor<*xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @dynamic_motif_result(%x: tensor<4xf32>) {
  motif.kernel "k" threads(4) {
    // expected-error @+1 {{'motif.transpose' op maps iteration dim 'i', whose extent is dynamic, to 'thread': a dynamic extent (the row count, known at launch) must be mapped to 'block'}}
    %t = motif.transpose %x[i] -> [i] over [thread] : (tensor<4xf32>) -> tensor<?xf32>
  }
  return
}

// -----

func.func @vector_materialized(%v: vector<4xf32>) {
  motif.kernel "k" threads(4) {
    // expected-error @+1 {{invalid kind of type specified: expected builtin.tensor, but found 'vector<4xf32>'}}
    %r = motif.materialize %v in register : vector<4xf32>
  }
  return
}

// -----

func.func @zero_extent_map(%x: tensor<0xf32>) {
  motif.kernel "k" threads(4) {
    // expected-error @+1 {{'motif.map' op iteration dim 'i' has extent 0: every extent must be at least 1}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<0xf32>) -> tensor<0xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// A reduction over nothing has no defined value on the threads.
func.func @zero_extent_reduced_dim(%x: tensor<4x0xf32>) {
  motif.kernel "k" threads(4) {
    // expected-error @+1 {{'motif.reduce' op iteration dim 'j' has extent 0: every extent must be at least 1}}
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [thread, seq] : (tensor<4x0xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @zero_extent_contracted_dim(%q: tensor<4x0xf32>, %k: tensor<4x0xf32>) {
  motif.kernel "k" threads(4) {
    // expected-error @+1 {{'motif.contract' op iteration dim 'k' has extent 0}}
    %c = motif.contract (%q[i, d], %k[j, d]) -> [i, j] over [thread, seq, seq] : (tensor<4x0xf32>, tensor<4x0xf32>) -> tensor<4x4xf32>
  }
  return
}

// -----

// 2^40 + 1 instances.
func.func @huge_extent(%x: tensor<1099511627777xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.map' op has more than 1099511627776 iteration instances (2^40): sizes past that limit are not supported}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<1099511627777xf32>) -> tensor<1099511627777xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// 2^63 - 1 by 2 wraps a 64-bit product.
func.func @extent_product_overflows(%x: tensor<9223372036854775807x2xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.broadcast' op has more than 1099511627776 iteration instances}}
    %b = motif.broadcast %x[i, j] -> [i, j, k] over [seq, seq, thread] : (tensor<9223372036854775807x2xf32>) -> tensor<9223372036854775807x2x4xf32>
  }
  return
}

// -----

// 2^32 by 2^32 is 2^64: zero when it wraps.
func.func @extent_product_wraps_to_zero(%x: tensor<4294967296x4294967296xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.reduce' op has more than 1099511627776 iteration instances}}
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [seq, thread] : (tensor<4294967296x4294967296xf32>) -> tensor<4294967296xf32>
  }
  return
}

// -----

// A contraction counts its contracted dims too: 2^20 x 2^20 x 2^20.
func.func @contract_instances_overflow(%q: tensor<1048576x1048576xf32>, %k: tensor<1048576x1048576xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.contract' op has more than 1099511627776 iteration instances}}
    %c = motif.contract (%q[i, d], %k[j, d]) -> [i, j] over [seq, thread, seq] : (tensor<1048576x1048576xf32>, tensor<1048576x1048576xf32>) -> tensor<1048576x1048576xf32>
  }
  return
}

// -----

func.func @too_many_blocks(%x: tensor<2147483648x1xf32>) {
  motif.kernel "k" threads(1) {
    // expected-error @+1 {{'motif.map' op launches more than 2147483647 blocks (the grid limit, 2^31-1)}}
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<2147483648x1xf32>) -> tensor<2147483648x1xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// Two block dims of 65536 each: 2^32 blocks.
func.func @too_many_blocks_two_dims(%x: tensor<65536x65536xf32>) {
  motif.kernel "k" threads(1) {
    // expected-error @+1 {{'motif.map' op launches more than 2147483647 blocks}}
    %m = motif.map (%x[i, j]) -> [i, j] over [block, block] : (tensor<65536x65536xf32>) -> tensor<65536x65536xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

// One row per warp, one warp per block: 2^36 rows are 2^36 blocks.
func.func @too_many_blocks_block_warp(%x: tensor<68719476736xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'motif.map' op launches more than 2147483647 blocks}}
    %m = motif.map (%x[i]) -> [i] over [block.warp] : (tensor<68719476736xf32>) -> tensor<68719476736xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @threads_2_to_the_40() {
  // expected-error @+1 {{'motif.kernel' op threads must be in [1, 1024], got 1099511627776}}
  motif.kernel "k" threads(1099511627776) {
  }
  return
}

// -----

// 2^32 + 1 is 1 in 32 bits: never truncated to a valid block.
func.func @threads_wraps_in_32_bits(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'motif.kernel' op threads must be in [1, 1024], got 4294967297}}
  %y = motif.kernel "k" threads(4294967297) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}
