// RUN: motif-opt %s -split-input-file -verify-diagnostics
// One case per message of motif.online_contract's verifier (docs/dialect.md, "Online contraction").

func.func @rank(%q: tensor<256x64xf32>, %k: tensor<256x64xf32>, %v: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %y = motif.kernel "rank" threads(128) -> tensor<256x64xf32> {
    // expected-error @+1 {{'motif.online_contract' op operand #0 has rank 2 but is indexed by 1 dims}}
    %o = motif.online_contract (%q[i], %k[j, d], %v[j, e]) -> [i, e] scale(0.125) over [block x seq(64), seq, seq, seq]
           : (tensor<256x64xf32>, tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %g = motif.materialize %o in global : tensor<256x64xf32>
    motif.yield %g : tensor<256x64xf32>
  }
  return %y : tensor<256x64xf32>
}

// -----

func.func @scale(%q: tensor<256x64xf32>, %k: tensor<256x64xf32>, %v: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %y = motif.kernel "scale" threads(128) -> tensor<256x64xf32> {
    // expected-error @+1 {{scale must be a finite number > 0, got -1.000000e+00}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(-1.0) over [block x seq(64), seq, seq, seq]
           : (tensor<256x64xf32>, tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %g = motif.materialize %o in global : tensor<256x64xf32>
    motif.yield %g : tensor<256x64xf32>
  }
  return %y : tensor<256x64xf32>
}

// -----

func.func @no_role(%q: tensor<256x64xf32>, %k: tensor<256x64xf32>, %v: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %y = motif.kernel "no_role" threads(128) -> tensor<256x64xf32> {
    // expected-error @+1 {{has no role}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, d]) -> [i, e] scale(0.125) over [block x seq(64), seq, seq, seq]
           : (tensor<256x64xf32>, tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %g = motif.materialize %o in global : tensor<256x64xf32>
    motif.yield %g : tensor<256x64xf32>
  }
  return %y : tensor<256x64xf32>
}

// -----

func.func @two_rows(%q: tensor<4x256x64xf32>, %k: tensor<256x64xf32>, %v: tensor<256x64xf32>) -> tensor<4x256x64xf32> {
  %y = motif.kernel "two_rows" threads(128) -> tensor<4x256x64xf32> {
    // expected-error @+1 {{needs exactly one row dim (first operand and result), has 2}}
    %o = motif.online_contract (%q[h, i, d], %k[j, d], %v[j, e]) -> [h, i, e] scale(0.125) over [block, block x seq(64), seq, seq, seq]
           : (tensor<4x256x64xf32>, tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<4x256x64xf32>
    %g = motif.materialize %o in global : tensor<4x256x64xf32>
    motif.yield %g : tensor<4x256x64xf32>
  }
  return %y : tensor<4x256x64xf32>
}

// -----

func.func @mixed_types(%q: tensor<256x64xf16>, %k: tensor<256x64xf32>, %v: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %y = motif.kernel "mixed_types" threads(128) -> tensor<256x64xf32> {
    // expected-error @+1 {{operand #1 holds 'f32' but operand #0 holds 'f16': the three operands hold one element type}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.125) over [block x seq(64), seq, seq, seq]
           : (tensor<256x64xf16>, tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %g = motif.materialize %o in global : tensor<256x64xf32>
    motif.yield %g : tensor<256x64xf32>
  }
  return %y : tensor<256x64xf32>
}

// -----

func.func @result_type(%q: tensor<256x64xbf16>, %k: tensor<256x64xbf16>, %v: tensor<256x64xbf16>) -> tensor<256x64xf16> {
  %y = motif.kernel "result_type" threads(128) -> tensor<256x64xf16> {
    // expected-error @+1 {{result holds 'f16' for operands of 'bf16': the result is f32 or the operands' type}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.125) over [block x seq(64), seq, seq, seq]
           : (tensor<256x64xbf16>, tensor<256x64xbf16>, tensor<256x64xbf16>) -> tensor<256x64xf16>
    %g = motif.materialize %o in global : tensor<256x64xf16>
    motif.yield %g : tensor<256x64xf16>
  }
  return %y : tensor<256x64xf16>
}

// -----

func.func @batch_not_block(%q: tensor<2x256x64xf32>, %k: tensor<2x256x64xf32>, %v: tensor<2x256x64xf32>) -> tensor<2x256x64xf32> {
  %y = motif.kernel "batch_not_block" threads(128) -> tensor<2x256x64xf32> {
    // expected-error @+1 {{maps batch dim 'i' to other than 'block'}}
    %o = motif.online_contract (%q[h, i, d], %k[h, j, d], %v[h, j, e]) -> [h, i, e] scale(0.125) over [seq, block x seq(64), seq, seq, seq]
           : (tensor<2x256x64xf32>, tensor<2x256x64xf32>, tensor<2x256x64xf32>) -> tensor<2x256x64xf32>
    %g = motif.materialize %o in global : tensor<2x256x64xf32>
    motif.yield %g : tensor<2x256x64xf32>
  }
  return %y : tensor<2x256x64xf32>
}

// -----

func.func @row_thread(%q: tensor<256x64xf32>, %k: tensor<256x64xf32>, %v: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %y = motif.kernel "row_thread" threads(128) -> tensor<256x64xf32> {
    // expected-error @+1 {{maps row dim 'i' to other than 'block x seq(rows)'}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.125) over [thread, seq, seq, seq]
           : (tensor<256x64xf32>, tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %g = motif.materialize %o in global : tensor<256x64xf32>
    motif.yield %g : tensor<256x64xf32>
  }
  return %y : tensor<256x64xf32>
}

// -----

func.func @key_block(%q: tensor<256x64xf32>, %k: tensor<256x64xf32>, %v: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %y = motif.kernel "key_block" threads(128) -> tensor<256x64xf32> {
    // expected-error @+1 {{to other than 'seq'}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.125) over [block x seq(64), seq, block, seq]
           : (tensor<256x64xf32>, tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %g = motif.materialize %o in global : tensor<256x64xf32>
    motif.yield %g : tensor<256x64xf32>
  }
  return %y : tensor<256x64xf32>
}

// -----

func.func @one_split(%q: tensor<64x16xf32>, %k: tensor<64x16xf32>, %v: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64x16xf32> {
    // expected-error @+1 {{splits the keys into 1 groups: splits(s) takes 2 to 32 (omit it for one group)}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.25) splits(1) over [block x seq(32), seq, seq, seq]
           : (tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
    %g = motif.materialize %o in global : tensor<64x16xf32>
    motif.yield %g : tensor<64x16xf32>
  }
  return %y : tensor<64x16xf32>
}

// -----

func.func @no_stages(%q: tensor<64x16xf32>, %k: tensor<64x16xf32>, %v: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64x16xf32> {
    // expected-error @+1 {{keeps 0 copies of the key and value tiles: stages(n) takes 1 to 4}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.25) stages(0) over [block x seq(32), seq, seq, seq]
           : (tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
    %g = motif.materialize %o in global : tensor<64x16xf32>
    motif.yield %g : tensor<64x16xf32>
  }
  return %y : tensor<64x16xf32>
}

// -----

func.func @five_stages(%q: tensor<64x16xf32>, %k: tensor<64x16xf32>, %v: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64x16xf32> {
    // expected-error @+1 {{keeps 5 copies of the key and value tiles: stages(n) takes 1 to 4}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.25) splits(2) stages(5) over [block x seq(32), seq, seq, seq]
           : (tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
    %g = motif.materialize %o in global : tensor<64x16xf32>
    motif.yield %g : tensor<64x16xf32>
  }
  return %y : tensor<64x16xf32>
}

// -----

// The syntax gives stages; an attribute dictionary may not give it again.
func.func @stages_twice(%q: tensor<64x16xf32>, %k: tensor<64x16xf32>, %v: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64x16xf32> {
    // expected-error @+1 {{attribute 'stages' occurs more than once: the syntax of the op gives it}}
    %o = motif.online_contract (%q[i, d], %k[j, d], %v[j, e]) -> [i, e] scale(0.25) stages(2) over [block x seq(32), seq, seq, seq] {stages = 3 : i64}
           : (tensor<64x16xf32>, tensor<64x16xf32>, tensor<64x16xf32>) -> tensor<64x16xf32>
    %g = motif.materialize %o in global : tensor<64x16xf32>
    motif.yield %g : tensor<64x16xf32>
  }
  return %y : tensor<64x16xf32>
}
