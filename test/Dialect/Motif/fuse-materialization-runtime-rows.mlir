// A runtime row count changes no residency decision: the softmax with `?`
// rows fuses to the one kernel the static softmax fuses to, with the same
// register values, and the report gives its global figures per row.
// RUN: motif-opt %examples/softmax_dynamic.mlir --pass-pipeline="builtin.module(func.func(fuse-materialization),motif-residency-report)" -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=REPORT
// RUN: motif-opt %examples/softmax_dynamic.mlir --fuse-materialization 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: motif-opt %examples/softmax_dynamic.mlir --fuse-materialization | FileCheck %s --check-prefix=IR
// The static program's report, for comparison: the same rows, whole-tensor bytes.
// RUN: motif-opt %examples/softmax.mlir --pass-pipeline="builtin.module(func.func(fuse-materialization),motif-residency-report)" -o /dev/null 2>/dev/null | FileCheck %s --check-prefix=STATIC

// REPORT: residency report: @softmax_dynamic
// REPORT: input argument #0 (map) tensor<?x1024xf32>  global    register            4096
// REPORT: softmax_max#0 (reduce) tensor<?xf32>        global    register               8
// REPORT: softmax_exp#0 (map) tensor<?x1024xf32>      global    register           12288
// REPORT: softmax_sum#0 (reduce) tensor<?xf32>        global    register               8
// REPORT: softmax_div#0 (map) tensor<?x1024xf32>      global    global                 0
// REPORT: total: 1 kernel(s), 16400 global bytes saved per row (the row count is known at launch), 0 shared bytes, 0 barrier(s)

// REMARK: remark: 'softmax_max'#0 (tensor<?xf32>): global -> register (rule 1: not observable, same thread
// REMARK: remark: 'softmax_exp'#0 (tensor<?x1024xf32>): global -> register
// REMARK: remark: 'softmax_sum'#0 (tensor<?xf32>): global -> register
// REMARK: remark: 'softmax_div'#0 (tensor<?x1024xf32>): stays global (rule 1: externally observable

// IR: func.func @softmax_dynamic(%{{.*}}: tensor<?x1024xf32>) -> tensor<?x1024xf32>
// IR-COUNT-1: motif.kernel "
// IR-NOT: motif.kernel "

// 512 rows: 512 x 16400 bytes saved.
// STATIC: residency report: @softmax
// STATIC: total: 1 kernel(s), 8396800 global bytes saved, 0 shared bytes, 0 barrier(s)
