// RUN: motif-opt %s --motif-raise-ptx-isa --split-input-file --verify-diagnostics | FileCheck %s
// motif-raise-ptx-isa: a gpu.module whose inline PTX needs a later PTX ISA
// than its #nvvm.target gives (st.async: 8.1 and sm_90) gets the target's
// +ptxNN raised; every other module keeps its target.

// sm_90 writes PTX 7.8 by default: raised, with a remark.
// CHECK-LABEL: gpu.module @sm90 [#nvvm.target<chip = "sm_90", features = "+ptx81">]
// expected-remark @+1 {{PTX ISA raised from 7.8 to 8.1 for sm_90: its inline PTX has st.async.shared::cluster.mbarrier::complete_tx::bytes.b32}}
gpu.module @sm90 [#nvvm.target<chip = "sm_90">] {
  llvm.func @k(%p: !llvm.ptr<7>, %v: i32, %b: !llvm.ptr<7>) {
    llvm.inline_asm has_side_effects "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$0], $1, [$2];", "l,r,l,~{memory}" %p, %v, %b : (!llvm.ptr<7>, i32, !llvm.ptr<7>) -> ()
    llvm.return
  }
}

// -----

// sm_90a writes 8.0; an explicit +ptx80 is replaced, other features and the
// target's other fields kept.
// CHECK-LABEL: gpu.module @sm90a [#nvvm.target<O = 3, chip = "sm_90a", features = "+foo,+ptx81", flags = {fast}>]
// expected-remark @+1 {{PTX ISA raised from 8.0 to 8.1 for sm_90a}}
gpu.module @sm90a [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80,+foo", flags = {fast}>] {
  llvm.func @k(%p: !llvm.ptr<7>, %v: i32, %b: !llvm.ptr<7>) {
    llvm.inline_asm has_side_effects "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$0], $1, [$2];", "l,r,l,~{memory}" %p, %v, %b : (!llvm.ptr<7>, i32, !llvm.ptr<7>) -> ()
    llvm.return
  }
}

// -----

// Already enough: sm_100a (8.6 at least) and an explicit +ptx83 stay.
// CHECK-LABEL: gpu.module @sm100a [#nvvm.target<chip = "sm_100a">]
// CHECK-LABEL: gpu.module @ptx83 [#nvvm.target<chip = "sm_90", features = "+ptx83">]
gpu.module @sm100a [#nvvm.target<chip = "sm_100a">] {
  llvm.func @k(%p: !llvm.ptr<7>, %v: i32, %b: !llvm.ptr<7>) {
    llvm.inline_asm has_side_effects "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$0], $1, [$2];", "l,r,l,~{memory}" %p, %v, %b : (!llvm.ptr<7>, i32, !llvm.ptr<7>) -> ()
    llvm.return
  }
}
gpu.module @ptx83 [#nvvm.target<chip = "sm_90", features = "+ptx83">] {
  llvm.func @k(%p: !llvm.ptr<7>, %v: i32, %b: !llvm.ptr<7>) {
    llvm.inline_asm has_side_effects "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$0], $1, [$2];", "l,r,l,~{memory}" %p, %v, %b : (!llvm.ptr<7>, i32, !llvm.ptr<7>) -> ()
    llvm.return
  }
}

// -----

// No instruction that needs more (motif's recompute copies are mov.b32): the
// module keeps sm_90's 7.8.
// CHECK-LABEL: gpu.module @plain [#nvvm.target<chip = "sm_90">]
gpu.module @plain [#nvvm.target<chip = "sm_90">] {
  llvm.func @k(%v: i32) -> i32 {
    %c = llvm.mlir.constant(0 : i32) : i32
    %r = llvm.inline_asm "mov.b32 $0, $1; // recompute $2", "=r,r,n" %v, %c : (i32, i32) -> i32
    llvm.return %r : i32
  }
}

// -----

// A chip without clusters: an error at the asm, not a PTX ptxas rejects.
gpu.module @sm80 [#nvvm.target<chip = "sm_80">] {
  llvm.func @k(%p: !llvm.ptr<7>, %v: i32, %b: !llvm.ptr<7>) {
    // expected-error @+1 {{this inline PTX needs sm_90 or later; the module's target is sm_80}}
    llvm.inline_asm has_side_effects "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [$0], $1, [$2];", "l,r,l,~{memory}" %p, %v, %b : (!llvm.ptr<7>, i32, !llvm.ptr<7>) -> ()
    llvm.return
  }
}
