// A generated program (motif-fuzz one --program-seed=668865948571882515 --print=unfused) whose kernel k3 row blocks re-block under the tolerance cap (test/Tools/fuzz-cap.test).
// motif-fuzz: seed 668865948571882515, extents [31, 31, 100, 100], threads 1024, 6 nodes
func.func @f(%arg0: tensor<31x31xf32>, %arg1: tensor<31x100xf32>, %arg2: tensor<31x31xf32>) -> (tensor<31xf32>, tensor<31xf32>) {
  %v3 = motif.kernel "k3" threads(1024) -> tensor<31xf32> {
    %r = motif.reduce <add> (%arg1[d0, d3]) -> [d0] over [block, thread] : (tensor<31x100xf32>) -> tensor<31xf32>
    %g0 = motif.materialize %r in global : tensor<31xf32>
    motif.yield %g0 : tensor<31xf32>
  }
  %v4 = motif.kernel "k4" threads(1024) -> tensor<31x100xf32> {
    %r = motif.map (%arg1[d0, d3]) -> [d0, d3] over [block, warp] : (tensor<31x100xf32>) -> tensor<31x100xf32> {
    ^bb0(%a0: f32):
      %t0 = arith.constant 5.000000e-01 : f32
      %t1 = arith.mulf %t0, %a0 : f32
      %t2 = arith.constant 1.000000e+00 : f32
      %t3 = arith.mulf %a0, %a0 : f32
      %t4 = arith.addf %t3, %t2 : f32
      %t5 = arith.divf %a0, %t4 : f32
      %t6 = arith.constant 1.000000e+00 : f32
      %t7 = arith.mulf %t5, %t5 : f32
      %t8 = arith.addf %t7, %t6 : f32
      %t9 = arith.divf %t1, %t8 : f32
      motif.yield %t9 : f32
    }
    %g0 = motif.materialize %r in global : tensor<31x100xf32>
    motif.yield %g0 : tensor<31x100xf32>
  }
  %v5:2 = motif.kernel "k5" threads(1024) -> tensor<31xf32>, tensor<31xf32> {
    %r:2 = motif.reduce (%arg0[d0, d1], %arg2[d0, d1]) -> [d0] init [0.0 : f32, 0.0 : f32] over [block, lane] : (tensor<31x31xf32>, tensor<31x31xf32>) -> (tensor<31xf32>, tensor<31xf32>) combiner {
    ^bb0(%ma: f32, %la: f32, %mb: f32, %lb: f32):
      %s0 = arith.addf %ma, %mb : f32
      %s1 = arith.addf %la, %lb : f32
      motif.yield %s0, %s1 : f32, f32
    }
    %g0 = motif.materialize %r#0 in global : tensor<31xf32>
    %g1 = motif.materialize %r#1 in global : tensor<31xf32>
    motif.yield %g0, %g1 : tensor<31xf32>, tensor<31xf32>
  }
  return %v5#0, %v5#1 : tensor<31xf32>, tensor<31xf32>
}
