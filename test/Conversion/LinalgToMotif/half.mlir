// RUN: motif-opt %s --convert-linalg-to-motif -split-input-file -verify-diagnostics | FileCheck %s
// The same product at 96x128x200 on the CPU: the fused program (mma.sync at
// this grid) and the imported one both within 2^-8 (the output's bf16
// rounding) of the float64 meaning.
// RUN: sed -n '/^func.func @matmul_bf16(/,/^}/p' %s | sed -e 's/2048x1024/96x128/g; s/1024x4096/128x200/g; s/2048x4096/96x200/g' > %t.small.mlir
// RUN: motif-opt %t.small.mlir --convert-linalg-to-motif -o %t.u.mlir
// RUN: motif-opt %t.u.mlir --fuse-materialization="equivalence-cap=tolerance chip=sm_90a" -o %t.f.mlir 2>/dev/null
// RUN: motif-equiv --class=tolerance --rtol=0.0039 %t.u.mlir %t.f.mlir | FileCheck %s --check-prefix=EQUIV
// EQUIV: @matmul_bf16: PASS (tolerance: rel err <= 3.90e-03 against the f64 reference)
// RUN: sed -n '/^func.func @matmul_bf16(/,/^}/p' %s | motif-opt --convert-linalg-to-motif --fuse-materialization="equivalence-cap=tolerance chip=sm_90a" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=FUSED

// f16 and bf16 tensors import (docs/import.md, "Half precision"): a
// linalg.matmul of bf16 operands into f32 outs (its body extends both to f32)
// is a motif.contract of the bf16 tensors into f32 -- motif's half-precision
// contraction, which accumulates in f32 as the linalg does -- and the
// truncation a map. With the tolerance cap on sm_90a the default schedule
// takes it to wgmma, B [k, j] read transposed.
func.func @matmul_bf16(%a: tensor<2048x1024xbf16>, %b: tensor<1024x4096xbf16>) -> tensor<2048x4096xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x4096xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %c = linalg.matmul ins(%a, %b : tensor<2048x1024xbf16>, tensor<1024x4096xbf16>) outs(%z : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %e2 = tensor.empty() : tensor<2048x4096xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : tensor<2048x4096xf32>) outs(%e2 : tensor<2048x4096xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %y = arith.truncf %x : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<2048x4096xbf16>
  return %t : tensor<2048x4096xbf16>
}
// CHECK-LABEL: func.func @matmul_bf16
// CHECK: motif.contract (%{{.*}}[i, k], %{{.*}}[k, j]) -> [i, j] over [block, thread, seq] : (tensor<2048x1024xbf16>, tensor<1024x4096xbf16>) -> tensor<2048x4096xf32>
// CHECK: motif.map (%{{.*}}[i, j]) -> [i, j] {{.*}} : (tensor<2048x4096xf32>) -> tensor<2048x4096xbf16>
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// FUSED: remark: default schedule: the contraction of kernel 'matmul_0' (2048x4096x1024) runs on tensor cores: {{.*}} mma m64n256k16 stages(4), threads(256); a 128x256 tile a block, 256 blocks
// FUSED: remark: the contraction of kernel 'matmul_0' runs on tensor cores: wgmma.mma_async m64n256k16, bf16 x bf16 -> f32 {{.*}} (A [i, k], B [k, j] transposed, in 64-column atoms)
// FUSED: remark: 'matmul_0'#0 (tensor<2048x4096xf32>): global -> register

// -----

// A^T B (linalg.matmul with A's map transposed: A stored K x M, a weight
// gradient X^T dY) imports as a contraction of A [k, i]; the default schedule
// takes it to mma.sync with A read by ldmatrix .trans (wgmma reads A K-major).
func.func @matmul_at_bf16(%a: tensor<512x256xbf16>, %b: tensor<512x384xbf16>) -> tensor<256x384xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x384xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<256x384xf32>) -> tensor<256x384xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
    ins(%a, %b : tensor<512x256xbf16>, tensor<512x384xbf16>) outs(%z : tensor<256x384xf32>) -> tensor<256x384xf32>
  return %c : tensor<256x384xf32>
}
// CHECK-LABEL: func.func @matmul_at_bf16
// CHECK: motif.contract (%{{.*}}[k, i], %{{.*}}[k, j]) -> [i, j] over [block, thread, seq] : (tensor<512x256xbf16>, tensor<512x384xbf16>) -> tensor<256x384xf32>
// RUN: sed -n '/^func.func @matmul_at_bf16(/,/^}/p' %s | motif-opt --convert-linalg-to-motif --fuse-materialization="equivalence-cap=tolerance chip=sm_90a" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=AT
// AT: remark: the contraction of kernel 'matmul_0' runs on tensor cores: mma.sync m16n8k16, bf16 x bf16 -> f32 {{.*}} (A [k, i], .trans; B [k, j], .trans)

// -----

// f16 elementwise: the body keeps its f16 arithmetic.
func.func @add_f16(%a: tensor<64x128xf16>, %b: tensor<64x128xf16>) -> tensor<64x128xf16> {
  %e = tensor.empty() : tensor<64x128xf16>
  %c = linalg.add ins(%a, %b : tensor<64x128xf16>, tensor<64x128xf16>) outs(%e : tensor<64x128xf16>) -> tensor<64x128xf16>
  return %c : tensor<64x128xf16>
}
// CHECK-LABEL: func.func @add_f16
// CHECK: motif.map (%{{.*}}[i, j], %{{.*}}[i, j]) -> [i, j] {{.*}} : (tensor<64x128xf16>, tensor<64x128xf16>) -> tensor<64x128xf16>
// CHECK: ^bb0(%{{.*}}: f16, %{{.*}}: f16):
// CHECK: arith.addf %{{.*}}, %{{.*}} : f16

// -----

// A row sum of bf16 accumulated in f32 (the element extended in the body): the
// extension is a map, the sum an f32 motif.reduce.
func.func @rowsum_bf16(%x: tensor<32x1000xbf16>) -> tensor<32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32xf32>) -> tensor<32xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<32x1000xbf16>) outs(%z : tensor<32xf32>) {
  ^bb0(%v: bf16, %acc: f32):
    %w = arith.extf %v : bf16 to f32
    %r = arith.addf %acc, %w : f32
    linalg.yield %r : f32
  } -> tensor<32xf32>
  return %s : tensor<32xf32>
}
// CHECK-LABEL: func.func @rowsum_bf16
// CHECK: motif.map (%{{.*}}[i, j]) -> [i, j] {{.*}} : (tensor<32x1000xbf16>) -> tensor<32x1000xf32>
// CHECK: arith.extf %{{.*}} : bf16 to f32
// CHECK: motif.reduce <add>
// CHECK-SAME: (tensor<32x1000xf32>) -> tensor<32xf32>

// -----

// A matmul that accumulates in bf16 (every step rounded) means another sum:
// refused, located.
func.func @matmul_bf16_acc(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<64x64xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<64x64xbf16>) -> tensor<64x64xbf16>
  // expected-error @+1 {{cannot be imported into motif: result #0 accumulates in 'bf16'; motif reductions and contractions accumulate in f32 (a sum or product in 'bf16' rounds at every step: another result): extend the elements to f32 in the body (arith.extf) and accumulate into an f32 tensor (linalg.matmul with f32 outs does), then truncate}}
  %c = linalg.matmul ins(%a, %b : tensor<64x64xbf16>, tensor<64x64xbf16>) outs(%z : tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %c : tensor<64x64xbf16>
}

// -----

// So does a sum of f16 accumulated in f16.
func.func @rowsum_f16_acc(%x: tensor<32x1000xf16>) -> tensor<32xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<32xf16>
  %z = linalg.fill ins(%zero : f16) outs(%e : tensor<32xf16>) -> tensor<32xf16>
  // expected-error @+1 {{cannot be imported into motif: result #0 accumulates in 'f16'}}
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<32x1000xf16>) outs(%z : tensor<32xf16>) {
  ^bb0(%v: f16, %acc: f16):
    %r = arith.addf %acc, %v : f16
    linalg.yield %r : f16
  } -> tensor<32xf16>
  return %s : tensor<32xf16>
}

// -----

// A max is exact in any type: a row max of bf16 into bf16 reduces in f32 (the
// input read as bf16, no extension map) and rounds back, exactly, in a map on
// the rows' grid.
func.func @rowmax_bf16(%x: tensor<32x1000xbf16>) -> tensor<32xbf16> {
  %ninf = arith.constant 0xFF80 : bf16
  %e = tensor.empty() : tensor<32xbf16>
  %z = linalg.fill ins(%ninf : bf16) outs(%e : tensor<32xbf16>) -> tensor<32xbf16>
  %m = linalg.reduce ins(%x : tensor<32x1000xbf16>) outs(%z : tensor<32xbf16>) dimensions = [1]
    (%v: bf16, %acc: bf16) {
      %r = arith.maximumf %v, %acc : bf16
      linalg.yield %r : bf16
    }
  return %m : tensor<32xbf16>
}
// CHECK-LABEL: func.func @rowmax_bf16
// CHECK-NOT: arith.extf
// CHECK: motif.reduce <max> (%arg0[i, j]) -> [i] over [block, thread] : (tensor<32x1000xbf16>) -> tensor<32xf32>
// CHECK: motif.map (%{{.*}}[i]) -> [i] over [block] : (tensor<32xf32>) -> tensor<32xbf16>
// CHECK: arith.truncf %{{.*}} : f32 to bf16
// CHECK: return

// -----

// So is a min, of an element computed in f16 (the element a map of f16, the
// min over the leading dim an f32 reduction, the result rounded back to f16).
func.func @colmin_f16(%x: tensor<300x64xf16>) -> tensor<64xf16> {
  %pinf = arith.constant 0x7C00 : f16
  %e = tensor.empty() : tensor<64xf16>
  %z = linalg.fill ins(%pinf : f16) outs(%e : tensor<64xf16>) -> tensor<64xf16>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : tensor<300x64xf16>) outs(%z : tensor<64xf16>) {
  ^bb0(%v: f16, %acc: f16):
    %a = math.absf %v : f16
    %r = arith.minimumf %acc, %a : f16
    linalg.yield %r : f16
  } -> tensor<64xf16>
  return %m : tensor<64xf16>
}
// CHECK-LABEL: func.func @colmin_f16
// CHECK: motif.map (%{{.*}}[i, j]) -> [i, j] {{.*}} : (tensor<300x64xf16>) -> tensor<300x64xf16>
// CHECK: math.absf %{{.*}} : f16
// CHECK: motif.reduce <min> (%{{.*}}[i, j]) -> [j] {{.*}} : (tensor<300x64xf16>) -> tensor<64xf32>
// CHECK: motif.map (%{{.*}}[i]) -> [i] {{.*}} : (tensor<64xf32>) -> tensor<64xf16>
// CHECK: arith.truncf %{{.*}} : f32 to f16

// -----

// A max into bf16 must still start from -inf.
func.func @rowmax_bf16_init(%x: tensor<32x1000xbf16>) -> tensor<32xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<32xbf16>
  %z = linalg.fill ins(%zero : bf16) outs(%e : tensor<32xbf16>) -> tensor<32xbf16>
  // expected-error @+1 {{cannot be imported into motif: result #0 starts from 0.000000e+00, not the identity of <max> (-inf); motif reductions start from their combiner's identity}}
  %m = linalg.reduce ins(%x : tensor<32x1000xbf16>) outs(%z : tensor<32xbf16>) dimensions = [1]
    (%v: bf16, %acc: bf16) {
      %r = arith.maximumf %v, %acc : bf16
      linalg.yield %r : bf16
    }
  return %m : tensor<32xbf16>
}

// -----

// linalg.softmax of bf16 means its decomposition in bf16, whose sum rounds at
// every step: refused, with the f32 form as the remedy.
func.func @softmax_bf16(%x: tensor<64x512xbf16>) -> tensor<64x512xbf16> {
  %e = tensor.empty() : tensor<64x512xbf16>
  // expected-error @+1 {{cannot be imported into motif: a softmax of 'tensor<64x512xbf16>' sums its exponentials in 'bf16' (linalg's decomposition rounds at every step: another result than motif's f32 sum); extend the input to f32 (arith.extf), take the softmax in f32 and truncate the result}}
  %s = linalg.softmax dimension(1) ins(%x : tensor<64x512xbf16>) outs(%e : tensor<64x512xbf16>) -> tensor<64x512xbf16>
  return %s : tensor<64x512xbf16>
}

// -----

// f64 stays refused.
// expected-error @+1 {{cannot be imported into motif: it takes a 'tensor<8x8xf64>'; motif imports f32, f16 and bf16 tensors}}
func.func @f64(%a: tensor<8x8xf64>) -> tensor<8x8xf64> {
  %e = tensor.empty() : tensor<8x8xf64>
  %c = linalg.add ins(%a, %a : tensor<8x8xf64>, tensor<8x8xf64>) outs(%e : tensor<8x8xf64>) -> tensor<8x8xf64>
  return %c : tensor<8x8xf64>
}
