//===- MotifDialect.td - the motif dialect -----------------*- tablegen -*-===//
#ifndef MOTIF_DIALECT_TD
#define MOTIF_DIALECT_TD

include "mlir/IR/OpBase.td"

def Motif_Dialect : Dialect {
  let name = "motif";
  let cppNamespace = "::mlir::motif";
  let summary = "Execution motifs with explicit materialization points";
  let description = [{
    A program is a `func.func` over tensors whose body is a sequence of
    `motif.kernel` ops. Inside a kernel, execution motifs (map, reduce,
    broadcast, contract, transpose) compute tensors; every motif's iteration
    dims are mapped onto the launch hierarchy (`block`, `warp`, `lane`,
    `thread`, `seq`). Every intermediate passes through a `motif.materialize`
    that names where it lives: `register` or `shared` inside a kernel, or
    `global` when the kernel yields it (a kernel boundary). See docs/dialect.md.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect"];
  let useDefaultAttributePrinterParser = 1;
}

class Motif_Op<string mnemonic, list<Trait> traits = []>
    : Op<Motif_Dialect, mnemonic, traits>;

#endif // MOTIF_DIALECT_TD
