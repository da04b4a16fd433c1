// RUN: motif-opt %s -split-input-file -verify-diagnostics
// One case per reason a contraction cannot run on tensor cores
// (docs/dialect.md, "Tensor cores"; mmaTilingOf).

func.func @f32_operands(%a: tensor<16x16xf32>, %b: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m16n8k16), but its operands hold f32: mma.sync m16n8k16 multiplies f16 or bf16 (into f32)}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [seq(2) x thread(8), thread(4) x seq(2), seq(1) x seq(16)] mma m16n8k16
           : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

func.func @not_a_matrix_product(%a: tensor<16x8xbf16>, %b: tensor<16x16xbf16>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m16n8k16), but it is not a matrix product C[i, j] = sum_k A[i, k] B[k, j] (A may be indexed [k, i], B [j, k]): mma.sync takes rank-2 operands, the rows of C from the first and one contracted dim}}
    %p = motif.contract (%a[k, j], %b[k, i]) -> [i, j]
           over [seq(2) x thread(8), thread(4) x seq(2), seq(1) x seq(16)] mma m16n8k16
           : (tensor<16x8xbf16>, tensor<16x16xbf16>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

func.func @rows_not_the_fragment(%a: tensor<16x16xbf16>, %b: tensor<16x8xbf16>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m16n8k16), but dim 'i' is mapped `thread(8) x seq(2)`; the rows of m16n8 accumulators are `[block x] [thread(w) x | warp(w) x] seq(2m) x thread(8)`: the warps, the 16-row tiles of a warp (two 8-row halves each), the 8 row groups of a warp's lanes}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [thread(8) x seq(2), thread(4) x seq(2), seq(1) x seq(16)] mma m16n8k16
           : (tensor<16x16xbf16>, tensor<16x8xbf16>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

func.func @cols_not_the_fragment(%a: tensor<16x16xbf16>, %b: tensor<16x8xbf16>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m16n8k16), but dim 'j' is mapped `seq(2) x thread(4)`; the columns of m16n8 accumulators are `[block x] [warp(w) x] [seq(n) x] thread(4) x seq(2)`: the warps along j, the 8-column tiles of a warp, the 4 column pairs of a warp's lanes}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [seq(2) x thread(8), seq(2) x thread(4), seq(1) x seq(16)] mma m16n8k16
           : (tensor<16x16xbf16>, tensor<16x8xbf16>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

func.func @k_step_not_16(%a: tensor<16x16xbf16>, %b: tensor<16x8xbf16>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m16n8k16), but dim 'k' is mapped `seq(2) x seq(8)`; tensor cores walk k in staged steps `seq x seq(bk)`, bk a multiple of the instruction's 16}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [seq(2) x thread(8), thread(4) x seq(2), seq(2) x seq(8)] mma m16n8k16
           : (tensor<16x16xbf16>, tensor<16x8xbf16>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

func.func @too_many_accumulators(%a: tensor<32x16xbf16>, %b: tensor<16x256xbf16>) -> tensor<32x256xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<32x256xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m16n8k16), but each thread would hold 256 accumulators (2 x 32 m16n8 tiles per warp); at most 128 stay in registers}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [seq(4) x thread(8), seq(32) x thread(4) x seq(2), seq(1) x seq(16)] mma m16n8k16
           : (tensor<32x16xbf16>, tensor<16x256xbf16>) -> tensor<32x256xf32>
    %g = motif.materialize %p in global : tensor<32x256xf32>
    motif.yield %g : tensor<32x256xf32>
  }
  return %c : tensor<32x256xf32>
}

// -----

func.func @no_stages(%a: tensor<16x16xbf16>, %b: tensor<16x8xbf16>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m16n8k16), but it asks for stages(0): a cp.async pipeline has 1 to 8 buffers per operand tile}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [seq(2) x thread(8), thread(4) x seq(2), seq(1) x seq(16)] mma m16n8k16 stages(0)
           : (tensor<16x16xbf16>, tensor<16x8xbf16>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

// Stages without an instruction (only the generic form can say it).
func.func @stages_without_mma(%a: tensor<16x16xbf16>, %b: tensor<16x8xbf16>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    // expected-error @+1 {{states pipeline stages but no tensor-core instruction: 'stages(n)' follows 'mma m16n8k16'}}
    %p = "motif.contract"(%a, %b) <{lhs_dims = array<i64: 0, 2>, rhs_dims = array<i64: 2, 1>, mapping = [#motif<level block>, #motif<level thread>, #motif<level seq>], mma_stages = 2 : i64}>
           : (tensor<16x16xbf16>, tensor<16x8xbf16>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

// tf32 (`mma m16n8k8`) multiplies f32 operands only.
func.func @tf32_f16_operands(%a: tensor<16x8xf16>, %b: tensor<8x8xf16>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m16n8k8), but its operands hold f16: mma.sync m16n8k8 multiplies f32 operands rounded to tf32 (into f32); f16 and bf16 take `mma m16n8k16`}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [seq(2) x thread(8), thread(4) x seq(2), seq(1) x seq(8)] mma m16n8k8
           : (tensor<16x8xf16>, tensor<8x8xf16>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

func.func @tf32_bf16_operands(%a: tensor<16x8xbf16>, %b: tensor<8x8xbf16>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m16n8k8), but its operands hold bf16: mma.sync m16n8k8 multiplies f32 operands rounded to tf32 (into f32); f16 and bf16 take `mma m16n8k16`}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [seq(2) x thread(8), thread(4) x seq(2), seq(1) x seq(8)] mma m16n8k8
           : (tensor<16x8xbf16>, tensor<8x8xbf16>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

// The tf32 k nest walks steps of a multiple of 8.
func.func @tf32_k_step_not_8(%a: tensor<16x8xf32>, %b: tensor<8x8xf32>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m16n8k8), but dim 'k' is mapped `seq(2) x seq(4)`; tensor cores walk k in staged steps `seq x seq(bk)`, bk a multiple of the instruction's 8}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [seq(2) x thread(8), thread(4) x seq(2), seq(2) x seq(4)] mma m16n8k8
           : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

func.func @tf32_k_not_a_nest(%a: tensor<16x8xf32>, %b: tensor<8x8xf32>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m16n8k8), but dim 'k' is mapped `seq`; tensor cores walk k in staged steps `seq x seq(bk)`, bk a multiple of the instruction's 8}}
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           over [seq(2) x thread(8), thread(4) x seq(2), seq] mma m16n8k8
           : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

func.func @unknown_shape(%a: tensor<16x8xf32>, %b: tensor<8x8xf32>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    %p = motif.contract (%a[i, k], %b[k, j]) -> [i, j]
           // expected-error @+1 {{unknown tensor-core shape 'm16n8k4' (expected m16n8k16, m16n8k8, m64n64k16, m64n128k16 or m64n256k16)}}
           over [seq(2) x thread(8), thread(4) x seq(2), seq(1) x seq(8)] mma m16n8k4
           : (tensor<16x8xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

func.func @wgmma_two_m_tiles(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %c = motif.kernel "mm" threads(64) -> tensor<64x64xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m64n64k16), but dim 'i' is mapped `thread(2) x seq(4) x thread(8)`; the rows of wgmma accumulators are `[block x] thread(w) x seq(2) x thread(8)`, w a multiple of 4: each warpgroup holds one m64 tile, each warp 16 rows of it}}
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j]
           over [thread(2) x seq(4) x thread(8), seq(8) x thread(4) x seq(2), seq(1) x seq(64)] mma m64n64k16
           : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xf32>
    %g = motif.materialize %p in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %c : tensor<64x64xf32>
}

// -----

func.func @wgmma_n_mismatch(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %c = motif.kernel "mm" threads(128) -> tensor<64x64xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m64n128k16), but dim 'j' holds 64 columns per warp (`seq(8) x thread(4) x seq(2)`); wgmma m64n128k16 computes 128: `[block x] seq(16) x thread(4) x seq(2)`}}
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j]
           over [thread(4) x seq(2) x thread(8), seq(8) x thread(4) x seq(2), seq(1) x seq(64)] mma m64n128k16
           : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xf32>
    %g = motif.materialize %p in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %c : tensor<64x64xf32>
}

// -----

func.func @wgmma_k_step(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %c = motif.kernel "mm" threads(128) -> tensor<64x64xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m64n64k16), but dim 'k' is walked in steps of 32; wgmma reads k in staged steps of 64 (one 128-byte swizzled row of 16-bit elements): `seq x seq(64)`}}
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j]
           over [thread(4) x seq(2) x thread(8), seq(8) x thread(4) x seq(2), seq(2) x seq(32)] mma m64n64k16
           : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xf32>
    %g = motif.materialize %p in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %c : tensor<64x64xf32>
}

// -----

// wgmma: each warpgroup computes all N columns of its m64 tile; warps on j
// (a 2-D warp grid, fine for mma.sync) are refused.
func.func @wgmma_warps_on_j(%a: tensor<64x64xbf16>, %b: tensor<128x64xbf16>) -> tensor<64x128xf32> {
  %c = motif.kernel "mm" threads(256) -> tensor<64x128xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m64n64k16), but dim 'j' is mapped `warp(2) x seq(8) x thread(4) x seq(2)`: each wgmma warpgroup computes all N columns of its m64 tile; put the warps on 'i' only}}
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j]
           over [warp(4) x seq(2) x thread(8), warp(2) x seq(8) x thread(4) x seq(2), seq(1) x seq(64)] mma m64n64k16
           : (tensor<64x64xbf16>, tensor<128x64xbf16>) -> tensor<64x128xf32>
    %g = motif.materialize %p in global : tensor<64x128xf32>
    motif.yield %g : tensor<64x128xf32>
  }
  return %c : tensor<64x128xf32>
}

// -----

// A indexed [k, i] (A^T as stored) goes to mma.sync m16n8k16 through
// ldmatrix .trans; tf32 and wgmma do not read it.
func.func @transposed_a_tf32(%a: tensor<8x16xf32>, %b: tensor<8x8xf32>) -> tensor<16x8xf32> {
  %c = motif.kernel "mm" threads(32) -> tensor<16x8xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m16n8k8), but its first operand is indexed [k, i] (A^T as stored), which mma m16n8k8 (tf32) does not read: ldmatrix .trans moves 16-bit elements}}
    %p = motif.contract (%a[k, i], %b[k, j]) -> [i, j]
           over [seq(2) x thread(8), thread(4) x seq(2), seq(1) x seq(8)] mma m16n8k8
           : (tensor<8x16xf32>, tensor<8x8xf32>) -> tensor<16x8xf32>
    %g = motif.materialize %p in global : tensor<16x8xf32>
    motif.yield %g : tensor<16x8xf32>
  }
  return %c : tensor<16x8xf32>
}

// -----

func.func @transposed_a_wgmma(%a: tensor<64x64xbf16>, %b: tensor<64x64xbf16>) -> tensor<64x64xf32> {
  %c = motif.kernel "mm" threads(128) -> tensor<64x64xf32> {
    // expected-error @+1 {{runs on tensor cores (mma m64n64k16), but its first operand is indexed [k, i] (A^T as stored), which wgmma does not read here: its A is K-major ([i, k]); `mma m16n8k16` reads A [k, i] with ldmatrix .trans}}
    %p = motif.contract (%a[k, i], %b[j, k]) -> [i, j]
           over [thread(4) x seq(2) x thread(8), seq(8) x thread(4) x seq(2), seq(1) x seq(64)] mma m64n64k16
           : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xf32>
    %g = motif.materialize %p in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %c : tensor<64x64xf32>
}
