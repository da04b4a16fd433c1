// RUN: motif-opt %s -split-input-file --fuse-materialization --convert-motif-to-gpu -o /dev/null
// RUN: motif-opt %s -split-input-file --fuse-materialization -o /dev/null 2>&1 | FileCheck %s
// The shared budget of a merged kernel counts everything the lowering
// declares in shared memory: moved values, the cross-warp scratch of every
// reduction, and shared values the kernels already had. Found by motif-fuzz:
// each program below fused into a kernel of 49,164 or 49,216 bytes, which the
// lowering then refused (over the 49,152 B of static shared memory).

// motif-fuzz program seed 9437199200789179303: three 16 KiB values and 64 B
// of reduction scratch.
// CHECK: remark: 'k1'#0 (tensor<4096xf32>): stays global (rule 5: refused: the merged kernel would need 49216 shared bytes per block (64 of them reduction scratch and shared values the kernels had), over the budget (49152 B)
func.func @f(%arg0: tensor<4096xf32>) -> (tensor<f32>) {
  %v1 = motif.kernel "k1" threads(2) -> tensor<4096xf32> {
    %r = motif.map (%arg0[d2], %arg0[d2]) -> [d2] over [lane] : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<4096xf32> {
    ^bb0(%a0: f32, %a1: f32):
      %t0 = arith.minimumf %a1, %a0 : f32
      %t1 = arith.minimumf %a0, %a0 : f32
      %t2 = arith.mulf %t0, %t1 : f32
      motif.yield %t2 : f32
    }
    %g0 = motif.materialize %r in global : tensor<4096xf32>
    motif.yield %g0 : tensor<4096xf32>
  }
  %v2 = motif.kernel "k2" threads(128) -> tensor<4096xf32> {
    %r = motif.map (%arg0[d2]) -> [d2] over [lane] : (tensor<4096xf32>) -> tensor<4096xf32> {
    ^bb0(%a0: f32):
      motif.yield %a0 : f32
    }
    %g0 = motif.materialize %r in global : tensor<4096xf32>
    motif.yield %g0 : tensor<4096xf32>
  }
  %v3 = motif.kernel "k3" threads(128) -> tensor<f32> {
    %r = motif.contract (%v1[d2], %v1[d2]) -> [] over [thread] : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<f32>
    %g0 = motif.materialize %r in global : tensor<f32>
    motif.yield %g0 : tensor<f32>
  }
  %v4 = motif.kernel "k4" threads(128) -> tensor<4096xf32> {
    %r = motif.map (%v2[d2], %v2[d2]) -> [d2] over [warp] : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<4096xf32> {
    ^bb0(%a0: f32, %a1: f32):
      motif.yield %a1 : f32
    }
    %g0 = motif.materialize %r in global : tensor<4096xf32>
    motif.yield %g0 : tensor<4096xf32>
  }
  %v5:2 = motif.kernel "k5" threads(128) -> tensor<f32>, tensor<f32> {
    %r:2 = motif.reduce (%v2[d2], %v4[d2]) -> [] init [0.0 : f32, 0.0 : f32] over [thread] : (tensor<4096xf32>, tensor<4096xf32>) -> (tensor<f32>, tensor<f32>) combiner {
    ^bb0(%ma: f32, %la: f32, %mb: f32, %lb: f32):
      %s0 = arith.addf %ma, %mb : f32
      %s1 = arith.addf %la, %lb : f32
      motif.yield %s0, %s1 : f32, f32
    }
    %g0 = motif.materialize %r#0 in global : tensor<f32>
    %g1 = motif.materialize %r#1 in global : tensor<f32>
    motif.yield %g0, %g1 : tensor<f32>, tensor<f32>
  }
  %v6 = motif.kernel "k6" threads(128) -> tensor<f32> {
    %r = motif.contract (%v2[d2], %v1[d2]) -> [] over [warp] : (tensor<4096xf32>, tensor<4096xf32>) -> tensor<f32>
    %g0 = motif.materialize %r in global observable : tensor<f32>
    motif.yield %g0 : tensor<f32>
  }
  return %v6 : tensor<f32>
}

// -----

// motif-fuzz program seed 2013636525175879470: a 48 KiB value joins a kernel
// that keeps 12 B in shared memory already.
// CHECK: remark: 'hk0'#0 (tensor<3x4096xf32>): stays global (rule 5: refused: the merged kernel would need 49164 shared bytes per block (12 of them reduction scratch and shared values the kernels had), over the budget (49152 B)
func.func @f(%arg0: tensor<4096x3xf32>, %arg1: tensor<4096x3xf32>, %arg2: tensor<f32>) -> (tensor<1xf32>) {
  %K0 = motif.kernel "hk0" threads(32) -> tensor<3x4096xf32> {
    %r3 = motif.transpose %arg0[d0, d1] -> [d1, d0] over [seq, seq] : (tensor<4096x3xf32>) -> tensor<3x4096xf32>
    %y3_0 = motif.materialize %r3 in global : tensor<3x4096xf32>
    motif.yield %y3_0 : tensor<3x4096xf32>
  }
  %K1 = motif.kernel "hk1" threads(32) -> tensor<1xf32> {
    %r4 = motif.contract (%K0[d1, d0], %arg0[d0, d1]) -> [d1] over [seq, seq] : (tensor<3x4096xf32>, tensor<4096x3xf32>) -> tensor<3xf32>
    %m4_0 = motif.materialize %r4 in shared : tensor<3xf32>
    %r5 = motif.reduce <max> (%m4_0[d1]) -> [] over [seq] : (tensor<3xf32>) -> tensor<f32>
    %m5_0 = motif.materialize %r5 in register : tensor<f32>
    %r6 = motif.broadcast %m5_0[] -> [d2] over [seq] : (tensor<f32>) -> tensor<1xf32>
    %y6_0 = motif.materialize %r6 in global : tensor<1xf32>
    motif.yield %y6_0 : tensor<1xf32>
  }
  return %K1 : tensor<1xf32>
}
