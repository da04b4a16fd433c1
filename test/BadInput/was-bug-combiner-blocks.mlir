// WAS A BUG, fixed (lib/Dialect/Motif/IR/MotifOps.cpp, verifyScalarBody): a combiner
// region (AnyRegion) may hold more blocks than its entry; only the entry
// block is checked. A second block with ops every body refuses
// (`arith.divsi`, `tensor.empty`) is accepted by motif-opt, motif-compile
// and motif-equiv (exit 0; the lowering and the evaluator ignore it).
// Expected: a combiner is one block (like a map body, SizedRegion<1>): a
// located error, exit 1.
// RUN: motif-opt %s -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s

func.func @combiner_with_a_second_block(%x: tensor<8x32xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8xf32> {
    // expected-error @+1 {{combiner}}
    %s = motif.reduce (%x[i, j]) -> [i] init [0.0 : f32] over [block, thread] : (tensor<8x32xf32>) -> tensor<8xf32> combiner {
    ^bb0(%acc: f32, %v: f32):
      %r = arith.addf %acc, %v : f32
      motif.yield %r : f32
    ^bb1(%q: i32):
      %z = arith.divsi %q, %q : i32
      %e = tensor.empty() : tensor<4xf32>
      motif.yield %z : i32
    }
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}
