// Shared memory past the 48 KiB a block declares statically: dynamic shared
// memory, opted in at launch (test/Pipeline/dynamic-shared.test and the GPU
// test test_dynamic_shared_memory in python/tests/test_gpu.py).

// exp then row sums, through global memory (two kernels)...
func.func @rows_global(%x: tensor<64x16384xf32>) -> tensor<64xf32> {
  %e = motif.kernel "exp" threads(256) -> tensor<64x16384xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x16384xf32>) -> tensor<64x16384xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<64x16384xf32>
    motif.yield %g : tensor<64x16384xf32>
  }
  %s = motif.kernel "sum" threads(256) -> tensor<64xf32> {
    %r = motif.reduce <add> (%e[i, j]) -> [i] over [block, seq] : (tensor<64x16384xf32>) -> tensor<64xf32>
    %g = motif.materialize %r in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %s : tensor<64xf32>
}

// ... and through a 64 KiB row in shared memory (one kernel): the same bits.
func.func @rows_shared(%x: tensor<64x16384xf32>) -> tensor<64xf32> {
  %s = motif.kernel "k" threads(256) -> tensor<64xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x16384xf32>) -> tensor<64x16384xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    %e = motif.materialize %m in shared : tensor<64x16384xf32>
    %r = motif.reduce <add> (%e[i, j]) -> [i] over [block, seq] : (tensor<64x16384xf32>) -> tensor<64xf32>
    %g = motif.materialize %r in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %s : tensor<64xf32>
}

// A shared value (49156 B) and a block reduction's scratch after it.
func.func @two_buffers(%x: tensor<64x12289xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %y:2 = motif.kernel "k" threads(256) -> tensor<64xf32>, tensor<64xf32> {
    %m = motif.map (%x[i, j]) -> [i, j] over [block, thread] : (tensor<64x12289xf32>) -> tensor<64x12289xf32> {
    ^bb0(%a: f32):
      %r = math.exp %a : f32
      motif.yield %r : f32
    }
    %r = motif.materialize %m in shared : tensor<64x12289xf32>
    %s = motif.reduce <add> (%r[i, j]) -> [i] over [block, thread] : (tensor<64x12289xf32>) -> tensor<64xf32>
    %t = motif.reduce <max> (%r[i, j]) -> [i] over [block, seq] : (tensor<64x12289xf32>) -> tensor<64xf32>
    %gs = motif.materialize %s in global : tensor<64xf32>
    %gt = motif.materialize %t in global : tensor<64xf32>
    motif.yield %gs, %gt : tensor<64xf32>, tensor<64xf32>
  }
  return %y#0, %y#1 : tensor<64xf32>, tensor<64xf32>
}

// Exactly the 227 KiB (232448 B) a block may opt in to on sm_90.
func.func @at_the_limit(%x: tensor<58112xf32>) -> tensor<f32> {
  %y = motif.kernel "k" threads(32) -> tensor<f32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<58112xf32>) -> tensor<58112xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %r = motif.materialize %m in shared : tensor<58112xf32>
    %s = motif.reduce <add> (%r[i]) -> [] over [seq] : (tensor<58112xf32>) -> tensor<f32>
    %g = motif.materialize %s in global : tensor<f32>
    motif.yield %g : tensor<f32>
  }
  return %y : tensor<f32>
}
