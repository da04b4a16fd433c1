// RUN: motif-opt %s -split-input-file -verify-diagnostics

func.func @threads_out_of_range(%x: tensor<4xf32>) {
  // expected-error @+1 {{'motif.kernel' op threads must be in [1, 1024], got 2048}}
  motif.kernel "k" threads(2048) {
  }
  return
}

// -----

func.func @yield_count(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{yields 0 values but has 1 results}}
  %y = motif.kernel "k" threads(32) -> tensor<4xf32> {
    motif.yield
  }
  return %y : tensor<4xf32>
}

// -----

func.func @yield_type(%x: tensor<4xf32>) -> tensor<8xf32> {
  // expected-error @+1 {{result #0 has type 'tensor<8xf32>' but yields 'tensor<4xf32>'}}
  %y = motif.kernel "k" threads(32) -> tensor<8xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %g = motif.materialize %m in global : tensor<4xf32>
    motif.yield %g : tensor<4xf32>
  }
  return %y : tensor<8xf32>
}

// -----

func.func @yield_not_global(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{result #0 must be yielded from a 'motif.materialize ... in global' of this kernel}}
  %y = motif.kernel "k" threads(32) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    motif.yield %m : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @grid_disagreement(%x: tensor<4x32xf32>) -> tensor<32xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<32xf32> {
    %m = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<4x32xf32>) -> tensor<4xf32>
    %mr = motif.materialize %m in register : tensor<4xf32>
    // expected-error @+1 {{'motif.reduce' op maps [32] to blocks but 'motif.reduce' in the same kernel maps [4]: every motif of a kernel runs on the same grid}}
    %n = motif.reduce <add> (%x[i, j]) -> [j] over [thread, block] : (tensor<4x32xf32>) -> tensor<32xf32>
    %g = motif.materialize %n in global : tensor<32xf32>
    motif.yield %g : tensor<32xf32>
  }
  return %y : tensor<32xf32>
}

// -----

func.func @foreign_op_in_kernel(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{'arith.constant' op is not allowed directly in a motif.kernel}}
    %c = arith.constant 1.0 : f32
  }
  return
}

// -----

func.func @observable_not_global(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{an observable value must stay in global memory}}
    %r = motif.materialize %m in shared observable : tensor<4xf32>
  }
  return
}

// -----

func.func @global_used_inside(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{a global materialization is only yielded (a kernel boundary)}}
    %g = motif.materialize %m in global : tensor<4xf32>
    %n = motif.map (%g[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    %h = motif.materialize %n in global : tensor<4xf32>
    motif.yield %h : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @register_yielded(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<4xf32> {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{'motif.materialize' op in register is yielded: kernel results live in global memory}}
    %r = motif.materialize %m in register : tensor<4xf32>
    motif.yield %r : tensor<4xf32>
  }
  return %y : tensor<4xf32>
}

// -----

func.func @materialize_outside_kernel(%x: tensor<4xf32>) {
  // expected-error @+1 {{'motif.materialize' op expects parent op 'motif.kernel'}}
  %r = motif.materialize %x in register : tensor<4xf32>
  return
}

// -----

func.func @not_materialized(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{operand #0 is computed in this kernel but not materialized}}
    %n = motif.map (%m[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @mapping_length(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{mapping has 1 levels but the iteration space has 2 dims}}
    %m = motif.map (%x[i, j]) -> [i, j] over [thread] : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @two_thread_dims(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{maps more than one iteration dim to the same thread level}}
    %m = motif.map (%x[i, j]) -> [i, j] over [thread, thread] : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @thread_and_warp(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(128) {
    // expected-error @+1 {{mixes 'thread' with 'warp'/'lane'}}
    %m = motif.map (%x[i, j]) -> [i, j] over [warp, thread] : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @extent_mismatch(%x: tensor<4x8xf32>, %b: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{operand #1 dim 0 has extent 4 but iteration dim 'j' has extent 8}}
    %m = motif.map (%x[i, j], %b[j]) -> [i, j] over [block, thread] : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: f32, %c: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @map_body_args(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{body must take 1 scalar arguments (f32)}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32, %b: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @map_body_yield(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{body must yield 1 value(s) of type (f32)}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      %c = arith.constant 1 : i32
      motif.yield %c : i32
    }
  }
  return
}

// -----

func.func @map_indexing_count(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{has 1 inputs but indexing for 2}}
    %m = "motif.map"(%x) <{indexing = [array<i64: 0>, array<i64: 0>], mapping = [#motif<level thread>]}> ({
    ^bb0(%a: f32):
      motif.yield %a : f32
    }) : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @map_indexing_range(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{indexing #0 must name distinct result dims in [0, 1)}}
    %m = "motif.map"(%x) <{indexing = [array<i64: 3>], mapping = [#motif<level thread>]}> ({
    ^bb0(%a: f32):
      motif.yield %a : f32
    }) : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @map_indexing_type(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{indexing #0 must be an i64 array}}
    %m = "motif.map"(%x) <{indexing = [1 : i64], mapping = [#motif<level thread>]}> ({
    ^bb0(%a: f32):
      motif.yield %a : f32
    }) : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @scalar_yield_tensor(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+3 {{'motif.yield' op in a motif body must yield scalars, got 'tensor<4xf32>'}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %x : tensor<4xf32>
    }
  }
  return
}

// -----

func.func @reduce_nothing(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{must reduce at least one dim}}
    %m = motif.reduce <add> (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @reduce_dims_order(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{reduction_dims must be sorted, unique and in [0, 2)}}
    %m = "motif.reduce"(%x) <{kind = #motif<combiner add>, reduction_dims = array<i64: 1, 0>, mapping = [#motif<level seq>, #motif<level thread>]}> ({
    }) : (tensor<4x8xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @reduce_shapes(%x: tensor<4x8xf32>, %y: tensor<4x4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{inputs must all have the same shape}}
    %m:2 = "motif.reduce"(%x, %y) <{reduction_dims = array<i64: 1>, init = [0.0 : f32, 0.0 : f32], mapping = [#motif<level seq>, #motif<level thread>]}> ({
    ^bb0(%a: f32, %b: f32, %c: f32, %d: f32):
      motif.yield %a, %b : f32, f32
    }) : (tensor<4x8xf32>, tensor<4x4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  }
  return
}

// -----

func.func @reduce_result_count(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{has 1 inputs but 2 results}}
    %m:2 = "motif.reduce"(%x) <{kind = #motif<combiner add>, reduction_dims = array<i64: 1>, mapping = [#motif<level seq>, #motif<level thread>]}> ({
    }) : (tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  }
  return
}

// -----

func.func @reduce_result_shape(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{result #0 has rank 2 but is indexed by 1 dims}}
    %m = "motif.reduce"(%x) <{kind = #motif<combiner add>, reduction_dims = array<i64: 1>, mapping = [#motif<level seq>, #motif<level thread>]}> ({
    }) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  }
  return
}

// -----

func.func @reduce_both_combiners(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{has both a built-in combiner and a combiner region}}
    %m = motif.reduce <add> (%x[i]) -> [] over [thread] : (tensor<4xf32>) -> tensor<f32> combiner {
    ^bb0(%a: f32, %b: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @reduce_no_combiner(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{needs a built-in combiner (<add>, <mul>, <max>, <min>) or a combiner region}}
    %m = motif.reduce (%x[i]) -> [] over [thread] : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @builtin_two_inputs(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{a built-in combiner reduces exactly one input}}
    %m:2 = motif.reduce <add> (%x[i], %x[i]) -> [] over [thread] : (tensor<4xf32>, tensor<4xf32>) -> (tensor<f32>, tensor<f32>)
  }
  return
}

// -----

func.func @builtin_with_init(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{a built-in combiner has its own identity}}
    %m = motif.reduce <add> (%x[i]) -> [] init [0.0 : f32] over [thread] : (tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @combiner_without_init(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{a combiner region needs 'init' with one identity per input (1)}}
    %m = motif.reduce (%x[i]) -> [] over [thread] : (tensor<4xf32>) -> tensor<f32> combiner {
    ^bb0(%a: f32, %b: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @combiner_init_type(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{init value 0 : i32 must be a 'f32'}}
    %m = motif.reduce (%x[i]) -> [] init [0 : i32] over [thread] : (tensor<4xf32>) -> tensor<f32> combiner {
    ^bb0(%a: f32, %b: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @combiner_args(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{combiner must take 2 scalar arguments (f32, f32)}}
    %m = motif.reduce (%x[i]) -> [] init [0.0 : f32] over [thread] : (tensor<4xf32>) -> tensor<f32> combiner {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @combiner_terminator(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{combiner must end in 'motif.yield'}}
    %m = motif.reduce (%x[i]) -> [] init [0.0 : f32] over [thread] : (tensor<4xf32>) -> tensor<f32> combiner {
    ^bb0(%a: f32, %b: f32):
      llvm.unreachable
    }
  }
  return
}

// -----

func.func @broadcast_dims(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{dims must be increasing result dims in [0, 2)}}
    %b = "motif.broadcast"(%x) <{dims = array<i64: 2>, mapping = [#motif<level block>, #motif<level thread>]}> : (tensor<4xf32>) -> tensor<4x8xf32>
  }
  return
}

// -----

func.func @broadcast_nothing(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{must add at least one dim}}
    %b = motif.broadcast %x[i] -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @contract_one_sided(%x: tensor<4x8xf32>, %y: tensor<8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{contracted dim 'j' must index both operands}}
    %c = "motif.contract"(%x, %y) <{lhs_dims = array<i64: 0, 1>, rhs_dims = array<i64: 2>, mapping = [#motif<level thread>, #motif<level seq>, #motif<level seq>]}> : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @contract_nothing(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{contracts no dim (use motif.map for a product)}}
    %c = motif.contract (%x[i], %y[i]) -> [i] over [thread] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @contract_unused_result_dim(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{result dim 'i' indexes neither operand}}
    %c = "motif.contract"(%x, %y) <{lhs_dims = array<i64: 1>, rhs_dims = array<i64: 1>, mapping = [#motif<level thread>, #motif<level seq>]}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @contract_repeated_dim(%x: tensor<4x4xf32>, %y: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{operand dims must be distinct iteration dims}}
    %c = "motif.contract"(%x, %y) <{lhs_dims = array<i64: 1, 1>, rhs_dims = array<i64: 1>, mapping = [#motif<level thread>, #motif<level seq>]}> : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4xf32>
  }
  return
}

// -----

func.func @transpose_perm(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{permutation is not a permutation of [0, 2)}}
    %t = "motif.transpose"(%x) <{permutation = array<i64: 0, 0>, mapping = [#motif<level thread>, #motif<level seq>]}> : (tensor<4x8xf32>) -> tensor<8x4xf32>
  }
  return
}

// -----

func.func @compute_outside_kernel(%x: tensor<4xf32>) {
  // expected-error @+1 {{'motif.map' op expects parent op 'motif.kernel'}}
  %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32):
    motif.yield %a : f32
  }
  return
}

// -----

func.func @dynamic_shape(%x: tensor<?xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{maps iteration dim 'i', whose extent is dynamic, to 'thread': a dynamic extent (the row count, known at launch) must be mapped to 'block'}}
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<?xf32>) -> tensor<?xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @warp_and_block_warp(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(128) {
    // expected-error @+1 {{maps more than one iteration dim to the same thread level (at most one 'thread', one 'warp' or 'block.warp', and one 'lane')}}
    %m = motif.map (%x[i, j]) -> [i, j] over [block.warp, warp] : (tensor<4x8xf32>) -> tensor<4x8xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
  }
  return
}

// -----

func.func @block_warp_grid(%x: tensor<64x32xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %r = motif.kernel "k" threads(256) -> tensor<64xf32> {
    // 64 rows over 8 warps per block is a grid of 8; the map's 64 blocks differ.
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block.warp, lane] : (tensor<64x32xf32>) -> tensor<64xf32>
    %sr = motif.materialize %s in register : tensor<64xf32>
    // expected-error @+1 {{'motif.map' op maps [64] to blocks but 'motif.reduce' in the same kernel maps [8]: every motif of a kernel runs on the same grid}}
    %m = motif.map (%sr[i], %y[i]) -> [i] over [block] : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32> {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      motif.yield %t : f32
    }
    %g = motif.materialize %m in global : tensor<64xf32>
    motif.yield %g : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

// -----

// A materialization of its own result (found by motif-fuzz mutate: mutant 5438
// of seed 1 hung the verifier, which followed the chain back forever). The op
// verifier stops at the cycle; dominance then rejects the use.
func.func @materialize_of_itself(%x: tensor<128xf32>) -> tensor<128xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<128xf32> {
    // expected-error @+2 {{operand #0 does not dominate this use}}
    // expected-note @+1 {{operand defined here (op in the same block)}}
    %s = motif.materialize %s in shared : tensor<128xf32>
    %b = motif.map (%s[i]) -> [i] over [block(2) x seq(2) x thread(32)] : (tensor<128xf32>) -> tensor<128xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %g = motif.materialize %b in global : tensor<128xf32>
    motif.yield %g : tensor<128xf32>
  }
  return %y : tensor<128xf32>
}

// -----

// Two materializations of each other: the same cycle, one op longer.
func.func @materialize_cycle(%x: tensor<128xf32>) -> tensor<128xf32> {
  %y = motif.kernel "k" threads(32) -> tensor<128xf32> {
    // expected-error @+1 {{operand #0 does not dominate this use}}
    %s = motif.materialize %t in register : tensor<128xf32>
    // expected-note @+1 {{operand defined here (op in the same block)}}
    %t = motif.materialize %s in register : tensor<128xf32>
    %b = motif.map (%t[i]) -> [i] over [block(2) x seq(2) x thread(32)] : (tensor<128xf32>) -> tensor<128xf32> {
    ^bb0(%v: f32):
      motif.yield %v : f32
    }
    %g = motif.materialize %b in global : tensor<128xf32>
    motif.yield %g : tensor<128xf32>
  }
  return %y : tensor<128xf32>
}

// -----

func.func @shared_tail_not_register(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{has a shared tail in 'shared': only a register value keeps part of its slots in shared memory}}
    %r = motif.materialize %m in shared shared_tail(2) : tensor<4xf32>
  }
  return
}

// -----

func.func @recompute_not_register(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{recomputes a value in 'shared': only a register value is recomputed by its readers}}
    %r = motif.materialize %m in shared recompute : tensor<4xf32>
  }
  return
}

// -----

func.func @recompute_with_tail(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{recomputes a value with a shared tail: a recomputed value keeps no slots}}
    %r = motif.materialize %m in register shared_tail(2) recompute : tensor<4xf32>
  }
  return
}

// -----

func.func @recompute_not_a_map(%x: tensor<4x8xf32>) {
  motif.kernel "k" threads(32) {
    %s = motif.reduce <add> (%x[i, j]) -> [i] over [block, thread] : (tensor<4x8xf32>) -> tensor<4xf32>
    // expected-error @+1 {{recomputes a value that is not the result of a motif.map of this kernel: only a map's body is computed again by its readers}}
    %r = motif.materialize %s in register recompute : tensor<4xf32>
  }
  return
}

// -----

func.func @shared_tail_empty(%x: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    %m = motif.map (%x[i]) -> [i] over [thread] : (tensor<4xf32>) -> tensor<4xf32> {
    ^bb0(%a: f32):
      motif.yield %a : f32
    }
    // expected-error @+1 {{has a shared tail of 0 slots: it must be at least 1}}
    %r = motif.materialize %m in register shared_tail(0) : tensor<4xf32>
  }
  return
}
