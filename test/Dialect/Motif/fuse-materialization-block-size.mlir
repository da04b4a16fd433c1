// A merged kernel runs with the largest block of its members: every member's
// mapping must still be valid there (blockSizeError, the verifier's own
// rule). Before, a merge into threads(48) of a kernel mapping warps and lanes
// together made fuse-materialization fail with the verifier's error (found
// by motif-fuzz run in CI, program seed 12199559819538907196).
// RUN: motif-opt %s --split-input-file --fuse-materialization --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: motif-opt %s --split-input-file --fuse-materialization -o - 2>/dev/null | FileCheck %s

// REMARK: remark: 'k3'#0 (tensor<1x1xf32>): stays global (rule 5: refused: merged into a block of 48 threads, kernel 'k3' maps dims to both a warp level and 'lane' with threads(48): the last warp has only 16 of its 32 lanes; use a multiple of 32)
// CHECK-LABEL: func.func @warp_and_lane
// CHECK: motif.kernel "k3" threads(32)
// CHECK: motif.kernel "k4" threads(48)
func.func @warp_and_lane(%arg2: tensor<1xf32>) -> tensor<1xf32> {
  %v3 = motif.kernel "k3" threads(32) -> tensor<1x1xf32> {
    %r = motif.broadcast %arg2[d0] -> [d0, d1] over [block.warp, lane] : (tensor<1xf32>) -> tensor<1x1xf32>
    %g0 = motif.materialize %r in global : tensor<1x1xf32>
    motif.yield %g0 : tensor<1x1xf32>
  }
  %v4 = motif.kernel "k4" threads(48) -> tensor<1xf32> {
    %r = motif.reduce <add> (%v3[d0, d1]) -> [d0] over [block.warp, seq] : (tensor<1x1xf32>) -> tensor<1xf32>
    %g0 = motif.materialize %r in global : tensor<1xf32>
    motif.yield %g0 : tensor<1xf32>
  }
  return %v4 : tensor<1xf32>
}

// -----

// A lane butterfly at threads(32) cannot combine in a block of 48.
// REMARK: remark: 'sum'#0 (tensor<4xf32>): stays global (rule 5: refused: merged into a block of 48 threads, kernel 'sum' reduces across lanes with threads(48): the shuffle butterfly needs a power of two up to 32 or a multiple of 32)
// CHECK-LABEL: func.func @lane_tree
// CHECK: motif.kernel "sum" threads(32)
// CHECK: motif.kernel "scale" threads(48)
func.func @lane_tree(%x: tensor<4x32xf32>) -> tensor<4xf32> {
  %s = motif.kernel "sum" threads(32) -> tensor<4xf32> {
    %r = motif.reduce <add> (%x[i, j]) -> [i] over [block, lane] : (tensor<4x32xf32>) -> tensor<4xf32>
    %g = motif.materialize %r in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  %y = motif.kernel "scale" threads(48) -> tensor<4xf32> {
    %m = motif.map (%s[i]) -> [i] over [block] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %c = arith.constant 2.0 : f32
      %r = arith.mulf %a, %c : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}
