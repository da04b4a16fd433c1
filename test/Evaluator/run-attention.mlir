// --run evaluates one program on random inputs in f32 and in f64 and prints
// its outputs and the f32-vs-f64 relative error: a quick run on the CPU.
// Toy attention for one query: o = softmax(0.5 * q.K^T) V.
// RUN: motif-equiv --run %s --function=attention --seed=5 | FileCheck %s

// CHECK-LABEL: @attention: seed 5
// CHECK-NEXT:  #0 tensor<4xf32> sum {{-?[0-9.]+e[-+][0-9]+}} abs-sum {{[0-9.]+e[-+][0-9]+}} first [{{(-?[0-9.]+e[-+][0-9]+, ){3}-?[0-9.]+e[-+][0-9]+}}] rel-err f32 vs f64 {{([0-9.]+e-0[6-9]|[0-9.]+e-[1-9][0-9]|0.00e\+00)}}
// CHECK-NOT:   #1

func.func @attention(%q: tensor<4xf32>, %k: tensor<4x4xf32>, %v: tensor<4x4xf32>) -> tensor<4xf32> {
  %o = motif.kernel "attention" threads(32) -> tensor<4xf32> {
    %s = motif.contract (%q[d], %k[j, d]) -> [j] over [thread, seq] : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %sr = motif.materialize %s in register : tensor<4xf32>
    %t = motif.map (%sr[j]) -> [j] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %c = arith.constant 0.5 : f32
      %r = arith.mulf %a, %c : f32
      motif.yield %r : f32
    }
    %tr = motif.materialize %t in register : tensor<4xf32>
    %m = motif.reduce <max> (%tr[j]) -> [] over [thread] : (tensor<4xf32>) -> tensor<f32>
    %ms = motif.materialize %m in shared : tensor<f32>
    %p = motif.map (%tr[j], %ms[]) -> [j] over [thread] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      %r = math.exp %d : f32
      motif.yield %r : f32
    }
    // Shared: P.V reads all of P in every thread (j at seq), not its own slot.
    %pr = motif.materialize %p in shared : tensor<4xf32>
    %l = motif.reduce <add> (%pr[j]) -> [] over [thread] : (tensor<4xf32>) -> tensor<f32>
    %ls = motif.materialize %l in shared : tensor<f32>
    %u = motif.contract (%pr[j], %v[j, d]) -> [d] over [thread, seq] : (tensor<4xf32>, tensor<4x4xf32>) -> tensor<4xf32>
    %ur = motif.materialize %u in register : tensor<4xf32>
    %y = motif.map (%ur[d], %ls[]) -> [d] over [thread] : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      %r = arith.divf %a, %b : f32
      motif.yield %r : f32
    }
    %g = motif.materialize %y in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %o : tensor<4xf32>
}
