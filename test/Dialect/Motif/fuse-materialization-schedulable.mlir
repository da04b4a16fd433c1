// RUN: motif-opt %s --fuse-materialization --mlir-print-op-on-diagnostic=false -verify-diagnostics -o - | FileCheck %s
// Found by motif-fuzz (program seed 6895455295431766446, minimized): 'a' can
// pass its max to 'c' in registers, but 'b' reads 'a' and feeds 'c' through
// global memory (its grid differs), so merging 'a' with 'c' would need 'b'
// both after and before the merged kernel. The schedulability check looked
// for kernels among the users of a kernel's results -- the users are the
// motifs inside other kernels -- so it never fired, and the pass failed with
// "internal error: merged kernels cannot be ordered".

// CHECK-LABEL: func.func @negative_not_schedulable
// CHECK-COUNT-3: motif.kernel
// CHECK-NOT: motif.kernel
func.func @negative_not_schedulable(%x: tensor<1xf32>, %w: tensor<1xf32>) -> tensor<1xf32> {
  %a:2 = motif.kernel "a" threads(32) -> tensor<f32>, tensor<f32> {
    %r:2 = motif.reduce (%x[i], %w[i]) -> [] init [0xFF800000 : f32, 0.0 : f32] over [seq] : (tensor<1xf32>, tensor<1xf32>) -> (tensor<f32>, tensor<f32>) combiner {
    ^bb0(%ma: f32, %la: f32, %mb: f32, %lb: f32):
      %mx = arith.maximumf %ma, %mb : f32
      %da = arith.subf %ma, %mx : f32
      %db = arith.subf %mb, %mx : f32
      %ea = math.exp %da : f32
      %eb = math.exp %db : f32
      %sa = arith.mulf %la, %ea : f32
      %s = math.fma %lb, %eb, %sa : f32
      motif.yield %mx, %s : f32, f32
    }
    // expected-remark @+1 {{'a'#0 (tensor<f32>): stays global (kept: merging would need kernel 'b' both after and before the merged kernel)}}
    %g0 = motif.materialize %r#0 in global : tensor<f32>
    // expected-remark @+1 {{'a'#1 (tensor<f32>): stays global (rule 1: consumer 'b' (motif.broadcast) runs in other blocks}}
    %g1 = motif.materialize %r#1 in global : tensor<f32>
    motif.yield %g0, %g1 : tensor<f32>, tensor<f32>
  }
  %b = motif.kernel "b" threads(32) -> tensor<1xf32> {
    %r = motif.broadcast %a#1[] -> [i] over [block.warp] : (tensor<f32>) -> tensor<1xf32>
    // expected-remark @+1 {{'b'#0 (tensor<1xf32>): stays global (rule 1: consumer 'c' (motif.map) runs in other blocks}}
    %g = motif.materialize %r in global : tensor<1xf32>
    motif.yield %g : tensor<1xf32>
  }
  %c = motif.kernel "c" threads(32) -> tensor<1xf32> {
    %r = motif.map (%a#0[], %b[i]) -> [i] over [seq] : (tensor<f32>, tensor<1xf32>) -> tensor<1xf32> {
    ^bb0(%u: f32, %v: f32):
      %s = arith.addf %u, %v : f32
      motif.yield %s : f32
    }
    // expected-remark @+1 {{'c'#0 (tensor<1xf32>): stays global (rule 1: externally observable (returned by the function))}}
    %g = motif.materialize %r in global : tensor<1xf32>
    motif.yield %g : tensor<1xf32>
  }
  return %c : tensor<1xf32>
}
