// RUN: motif-opt %s --fuse-materialization -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARKS
// RUN: motif-equiv %s %t.mlir --trials=2 --seed=3 | FileCheck %s
// Found by motif-fuzz (program seed 7175571253333504420, minimized): 'k5' is
// returned (stays global) and read by 'k6'; 'k6' joined the group through
// its own moved edge to 'k8' (as a producer), which the "closed" check did
// not look at -- it only took readers out of a group through edges they
// consume. The merged kernel then read 'k5''s global result inside itself:
// "operand #0 does not dominate this use". Now every moved edge that joins
// the reader to the group is given back.
// REMARKS: 'k6'#0 (tensor<f32>): stays global (kept: kernel 'k6' also reads 'k5'#0 (tensor<1xf32>), which stays in global memory (rule 1: externally observable (returned by the function)), so it cannot be merged with 'k5', which writes it)
// REMARKS-NOT: error
// CHECK: @f: PASS
func.func @f(%arg0: tensor<1xf32>, %arg1: tensor<1xf32>, %arg2: tensor<1xf32>, %arg3: tensor<f32>) -> (tensor<f32>, tensor<1xf32>) {
  %v4 = motif.kernel "k4" threads(32) -> tensor<1xf32> {
    %r = motif.broadcast %arg3[] -> [d1] over [seq] : (tensor<f32>) -> tensor<1xf32>
    %g0 = motif.materialize %r in global : tensor<1xf32>
    motif.yield %g0 : tensor<1xf32>
  }
  %v5 = motif.kernel "k5" threads(32) -> tensor<1xf32> {
    %r = motif.map (%v4[d1], %v4[d1], %arg3[]) -> [d1] over [seq] : (tensor<1xf32>, tensor<1xf32>, tensor<f32>) -> tensor<1xf32> {
    ^bb0(%a0: f32, %a1: f32, %a2: f32):
      motif.yield %a1 : f32
    }
    %g0 = motif.materialize %r in global : tensor<1xf32>
    motif.yield %g0 : tensor<1xf32>
  }
  %v6 = motif.kernel "k6" threads(32) -> tensor<f32> {
    %r = motif.reduce <add> (%v5[d1]) -> [] over [seq] : (tensor<1xf32>) -> tensor<f32>
    %g0 = motif.materialize %r in global : tensor<f32>
    motif.yield %g0 : tensor<f32>
  }
  %v7 = motif.kernel "k7" threads(32) -> tensor<f32> {
    %r = motif.reduce <add> (%v4[d1]) -> [] over [seq] : (tensor<1xf32>) -> tensor<f32>
    %g0 = motif.materialize %r in global : tensor<f32>
    motif.yield %g0 : tensor<f32>
  }
  %v8 = motif.kernel "k8" threads(32) -> tensor<f32> {
    %r = motif.map (%v6[], %v7[], %v6[]) -> [] over [] : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<f32> {
    ^bb0(%a0: f32, %a1: f32, %a2: f32):
      motif.yield %a0 : f32
    }
    %g0 = motif.materialize %r in global : tensor<f32>
    motif.yield %g0 : tensor<f32>
  }
  return %v8, %v5 : tensor<f32>, tensor<1xf32>
}
