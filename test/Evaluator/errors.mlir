// What the evaluator refuses, located on the op.
// RUN: motif-equiv --run %s --verify-diagnostics --seed=1

// An op the evaluator cannot run is refused by the verifier already (one
// table of body ops: test/Dialect/Motif/invalid-body.mlir).

// expected-error @+1 {{argument #0 has type 'tensor<8xf64>'; the evaluator supports f32, f16 and bf16 tensors only}}
func.func @f64(%unused: tensor<8xf64>, %x: tensor<8xf32>) -> tensor<8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<8xf32> {
    %v = motif.map (%x[i]) -> [i] over [thread] : (tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %v in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}


func.func @function_level(%x: tensor<8xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{'arith.constant' op is not supported at function level by the motif evaluator (only motif.kernel and func.return)}}
  %c = arith.constant 2.0 : f32
  %y = motif.kernel "k" threads(32) -> tensor<8xf32> {
    %v = motif.map (%x[i]) -> [i] over [thread] : (tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%a: f32):
      %r = arith.mulf %a, %a : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %v in global : tensor<8xf32>
    motif.yield %g : tensor<8xf32>
  }
  return %y : tensor<8xf32>
}
