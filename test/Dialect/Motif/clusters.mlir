// RUN: motif-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// `cluster(k)` on a kernel (docs/dialect.md, "Clusters"): round trip, and one
// case per message of the verifier.

// CHECK-LABEL: func.func @softmax_rows
// CHECK: motif.kernel "k" threads(1024) cluster(4) -> tensor<8x4096xf32> {
// CHECK: motif.kernel "one" threads(64) cluster(1) -> tensor<8x4096xf32> {
func.func @softmax_rows(%x: tensor<8x4096xf32>) -> (tensor<8x4096xf32>, tensor<8x4096xf32>) {
  %y = motif.kernel "k" threads(1024) cluster(4) -> tensor<8x4096xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<8x4096xf32>) -> tensor<8xf32>
    %mr = motif.materialize %m in register : tensor<8xf32>
    %e = motif.map (%x[i, j], %mr[i]) -> [i, j] over [block, thread]
           : (tensor<8x4096xf32>, tensor<8xf32>) -> tensor<8x4096xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %e in global : tensor<8x4096xf32>
    motif.yield %g : tensor<8x4096xf32>
  }
  %z = motif.kernel "one" threads(64) cluster(1) -> tensor<8x4096xf32> {
    %e = motif.map (%x[i, j]) -> [i, j] over [block, thread]
           : (tensor<8x4096xf32>) -> tensor<8x4096xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %e in global : tensor<8x4096xf32>
    motif.yield %g : tensor<8x4096xf32>
  }
  return %y, %z : tensor<8x4096xf32>, tensor<8x4096xf32>
}

// -----

func.func @too_many_ctas(%x: tensor<8x4096xf32>) {
  // expected-error @+1 {{cluster must be in [1, 8] CTAs (the portable cluster size), got 16}}
  motif.kernel "k" threads(1024) cluster(16) {
  }
  return
}

// -----

func.func @no_ctas(%x: tensor<8x4096xf32>) {
  // expected-error @+1 {{cluster must be in [1, 8] CTAs (the portable cluster size), got 0}}
  motif.kernel "k" threads(1024) cluster(0) {
  }
  return
}

// -----

func.func @uneven(%x: tensor<8x4096xf32>) {
  // expected-error @+1 {{splits threads(1024) into cluster(3): the threads must divide into the CTAs}}
  motif.kernel "k" threads(1024) cluster(3) {
  }
  return
}

// -----

func.func @part_warps(%x: tensor<8x4096xf32>) {
  // expected-error @+1 {{splits threads(128) into cluster(8) CTAs of 16 threads: each CTA must hold whole warps (a multiple of 32)}}
  motif.kernel "k" threads(128) cluster(8) {
  }
  return
}

// -----

func.func @shared_value(%x: tensor<8x4096xf32>) -> tensor<8x4096xf32> {
  %y = motif.kernel "k" threads(1024) cluster(4) -> tensor<8x4096xf32> {
    %m = motif.reduce <max> (%x[i, j]) -> [i] over [block, thread]
           : (tensor<8x4096xf32>) -> tensor<8xf32>
    // expected-error @+1 {{cannot run in kernel 'k' of cluster(4): a shared value is read by other threads of the block, which may be in another CTA of the cluster}}
    %ms = motif.materialize %m in shared : tensor<8xf32>
    %e = motif.map (%x[i, j], %ms[i]) -> [i, j] over [block, thread]
           : (tensor<8x4096xf32>, tensor<8xf32>) -> tensor<8x4096xf32> {
    ^bb0(%a: f32, %b: f32):
      %d = arith.subf %a, %b : f32
      motif.yield %d : f32
    }
    %g = motif.materialize %e in global : tensor<8x4096xf32>
    motif.yield %g : tensor<8x4096xf32>
  }
  return %y : tensor<8x4096xf32>
}

// -----

func.func @cluster_twice(%x: tensor<8x4096xf32>) {
  // expected-error @+1 {{attribute 'cluster' occurs more than once: the syntax of the op gives it}}
  motif.kernel "k" threads(1024) cluster(4) attributes {cluster = 2 : i64} {
  }
  return
}

// -----

func.func @flash(%q: tensor<2x256x64xf32>, %k: tensor<2x256x64xf32>, %v: tensor<2x256x64xf32>) -> tensor<2x256x64xf32> {
  %y = motif.kernel "flash" threads(128) cluster(2) -> tensor<2x256x64xf32> {
    // expected-error @+1 {{cannot run in kernel 'flash' of cluster(2): the online contraction stages its tiles in the CTA's shared memory}}
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125)
           over [block, block x seq(64), seq, seq, seq]
           : (tensor<2x256x64xf32>, tensor<2x256x64xf32>, tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
    %g = motif.materialize %o in global : tensor<2x256x64xf32>
    motif.yield %g : tensor<2x256x64xf32>
  }
  return %y : tensor<2x256x64xf32>
}

// -----

func.func @mma(%a: tensor<16x16xf16>, %b: tensor<16x16xf16>) -> tensor<16x16xf32> {
  %c = motif.kernel "mm" threads(64) cluster(2) -> tensor<16x16xf32> {
    // expected-error @+1 {{cannot run in kernel 'mm' of cluster(2): a tensor-core contraction stages its tiles in the CTA's shared memory}}
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j]
           over [seq(2) x thread(8), warp(2) x thread(4) x seq(2), seq(1) x seq(16)] mma m16n8k16 stages(1)
           : (tensor<16x16xf16>, tensor<16x16xf16>) -> tensor<16x16xf32>
    %g = motif.materialize %p in global : tensor<16x16xf32>
    motif.yield %g : tensor<16x16xf32>
  }
  return %c : tensor<16x16xf32>
}
