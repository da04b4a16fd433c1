// WAS A BUG, fixed (lib/Dialect/Motif/IR/MotifOps.cpp, KernelOp::verifyRegions): the
// refusal is right, its message is not: `threads` is read unsigned, so
// `threads(-32)` is reported as "threads must be in [1, 1024], got
// 18446744073709551584".
// Expected: "got -32".
// RUN: motif-opt %s -verify-diagnostics

func.func @threads_negative() {
  // expected-error @+1 {{threads must be in [1, 1024], got -32}}
  motif.kernel "k" threads(-32) {
  }
  return
}
