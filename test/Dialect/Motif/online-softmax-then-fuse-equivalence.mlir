// Found by motif-fuzz (its mathematical stage with --motif-online-softmax
// first; test/Tools/fuzz-online-softmax-then-fuse.mlir is the minimized
// program): --motif-online-softmax records motif.equivalence = mathematical,
// and a later --fuse-materialization whose own rule 4 rewrites nothing sets
// motif.equivalence to the class of its own changes (bitwise here), dropping
// the weaker one. The fused program then declares itself bit-identical to
// its input, and motif-equiv, which checks the declared class, fails (684
// elements differ over its 3 trials, by up to 2 ulp). Fixed: the weakest
// class applied so far is kept (mathematical).
// RUN: motif-opt %s --motif-online-softmax --fuse-materialization -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// RUN: motif-equiv %s %t.mlir --class=mathematical
// CHECK: motif.equivalence = #motif<equivalence mathematical>

func.func @softmax(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {
  %max = motif.kernel "max" threads(32) -> tensor<8xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32>
    %g = motif.materialize %m in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %exp = motif.kernel "exp" threads(32) -> tensor<8x64xf32> {
    %e = motif.map (%x[i, j], %max[i]) -> [i, j] over [block, thread] : (tensor<8x64xf32>, tensor<8xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %e in global : tensor<8x64xf32>
    motif.yield %g : tensor<8x64xf32>
  }
  %sum = motif.kernel "sum" threads(32) -> tensor<8xf32> {
    %s = motif.reduce <add> (%exp[i, j]) -> [i] over [block, thread] : (tensor<8x64xf32>) -> tensor<8xf32>
    %g = motif.materialize %s in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  %y = motif.kernel "div" threads(32) -> tensor<8x64xf32> {
    %p = motif.map (%exp[i, j], %sum[i]) -> [i, j] over [block, thread] : (tensor<8x64xf32>, tensor<8xf32>) -> tensor<8x64xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %p in global : tensor<8x64xf32>
    motif.yield %g : tensor<8x64xf32>
  }
  return %y : tensor<8x64xf32>
}
