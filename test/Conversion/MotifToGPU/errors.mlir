// What the GPU lowering refuses, each with a located error.
// RUN: motif-opt %s --convert-motif-to-gpu --split-input-file --verify-diagnostics

// expected-error @+1 {{has a 'tensor<4xf64>' in its signature: the GPU lowering takes f32, f16 and bf16 tensors, static but for a leading row count}}
func.func @f64(%unused: tensor<4xf64>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @too_many_registers(%x: tensor<512xf32>) -> tensor<f32> {
  %y = motif.kernel "k" threads(1) -> tensor<f32> {
    %m = motif.map (%x[i]) -> [i] over [seq] : (tensor<512xf32>) -> tensor<512xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{keeps 512 elements per thread in registers; the lowering unrolls at most 256}}
    %r = motif.materialize %m in register : tensor<512xf32>
    %s = motif.reduce <add> (%r[i]) -> [] over [seq] : (tensor<512xf32>) -> tensor<f32>
    %g = motif.materialize %s in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}

// -----

// Over 48 KiB shared memory is dynamic (dynamic-shared.mlir); over the
// largest opt-in of any chip (227 KiB) it is refused.
func.func @shared_over_limit(%x: tensor<65536xf32>) -> tensor<f32> {
  // expected-error @+1 {{needs 262144 bytes of shared memory, over the 232448 B a block may use on any supported chip}}
  %y = motif.kernel "k" threads(256) -> tensor<f32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<65536xf32>) -> tensor<65536xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %r = motif.materialize %m in shared : tensor<65536xf32>
    %s = motif.reduce <add> (%r[i]) -> [] over [seq] : (tensor<65536xf32>) -> tensor<f32>
    %g = motif.materialize %s in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}

// -----

func.func @odd_block(%x: tensor<96xf32>) -> tensor<f32> {
  %y = motif.kernel "k" threads(48) -> tensor<f32> {
    // expected-error @+1 {{reduces across lanes with threads(48): the shuffle butterfly needs a power of two up to 32 or a multiple of 32}}
    %s = motif.reduce <add> (%x[i]) -> [] over [thread] : (tensor<96xf32>) -> tensor<f32>
    %g = motif.materialize %s in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}

// -----

func.func @reduce_over_blocks(%x: tensor<8xf32>) -> tensor<f32> {
  %y = motif.kernel "k" threads(1) -> tensor<f32> {
    // expected-error @+1 {{reduces over a dim mapped to 'block': a reduction across blocks needs a kernel boundary (not lowered)}}
    %s = motif.reduce <add> (%x[i]) -> [] over [block] : (tensor<8xf32>) -> tensor<f32>
    %g = motif.materialize %s in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}

// -----

// A row sum over threads is replicated in every thread, but its rows are a
// seq dim; a consumer reading them at the thread level would index the
// per-thread registers dynamically. The schedule model says register is
// illegal here (same block: shared), and the lowering checks it first.
func.func @reindex_registers(%x: tensor<32x64xf32>) -> tensor<32xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<32xf32> {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [seq, thread] : (tensor<32x64xf32>) -> tensor<32xf32>
    // expected-error @+1 {{keeps the result of 'motif.reduce' in register, but 'motif.map' reads it (operand #0) in same block: dim 0 is computed at 'seq' but read at 'thread'; it needs shared}}
    %r = motif.materialize %s in register : tensor<32xf32>
    %m = motif.map (%r[i]) -> [i] over [thread] : (tensor<32xf32>) -> tensor<32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<32xf32>
    motif.yield %g : tensor<32xf32>
  }
  return %y : tensor<32xf32>
}

// -----

func.func @returns_argument(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  // expected-error @+1 {{returns result #1, which no motif.kernel computes}}
  return %y, %x : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @returns_twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = motif.kernel "k" threads(4) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  // expected-error @+1 {{returns the same kernel result twice}}
  return %y, %y : tensor<4xf32>, tensor<4xf32>
}

// -----

// Kernels already in the gpu form go down the same pipeline: a size the NVPTX
// backend cannot take (an unlocated fatal error on nvvm.maxntid, exit 1;
// found by motif-fuzz mutate) is a located error first.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{'gpu.func' op known_block_size holds -3; every size must be at least 1}}
    gpu.func @copy(%a: memref<4xf32>) kernel attributes {known_block_size = array<i32: 4, -3, 1>} {
      gpu.return
    }
  }
}

// -----

// A contraction on tensor cores reads its operands from staged tiles
// (cp.async, ldmatrix); one read from global memory is refused.
func.func @mma_operand_not_staged(%a: tensor<16x16xbf16>, %b: tensor<16x8xbf16>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    %bs = motif.materialize %b in shared : tensor<16x8xbf16>
    // expected-error @+1 {{runs on tensor cores, which read operand #0 from an operand tile staged in shared memory one step of k at a time (cp.async, ldmatrix): materialize it 'in shared' in this kernel, read by this contraction only}}
    %p = motif.contract (%a[i, k], %bs[k, j]) -> [i, j]
           over [seq(2) x thread(8), thread(4) x seq(2), seq(1) x seq(16)] mma m16n8k16
           : (tensor<16x16xbf16>, tensor<16x8xbf16>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

func.func @shared_tail_too_long(%x: tensor<8x1024xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<8xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<8x1024xf32>) -> tensor<8x1024xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{keeps 17 slots per thread in its shared tail, but the value has 16 per thread}}
    %r = motif.materialize %m in register shared_tail(17) : tensor<8x1024xf32>
    %s = motif.reduce <add> (%r[i, j]) -> [i] over [block, thread] : (tensor<8x1024xf32>) -> tensor<8xf32>
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}

// -----

// Register values the reader indexes by two seq dims, with a combine across
// threads for each of their 96 x 12 instances: the lowering would unroll
// 96 * 12 * (1 + 16) = 19584 instances of the body (half a minute of
// compile time). Refused, located (docs/residency.md, "Unrolled work").
func.func @unrolled_work(%a: tensor<12x96xf32>, %b: tensor<12x12xf32>) -> tensor<96x12xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<96x12xf32> {
    %m = motif.map (%a[i, j]) -> [i, j] over [thread, seq] : (tensor<12x96xf32>) -> tensor<12x96xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    // expected-error @+1 {{keeps the result of 'motif.map' in registers, so the lowering would unroll 'motif.contract' to 19584 instances of its body (its combines across threads counted 16 each), over the 4096 it unrolls at most}}
    %r = motif.materialize %m in register : tensor<12x96xf32>
    %n = motif.map (%b[i, j]) -> [i, j] over [seq, thread] : (tensor<12x12xf32>) -> tensor<12x12xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %rb = motif.materialize %n in register : tensor<12x12xf32>
    %c = motif.contract (%r[k, i], %rb[j, k]) -> [i, j] over [seq, seq, thread] : (tensor<12x96xf32>, tensor<12x12xf32>) -> tensor<96x12xf32>
    %g = motif.materialize %c in global : tensor<96x12xf32>
    motif.yield %g : tensor<96x12xf32>
  }
  return %y : tensor<96x12xf32>
}

// -----

// The same reader with one of them from global memory loops over j: it
// unrolls 96 * (1 + 16) = 1632 instances. Lowered.
func.func @unrolled_work_within(%a: tensor<12x96xf32>, %b: tensor<12x12xf32>) -> tensor<96x12xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<96x12xf32> {
    %m = motif.map (%a[i, j]) -> [i, j] over [thread, seq] : (tensor<12x96xf32>) -> tensor<12x96xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %r = motif.materialize %m in register : tensor<12x96xf32>
    %c = motif.contract (%r[k, i], %b[j, k]) -> [i, j] over [seq, seq, thread] : (tensor<12x96xf32>, tensor<12x12xf32>) -> tensor<96x12xf32>
    %g = motif.materialize %c in global : tensor<96x12xf32>
    motif.yield %g : tensor<96x12xf32>
  }
  return %y : tensor<96x12xf32>
}

// -----

// Tensor cores with a partial last block of columns: cp.async copies 16
// aligned bytes, so B's rows of 20 bf16 (40 bytes) cannot be copied.
func.func @mma_rows_not_16_bytes(%a: tensor<40x80xbf16>, %b: tensor<80x20xbf16>) -> tensor<40x20xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<40x20xf32> {
    %as = motif.materialize %a in shared : tensor<40x80xbf16>
    %bs = motif.materialize %b in shared : tensor<80x20xbf16>
    // expected-error @+1 {{runs on tensor cores, which copy operand #1 16 bytes at a time (cp.async), but its rows hold 20 elements of 'bf16', not a multiple of 16 bytes}}
    %p = motif.contract (%as[i, k], %bs[k, j]) -> [i, j]
           over [block x seq(2) x thread(8), block x seq(1) x thread(4) x seq(2), seq x seq(16)] mma m16n8k16
           : (tensor<40x80xbf16>, tensor<80x20xbf16>) -> tensor<40x20xf32>
    %g = motif.materialize %p in global : tensor<40x20xf32>
    motif.yield %g : tensor<40x20xf32>
  }
  return %c : tensor<40x20xf32>
}
