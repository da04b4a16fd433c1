// Kernels that run as thread-block clusters (docs/lowering.md, "Clusters"),
// for python/tests/test_gpu.py::test_clusters: each against its twin with the
// cluster halved (cluster(4) -> cluster(2), cluster(2) -> one CTA;
// motif.examples.cluster_twin), bit for bit, and against float64.

// f32 softmax, 8 rows of 4096 at threads(1024) cluster(4): 4 elements a thread.
func.func @softmax_c4(%x: tensor<8x4096xf32>) -> tensor<8x4096xf32> {
  %y = motif.kernel "softmax" threads(1024) cluster(4) -> tensor<8x4096xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<8x4096xf32>) -> tensor<8xf32>
    %mr = motif.materialize %m in register : tensor<8xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread]
           : (tensor<8x4096xf32>, tensor<8xf32>) -> tensor<8x4096xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<8x4096xf32>
    %s = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread]
           : (tensor<8x4096xf32>) -> tensor<8xf32>
    %sr = motif.materialize %s in register : tensor<8xf32>
    %p = motif.map (%er[i, j], %sr[i]) -> [i, j] over [block, thread]
           : (tensor<8x4096xf32>, tensor<8xf32>) -> tensor<8x4096xf32> {
    ^bb0(%a: f32, %b: f32):
      %q = arith.divf %a, %b : f32
      motif.yield %q : f32
    }
    %g = motif.materialize %p in global : tensor<8x4096xf32>
    motif.yield %g : tensor<8x4096xf32>
  }
  return %y : tensor<8x4096xf32>
}

// bf16 softmax as row-cluster-threads=256 fuses it: 8 rows of 65536 at
// threads(1024) cluster(4), x loaded once (64 bf16 a thread), statistics and
// exp(x - max) in f32 registers.
func.func @softmax_bf16_c4(%x: tensor<8x65536xbf16>) -> tensor<8x65536xbf16> {
  %y = motif.kernel "softmax_bf16" threads(1024) cluster(4) -> tensor<8x65536xbf16> {
    %xl = motif.map (%x[i, j]) -> [i, j] over [block, thread]
           : (tensor<8x65536xbf16>) -> tensor<8x65536xbf16> {
    ^bb0(%a: bf16):
      motif.yield %a : bf16
    }
    %xr = motif.materialize %xl in register : tensor<8x65536xbf16>
    %m = motif.reduce <max> (%xr[i, j]) -> [i] over [block, thread]
           : (tensor<8x65536xbf16>) -> tensor<8xf32>
    %mr = motif.materialize %m in register : tensor<8xf32>
    %e = motif.map (%xr[i, j], %mr[i]) -> [i, j] over [block, thread]
           : (tensor<8x65536xbf16>, tensor<8xf32>) -> tensor<8x65536xf32> {
    ^bb0(%a: bf16, %b: f32):
      %w = arith.extf %a : bf16 to f32
      %d = arith.subf %w, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register : tensor<8x65536xf32>
    %s = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread]
           : (tensor<8x65536xf32>) -> tensor<8xf32>
    %sr = motif.materialize %s in register : tensor<8xf32>
    %p = motif.map (%er[i, j], %sr[i]) -> [i, j] over [block, thread]
           : (tensor<8x65536xf32>, tensor<8xf32>) -> tensor<8x65536xbf16> {
    ^bb0(%a: f32, %b: f32):
      %q = arith.divf %a, %b : f32
      %r = arith.truncf %q : f32 to bf16
      motif.yield %r : bf16
    }
    %g = motif.materialize %p in global : tensor<8x65536xbf16>
    motif.yield %g : tensor<8x65536xbf16>
  }
  return %y : tensor<8x65536xbf16>
}

// f32 softmax, 4 rows of 131072 at threads(1024) cluster(4): 128 elements a
// thread, 64 in registers and 64 in a shared tail of each thread's own
// (64 KiB a CTA; 256 KiB as one CTA, past any chip).
func.func @softmax_tails_c4(%x: tensor<4x131072xf32>) -> tensor<4x131072xf32> {
  %y = motif.kernel "softmax_tails" threads(1024) cluster(4) -> tensor<4x131072xf32> {
    %xl = motif.map (%x[i, j]) -> [i, j] over [block, thread]
           : (tensor<4x131072xf32>) -> tensor<4x131072xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %xr = motif.materialize %xl in register shared_tail(64) : tensor<4x131072xf32>
    %m = motif.reduce <max> (%xr[i, j]) -> [i] over [block, thread]
           : (tensor<4x131072xf32>) -> tensor<4xf32>
    %mr = motif.materialize %m in register : tensor<4xf32>
    %e = motif.map (%xr[i, j], %mr[i]) -> [i, j] over [block, thread]
           : (tensor<4x131072xf32>, tensor<4xf32>) -> tensor<4x131072xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %er = motif.materialize %e in register shared_tail(64) : tensor<4x131072xf32>
    %s = motif.reduce <add> (%er[i, j]) -> [i] over [block, thread]
           : (tensor<4x131072xf32>) -> tensor<4xf32>
    %sr = motif.materialize %s in register : tensor<4xf32>
    %p = motif.map (%er[i, j], %sr[i]) -> [i, j] over [block, thread]
           : (tensor<4x131072xf32>, tensor<4xf32>) -> tensor<4x131072xf32> {
    ^bb0(%a: f32, %b: f32):
      %q = arith.divf %a, %b : f32
      motif.yield %q : f32
    }
    %g = motif.materialize %p in global : tensor<4x131072xf32>
    motif.yield %g : tensor<4x131072xf32>
  }
  return %y : tensor<4x131072xf32>
}

// Column sums of 4 blocks of 512x32: the rows over 32 warps, the columns over
// the lanes (every lane passes its own partial), as a cluster of 2 CTAs.
func.func @column_sums_c2(%x: tensor<4x512x32xf32>) -> tensor<4x32xf32> {
  %y = motif.kernel "sums" threads(1024) cluster(2) -> tensor<4x32xf32> {
    %s = motif.reduce <add> (%x[b, i, j]) -> [b, j] over [block, warp, lane]
           : (tensor<4x512x32xf32>) -> tensor<4x32xf32>
    %g = motif.materialize %s in global : tensor<4x32xf32>
    motif.yield %g : tensor<4x32xf32>
  }
  return %y : tensor<4x32xf32>
}
