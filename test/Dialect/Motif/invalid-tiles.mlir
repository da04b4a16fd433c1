// RUN: motif-opt %s -split-input-file -verify-diagnostics
// One case per message of the tile-nest rules (docs/dialect.md, "Tiles").

func.func @product_not_extent(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64xf32> {
    // expected-error @+1 {{tiles iteration dim 'i' into sizes that multiply to 96, but its extent is 64 (only an outermost unsized 'block' level may leave a partial last tile)}}
    %m = motif.map (%x[i]) -> [i] over [block(3) x thread(32)] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}

// -----

func.func @threads_mismatch(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64xf32> {
    // expected-error @+1 {{splits the block's threads into tile levels whose sizes multiply to 16, but the kernel has threads(32)}}
    %m = motif.map (%x[i]) -> [i] over [block(4) x thread(16)] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}

// -----

func.func @block_inside(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64xf32> {
    // expected-error @+1 {{'block' must be the outermost level of a tile nest (a block holds one contiguous tile)}}
    %m = motif.map (%x[i]) -> [i] over [thread(32) x block(2)] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}

// -----

// A warp(n) level numbers whole warps: the thread(n) levels must be one
// warp's 32 lanes.
func.func @warp_in_nest_without_lanes(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<64xf32> {
    // expected-error @+1 {{has 'warp(n)' tile levels, whose digits number whole warps, but its 'thread(n)' tile levels multiply to 1, not the 32 lanes of a warp}}
    %m = motif.map (%x[i]) -> [i] over [warp(2) x seq(32)] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}

// -----

func.func @zero_size(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64xf32> {
    // expected-error @+1 {{tile level 'seq' has size 0: every size must be at least 1}}
    %m = motif.map (%x[i]) -> [i] over [seq(0) x thread(32)] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}

// -----

func.func @big_thread(%x: tensor<2048xf32>) -> tensor<2048xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<2048xf32> {
    // expected-error @+1 {{tile level 'thread' has size 2048, more than a block's 1024 threads}}
    %m = motif.map (%x[i]) -> [i] over [thread(2048)] : (tensor<2048xf32>) -> tensor<2048xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<2048xf32>
    motif.yield %g : tensor<2048xf32>
  }
  return %y : tensor<2048xf32>
}

// -----

func.func @reduced_on_threads(%x: tensor<4x64xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4xf32> {
    // expected-error @+1 {{tiles the reduced dim 'j' over 'thread': a reduced dim's tile nest is sequential (seq levels only); map it to an unsized 'thread' to reduce across threads}}
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread(32) x seq(2)] : (tensor<4x64xf32>) -> tensor<4xf32>
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @mixed_thread_levels(%x: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<32x32xf32> {
    // expected-error @+1 {{mixes sized 'thread(n)' tile levels with an unsized thread, warp, lane or block.warp level: with tiles, every thread level has a size}}
    %m = motif.map (%x[i, j]) -> [i, j] over [thread(32), thread] : (tensor<32x32xf32>) -> tensor<32x32xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<32x32xf32>
    motif.yield %g : tensor<32x32xf32>
  }
  return %y : tensor<32x32xf32>
}

// -----

func.func @missing_size(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64xf32> {
    // expected-error @+1 {{expected '('}}
    %m = motif.map (%x[i]) -> [i] over [block(2) x thread] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}

// -----

func.func @generic_bad_tile(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64xf32> {
    // expected-error @+1 {{a tile nest needs one size per level (got 2 levels, 1 sizes)}}
    %m = "motif.map"(%x) <{indexing = [array<i64: 0>], mapping = [#motif.tile<[block, thread], [2]>]}> ({
    ^bb0(%a: f32):
      motif.yield %a : f32
    }) : (tensor<64xf32>) -> tensor<64xf32>
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}

// -----

func.func @rest_does_not_divide(%x: tensor<100xf32>) -> tensor<100xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<100xf32> {
    // A partial last tile only under an outermost block level (an unsized
    // seq takes exactly what is left).
    // expected-error @+1 {{tiles iteration dim 'i' into tiles of 64, which do not divide its extent 100 (only an outermost unsized 'block' level may leave a partial last tile)}}
    %m = motif.map (%x[i]) -> [i] over [seq x thread(32) x seq(2)] : (tensor<100xf32>) -> tensor<100xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<100xf32>
    motif.yield %g : tensor<100xf32>
  }
  return %y : tensor<100xf32>
}

// -----

func.func @unsized_not_outermost(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64xf32> {
    // expected-error @+1 {{tile level 'seq' has size 0: every size must be at least 1 (only an outermost block or seq may be unsized, 0)}}
    %m = "motif.map"(%x) <{indexing = [array<i64: 0>], mapping = [#motif.tile<[thread, seq], [32, 0]>]}> ({
    ^bb0(%a: f32):
      motif.yield %a : f32
    }) : (tensor<64xf32>) -> tensor<64xf32>
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}

// -----

func.func @warp_in_nest_16_lanes(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %y = motif.kernel "k" threads(64) -> tensor<64x64xf32> {
    // expected-error @+1 {{has 'warp(n)' tile levels, whose digits number whole warps, but its 'thread(n)' tile levels multiply to 16, not the 32 lanes of a warp}}
    %m = motif.map (%x[i, j]) -> [i, j] over [warp(4) x seq(16), seq(4) x thread(16)] : (tensor<64x64xf32>) -> tensor<64x64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<64x64xf32>
    motif.yield %g : tensor<64x64xf32>
  }
  return %y : tensor<64x64xf32>
}

// -----

func.func @lane_in_nest(%x: tensor<64xf32>) -> tensor<64xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<64xf32> {
    // expected-error @+1 {{'lane' is not supported inside a tile nest (use block, warp, thread and seq; a thread(n) level already spans warps and lanes)}}
    %m = motif.map (%x[i]) -> [i] over [lane(32) x seq(2)] : (tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %y : tensor<64xf32>
}

// -----

// A partial block's inner levels past both the extent and 4096 elements: one
// block nearly all masked. Found by motif-fuzz mutate (run seed 1, mutant
// 5067 of CI's corpus): seq(9223372036854775807) made the inner product
// overflow, the verifier took it, and the evaluator aborted on the tile's size.
func.func @overhang(%a: tensor<512x128xf32>, %b: tensor<256x128xf32>) -> tensor<512x256xf32> {
  %c = motif.kernel "k" threads(256) -> tensor<512x256xf32> {
    // expected-error @+1 {{tiles iteration dim 'j' into tiles of more than 2^63 elements, more than its extent 256 and than 4096 (a partial last tile may cover more than the extent only up to 4096 elements)}}
    %p = motif.contract (%a[i, k], %b[j, k]) -> [i, j]
           over [block x thread(16) x seq(8), block x seq(2) x thread(16) x seq(9223372036854775807), seq x seq(32)]
           : (tensor<512x128xf32>, tensor<256x128xf32>) -> tensor<512x256xf32>
    %g = motif.materialize %p in global : tensor<512x256xf32>
    motif.yield %g : tensor<512x256xf32>
  }
  return %c : tensor<512x256xf32>
}

// -----

func.func @overhang_map(%x: tensor<100xf32>) -> tensor<100xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<100xf32> {
    // expected-error @+1 {{tiles iteration dim 'i' into tiles of 8192 elements, more than its extent 100 and than 4096}}
    %m = motif.map (%x[i]) -> [i] over [block x thread(32) x seq(256)] : (tensor<100xf32>) -> tensor<100xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %g = motif.materialize %m in global : tensor<100xf32>
    motif.yield %g : tensor<100xf32>
  }
  return %y : tensor<100xf32>
}
