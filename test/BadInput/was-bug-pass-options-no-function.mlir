// WAS A BUG, fixed (lib/Dialect/Motif/Transforms/FuseMaterialization.cpp): the
// options are checked in runOnOperation, once per func.func; a module
// without a function never runs it, so `motif-opt
// known-bugs-pass-options-no-function.mlir --fuse-materialization="chip=sm_75"`
// (or register-budget=999, equivalence-cap=exact) exits 0. motif-compile is
// not affected: it reports "no host function".
// Expected: the bad option is an error naming it, exit 1, whatever the input.
// RUN: not motif-opt %s --fuse-materialization="chip=sm_75" -o /dev/null 2>&1 | FileCheck %s
// CHECK: error: {{.*}}chip 'sm_75'

module {
}
