// WAS A BUG, fixed (lib/Dialect/Motif/IR/MotifOps.cpp, ContractOp): the generic form
// can give lhs_dims/rhs_dims that do not fit the operands. ContractOp::
// getIterationExtents sizes its vector by the largest dim named and reads
// getDimSize(pos) for every entry, before the verifier has checked the
// operand ranks:
//   * lhs_dims = [100000000000] makes SmallVector grow past 2^32:
//     `motif-opt known-bugs-contract-dims.mlir` aborts ("LLVM ERROR:
//     SmallVector unable to grow", exit 134, stack dump);
//   * lhs_dims = [0, 1] on a rank-1 lhs reads past its shape: the error is a
//     garbage "has more than 1099511627776 iteration instances".
// Expected: the rank check first, a located error, exit 1.
// RUN: motif-opt %s -split-input-file -verify-diagnostics
// RUN: python3 %S/Inputs/each-case-fails.py motif-opt %s

func.func @contract_dim_past_every_rank(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{operand dim 100000000000 is not an iteration dim (there are at most 2)}}
    %c = "motif.contract"(%x, %y) <{lhs_dims = array<i64: 100000000000>, rhs_dims = array<i64: 0>, mapping = [#motif<level seq>]}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  }
  return
}

// -----

func.func @contract_dims_longer_than_rank(%x: tensor<4xf32>, %y: tensor<4xf32>) {
  motif.kernel "k" threads(32) {
    // expected-error @+1 {{operand #0 has rank 1 but is indexed by 2 dims}}
    %c = "motif.contract"(%x, %y) <{lhs_dims = array<i64: 0, 1>, rhs_dims = array<i64: 1, 0>, mapping = [#motif<level seq>, #motif<level seq>]}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  }
  return
}
