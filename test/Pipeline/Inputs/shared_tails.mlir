// Rows too long for the register budget but not for registers and shared
// memory together: --fuse-materialization keeps the slots past the budget in
// a shared tail of each thread's own (docs/residency.md, "Shared tails").
// Unfused programs from the examples at long rows; python/tests/test_gpu.py
// (test_shared_tails) runs them fused against unfused and float64, and
// test/Pipeline/shared-tails.test reads their SASS.

// 256 slots per thread at threads(256): 64 in registers, 192 in the tail;
// x's tail becomes exp(x - max)'s (the map reads it slot for slot).
func.func @softmax_long(%x: tensor<8x65536xf32>) -> tensor<8x65536xf32> {
  %max = motif.kernel "softmax_long_max" threads(256) -> tensor<8xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<8x65536xf32>) -> tensor<8xf32>
    %g = motif.materialize %m in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %exp = motif.kernel "softmax_long_exp" threads(256) -> tensor<8x65536xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<8x65536xf32>, tensor<8xf32>) -> tensor<8x65536xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<8x65536xf32>
    motif.yield %g : tensor<8x65536xf32>
  }
  %sum = motif.kernel "softmax_long_sum" threads(256) -> tensor<8xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<8x65536xf32>) -> tensor<8xf32>
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %y = motif.kernel "softmax_long_div" threads(256) -> tensor<8x65536xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<8x65536xf32>, tensor<8xf32>) -> tensor<8x65536xf32> {
    ^bb0(%e: f32, %s: f32):
      %r = arith.divf %e, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<8x65536xf32>
    motif.yield %g : tensor<8x65536xf32>
  }
  return %y : tensor<8x65536xf32>
}
// 40000 is no multiple of 4 x 256: no runs, 157 slots (the last partly
// inactive), a tail of 93 one-element accesses.
func.func @softmax_odd(%x: tensor<6x40000xf32>) -> tensor<6x40000xf32> {
  %max = motif.kernel "softmax_odd_max" threads(256) -> tensor<6xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<6x40000xf32>) -> tensor<6xf32>
    %g = motif.materialize %m in global : tensor<6xf32>
    motif.yield %g : tensor<6xf32>
  }
  %exp = motif.kernel "softmax_odd_exp" threads(256) -> tensor<6x40000xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<6x40000xf32>, tensor<6xf32>) -> tensor<6x40000xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<6x40000xf32>
    motif.yield %g : tensor<6x40000xf32>
  }
  %sum = motif.kernel "softmax_odd_sum" threads(256) -> tensor<6xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<6x40000xf32>) -> tensor<6xf32>
    %g = motif.materialize %s in global : tensor<6xf32>
    motif.yield %g : tensor<6xf32>
  }
  %y = motif.kernel "softmax_odd_div" threads(256) -> tensor<6x40000xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<6x40000xf32>, tensor<6xf32>) -> tensor<6x40000xf32> {
    ^bb0(%e: f32, %s: f32):
      %r = arith.divf %e, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<6x40000xf32>
    motif.yield %g : tensor<6x40000xf32>
  }
  return %y : tensor<6x40000xf32>
}
// threads(1024): 64 slots within the register budget but over the live set
// (40): 36 in registers, 28 in the tail.
func.func @softmax_t1024(%x: tensor<4x65536xf32>) -> tensor<4x65536xf32> {
  %max = motif.kernel "softmax_t1024_max" threads(1024) -> tensor<4xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<4x65536xf32>) -> tensor<4xf32>
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %exp = motif.kernel "softmax_t1024_exp" threads(1024) -> tensor<4x65536xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<4x65536xf32>, tensor<4xf32>) -> tensor<4x65536xf32> {
    ^bb0(%a: f32, %m: f32):
      %d = arith.subf %a, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<4x65536xf32>
    motif.yield %g : tensor<4x65536xf32>
  }
  %sum = motif.kernel "softmax_t1024_sum" threads(1024) -> tensor<4xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<4x65536xf32>) -> tensor<4xf32>
    %g = motif.materialize %s in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %y = motif.kernel "softmax_t1024_div" threads(1024) -> tensor<4x65536xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<4x65536xf32>, tensor<4xf32>) -> tensor<4x65536xf32> {
    ^bb0(%e: f32, %s: f32):
      %r = arith.divf %e, %s : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<4x65536xf32>
    motif.yield %g : tensor<4x65536xf32>
  }
  return %y : tensor<4x65536xf32>
}
// bf16 rows (runs of 8): x's tail in bf16, exp(x - max)'s in f32.
func.func @softmax_bf16_long(%x: tensor<8x65536xbf16>) -> tensor<8x65536xbf16> {
  %max = motif.kernel "softmax_bf16_long_bf16_max" threads(256) -> tensor<8xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<8x65536xbf16>) -> tensor<8xf32>
    %g = motif.materialize %m in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %exp = motif.kernel "softmax_bf16_long_bf16_exp" threads(256) -> tensor<8x65536xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread]
           : (tensor<8x65536xbf16>, tensor<8xf32>) -> tensor<8x65536xf32> {
    ^bb0(%a: bf16, %m: f32):
      %w = arith.extf %a : bf16 to f32
      %d = arith.subf %w, %m : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<8x65536xf32>
    motif.yield %g : tensor<8x65536xf32>
  }
  %sum = motif.kernel "softmax_bf16_long_bf16_sum" threads(256) -> tensor<8xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread]
           : (tensor<8x65536xf32>) -> tensor<8xf32>
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %y = motif.kernel "softmax_bf16_long_bf16_div" threads(256) -> tensor<8x65536xbf16> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread]
           : (tensor<8x65536xf32>, tensor<8xf32>) -> tensor<8x65536xbf16> {
    ^bb0(%e: f32, %s: f32):
      %q = arith.divf %e, %s : f32
      %r = arith.truncf %q : f32 to bf16
      motif.yield %r : bf16
    }
    %g = motif.materialize %p in global : tensor<8x65536xbf16>
    motif.yield %g : tensor<8x65536xbf16>
  }
  return %y : tensor<8x65536xbf16>
}
// RMSNorm: x read by the sum of squares and the normalization.
func.func @rmsnorm_long(%x: tensor<8x32768xf32>, %gamma: tensor<32768xf32>) -> tensor<8x32768xf32> {
  %ss = motif.kernel "rmsnorm_long_ss" threads(256) -> tensor<8xf32> {
    %s = motif.contract (%x[i, j], %x[i, j]) -> [i] over [block, thread]
           : (tensor<8x32768xf32>, tensor<8x32768xf32>) -> tensor<8xf32>
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %y = motif.kernel "rmsnorm_long_norm" threads(256) -> tensor<8x32768xf32> {
    %n = motif.map (%x[i, j], %ss[i], %gamma[j]) -> [i, j] over [block, thread]
           : (tensor<8x32768xf32>, tensor<8xf32>, tensor<32768xf32>) -> tensor<8x32768xf32> {
    ^bb0(%a: f32, %s: f32, %w: f32):
      %inv_n = arith.constant 3.0517578e-05 : f32
      %eps = arith.constant 1.0e-06 : f32
      %ms = arith.mulf %s, %inv_n : f32
      %me = arith.addf %ms, %eps : f32
      %rs = math.rsqrt %me : f32
      %xn = arith.mulf %a, %rs : f32
      %r = arith.mulf %xn, %w : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %n in global : tensor<8x32768xf32>
    motif.yield %g : tensor<8x32768xf32>
  }
  return %y : tensor<8x32768xf32>
}
