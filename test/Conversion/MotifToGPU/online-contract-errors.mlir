// RUN: motif-opt %s --convert-motif-to-gpu -split-input-file -verify-diagnostics
// What the flash lowering of motif.online_contract does not take is a located
// error (rule 4 asks the same limits first and declines; these are written by
// hand).

func.func @value_dim(%q: tensor<64x8xf32>, %k: tensor<64x8xf32>, %v: tensor<64x8xf32>) -> tensor<64x8xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64x8xf32> {
    // expected-error @+1 {{has a contracted extent 8 and a value extent 8: the lowering needs the first a multiple of 4 up to 256 and the second a multiple of 16 up to 128}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.35) over [block x seq(16), seq, seq, seq]
           : (tensor<64x8xf32>, tensor<64x8xf32>, tensor<64x8xf32>) -> tensor<64x8xf32>
    %g = motif.materialize %o in global : tensor<64x8xf32>
    motif.yield %g : tensor<64x8xf32>
  }
  return %y : tensor<64x8xf32>
}

// -----

func.func @rows_per_quad(%q: tensor<64x16xf32>, %k: tensor<64x16xf32>, %v: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<64x16xf32> {
    // expected-error @+1 {{has 16 rows per block in threads(256): the lowering needs a multiple of 32 threads and 1, 2 or 4 rows per quad of 4 threads}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.25) over [block x seq(16), seq, seq, seq]
           : (tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
    %g = motif.materialize %o in global : tensor<64x16xf32>
    motif.yield %g : tensor<64x16xf32>
  }
  return %y : tensor<64x16xf32>
}

// -----

func.func @transposed_keys(%q: tensor<64x16xf32>, %k: tensor<16x64xf32>, %v: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64x16xf32> {
    // expected-error @+1 {{is lowered for row-major operands a[batch..., i, d], k[batch..., j, d], v[batch..., j, e] and a result y[batch..., i, e]; transpose the operands first}}
    %o = motif.online_contract (%q[i, d], %k[d, j], %v[j, e]) -> [i, e] scale(0.25) over [block x seq(16), seq, seq, seq]
           : (tensor<64x16xf32>, tensor<16x64xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
    %g = motif.materialize %o in global : tensor<64x16xf32>
    motif.yield %g : tensor<64x16xf32>
  }
  return %y : tensor<64x16xf32>
}

// -----

// The tensor-core form (f16/bf16 operands): mma.sync m16n8k16 slices of 16.
func.func @mma_extent(%q: tensor<64x24xbf16>, %k: tensor<64x24xbf16>, %v: tensor<64x16xbf16>) -> tensor<64x16xbf16> {
  %y = motif.kernel "k" threads(128) -> tensor<64x16xbf16> {
    // expected-error @+1 {{has a contracted extent 24 and a value extent 16: the tensor-core lowering (mma.sync m16n8k16) needs both multiples of 16, the first up to 256 and the second up to 128}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.2) over [block x seq(64), seq, seq, seq]
           : (tensor<64x24xbf16>, tensor<64x24xbf16>, tensor<64x16xbf16>) -> tensor<64x16xbf16>
    %g = motif.materialize %o in global : tensor<64x16xbf16>
    motif.yield %g : tensor<64x16xbf16>
  }
  return %y : tensor<64x16xbf16>
}

// -----

func.func @mma_rows(%q: tensor<96x64xf16>, %k: tensor<96x64xf16>, %v: tensor<96x64xf16>) -> tensor<96x64xf16> {
  %y = motif.kernel "k" threads(128) -> tensor<96x64xf16> {
    // expected-error @+1 {{has 48 rows per block in threads(128): the tensor-core lowering takes 1, 2, 4 or 8 warps of 1 or 2 m-tiles of 16 rows each (rows = 16 x warps x m-tiles: 128 rows in 128 or 256 threads, 64 in 128 or 64, 32 in 64 or 32, 16 in 32, 256 in 256)}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.125) over [block x seq(48), seq, seq, seq]
           : (tensor<96x64xf16>, tensor<96x64xf16>, tensor<96x64xf16>) -> tensor<96x64xf16>
    %g = motif.materialize %o in global : tensor<96x64xf16>
    motif.yield %g : tensor<96x64xf16>
  }
  return %y : tensor<96x64xf16>
}

// -----

// Three warps: not 1, 2, 4 or 8.
func.func @mma_threads(%q: tensor<64x64xbf16>, %k: tensor<64x64xbf16>, %v: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  %y = motif.kernel "k" threads(96) -> tensor<64x64xbf16> {
    // expected-error @+1 {{has 64 rows per block in threads(96): the tensor-core lowering takes 1, 2, 4 or 8 warps}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.125) over [block x seq(64), seq, seq, seq]
           : (tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    %g = motif.materialize %o in global : tensor<64x64xbf16>
    motif.yield %g : tensor<64x64xbf16>
  }
  return %y : tensor<64x64xbf16>
}

// -----

// Sixteen warps: more than two warpgroups.
func.func @mma_threads_512(%q: tensor<256x64xbf16>, %k: tensor<256x64xbf16>, %v: tensor<256x64xbf16>) -> tensor<256x64xbf16> {
  %y = motif.kernel "k" threads(512) -> tensor<256x64xbf16> {
    // expected-error @+1 {{has 256 rows per block in threads(512): the tensor-core lowering takes 1, 2, 4 or 8 warps}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.125) over [block x seq(256), seq, seq, seq]
           : (tensor<256x64xbf16>, tensor<256x64xbf16>, tensor<256x64xbf16>) -> tensor<256x64xbf16>
    %g = motif.materialize %o in global : tensor<256x64xbf16>
    motif.yield %g : tensor<256x64xbf16>
  }
  return %y : tensor<256x64xbf16>
}

// -----

// Key groups are whole warps.
func.func @split_warps(%q: tensor<64x16xf32>, %k: tensor<64x16xf32>, %v: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %y = motif.kernel "k" threads(96) -> tensor<64x16xf32> {
    // expected-error @+1 {{splits the keys into 2 groups in threads(96): each group is a whole number of warps (threads a multiple of 32 x splits)}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.25) splits(2) over [block x seq(32), seq, seq, seq]
           : (tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
    %g = motif.materialize %o in global : tensor<64x16xf32>
    motif.yield %g : tensor<64x16xf32>
  }
  return %y : tensor<64x16xf32>
}

// -----

// Each group keeps 1, 2 or 4 rows a quad.
func.func @split_rows(%q: tensor<64x16xf32>, %k: tensor<64x16xf32>, %v: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %y = motif.kernel "k" threads(256) -> tensor<64x16xf32> {
    // expected-error @+1 {{has 16 rows per block in threads(256) (128 a key group): the lowering needs a multiple of 32 threads and 1, 2 or 4 rows per quad of 4 threads (rows = threads / 4 * R in each key group)}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.25) splits(2) over [block x seq(16), seq, seq, seq]
           : (tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
    %g = motif.materialize %o in global : tensor<64x16xf32>
    motif.yield %g : tensor<64x16xf32>
  }
  return %y : tensor<64x16xf32>
}

// -----

// A tile of K and V per group: 8 groups of D = E = 128 over the opt-in limit.
func.func @split_bytes(%q: tensor<64x128xf32>, %k: tensor<1024x128xf32>, %v: tensor<1024x128xf32>) -> tensor<64x128xf32> {
  %y = motif.kernel "k" threads(512) -> tensor<64x128xf32> {
    // expected-error @+1 {{stages 540672 bytes of tiles in shared memory, over the 232448 a block may opt in to}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.25) splits(8) over [block x seq(64), seq, seq, seq]
           : (tensor<64x128xf32>, tensor<1024x128xf32>, tensor<1024x128xf32>) -> tensor<64x128xf32>
    %g = motif.materialize %o in global : tensor<64x128xf32>
    motif.yield %g : tensor<64x128xf32>
  }
  return %y : tensor<64x128xf32>
}

// -----

// The tensor-core form takes no key groups.
func.func @mma_split(%q: tensor<64x64xbf16>, %k: tensor<64x64xbf16>, %v: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  %y = motif.kernel "k" threads(256) -> tensor<64x64xbf16> {
    // expected-error @+1 {{splits the keys into 2 groups: the tensor-core lowering runs one group per block (splits are lowered on fma, for f32 operands)}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.125) splits(2) over [block x seq(64), seq, seq, seq]
           : (tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    %g = motif.materialize %o in global : tensor<64x64xbf16>
    motif.yield %g : tensor<64x64xbf16>
  }
  return %y : tensor<64x64xbf16>
}

// -----

// Key groups stage one copy of each tile.
func.func @split_stages(%q: tensor<64x16xf32>, %k: tensor<256x16xf32>, %v: tensor<256x16xf32>) -> tensor<64x16xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<64x16xf32> {
    // expected-error @+1 {{keeps 2 copies of the key and value tiles with 2 key groups: the groups stage one copy each (omit stages or say stages(1))}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.25) splits(2) stages(2) over [block x seq(32), seq, seq, seq]
           : (tensor<64x16xf32>, tensor<256x16xf32>, tensor<256x16xf32>) -> tensor<64x16xf32>
    %g = motif.materialize %o in global : tensor<64x16xf32>
    motif.yield %g : tensor<64x16xf32>
  }
  return %y : tensor<64x16xf32>
}

// -----

// The tensor-core form is a cp.async pipeline: at least 2 copies.
func.func @mma_one_stage(%q: tensor<64x64xbf16>, %k: tensor<64x64xbf16>, %v: tensor<64x64xbf16>) -> tensor<64x64xbf16> {
  %y = motif.kernel "k" threads(128) -> tensor<64x64xbf16> {
    // expected-error @+1 {{keeps one copy of the key and value tiles (stages(1)): the tensor-core lowering pipelines them with cp.async and needs 2 to 4}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.125) stages(1) over [block x seq(64), seq, seq, seq]
           : (tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x64xbf16>
    %g = motif.materialize %o in global : tensor<64x64xbf16>
    motif.yield %g : tensor<64x64xbf16>
  }
  return %y : tensor<64x64xbf16>
}

// -----

// Two copies of 32-key tiles of D = 256, E = 128 next to 128 rows of Q: over
// the opt-in limit. Without stages(2) the lowering keeps one copy there
// (online-contract-stages-emulated.test).
func.func @stage_bytes(%q: tensor<128x256xf32>, %k: tensor<256x256xf32>, %v: tensor<256x128xf32>) -> tensor<128x128xf32> {
  %y = motif.kernel "k" threads(128) -> tensor<128x128xf32> {
    // expected-error @+1 {{stages 233472 bytes of tiles in shared memory, over the 232448 a block may opt in to}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.125) stages(2) over [block x seq(128), seq, seq, seq]
           : (tensor<128x256xf32>, tensor<256x256xf32>, tensor<256x128xf32>) -> tensor<128x128xf32>
    %g = motif.materialize %o in global : tensor<128x128xf32>
    motif.yield %g : tensor<128x128xf32>
  }
  return %y : tensor<128x128xf32>
}
