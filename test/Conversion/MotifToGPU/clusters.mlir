// RUN: motif-opt %S/Inputs/cluster-softmax.mlir --pass-pipeline='builtin.module(convert-motif-to-gpu{cluster-push=false},gpu.module(canonicalize,cse))' | FileCheck %s
// RUN: motif-opt %S/Inputs/cluster-softmax.mlir --pass-pipeline='builtin.module(convert-motif-to-gpu{chip=sm_80},gpu.module(canonicalize,cse))' 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: motif-opt %S/Inputs/cluster-column-sums.mlir --pass-pipeline='builtin.module(convert-motif-to-gpu{cluster-push=false},gpu.module(canonicalize,cse))' | FileCheck %s --check-prefix=LANES
// RUN: motif-opt %S/Inputs/cluster-softmax.mlir --pass-pipeline='builtin.module(convert-motif-to-gpu{cluster-mbarrier=false},gpu.module(canonicalize,cse))' | FileCheck %s --check-prefix=PUSH
// RUN: motif-opt %S/Inputs/cluster-column-sums.mlir --pass-pipeline='builtin.module(convert-motif-to-gpu{cluster-mbarrier=false},gpu.module(canonicalize,cse))' | FileCheck %s --check-prefix=PUSH-LANES
// RUN: motif-opt %S/Inputs/cluster-softmax.mlir --pass-pipeline='builtin.module(convert-motif-to-gpu,gpu.module(canonicalize,cse))' | FileCheck %s --check-prefix=MBAR
// RUN: motif-opt %S/Inputs/cluster-column-sums.mlir --pass-pipeline='builtin.module(convert-motif-to-gpu,gpu.module(canonicalize,cse))' | FileCheck %s --check-prefix=MBAR-LANES
// A kernel of threads(1024) cluster(4) (docs/lowering.md, "Clusters"), with
// the pulled exchange (cluster-push=false; the default pushes, PUSH below):
// launched as 4 x 8 CTAs of 256 threads with cluster dims (4, 1, 1); the
// thread's number in the block is its CTA's rank (%cluster_ctaid.x) times 256
// plus its thread id, the block's is %clusterid.x (blockIdx.x / 4); lane 0 of each warp
// stores its partial in its own CTA's scratch, a cluster barrier, then lane l
// of every warp reads partial l from the CTA that holds it (warps 0-7 in rank
// 0, ..., 24-31 in rank 3: rank l / 8) and the warp folds the 32 partials in
// warp order from its lanes (shuffle idx 0, 1, ..., 31); after the last such
// read every thread arrives at a cluster barrier whose wait is the kernel's
// last op: every CTA's shared memory stays alive until all have read it, and
// the stores in between do not wait for the barrier. Its behaviour, executed: clusters-emulated.test.

// CHECK: gpu.launch_func @motif_kernels::@softmax_softmax blocks in (%c32,
// CHECK-SAME: threads in (%c256,
// CHECK: gpu.func @softmax_softmax
// CHECK-SAME: known_block_size = array<i32: 256, 1, 1>
// CHECK-SAME: known_grid_size = array<i32: 32, 1, 1>
// CHECK-SAME: nvvm.cluster_dim = array<i32: 4, 1, 1>
// CHECK: %[[TID:.*]] = gpu.thread_id x
// The rank and the block from their own registers (%cluster_ctaid.x,
// %clusterid.x), not blockIdx.x % 4 and / 4: derived from one register, LLVM
// folds the row's constant offsets into a non-disjoint `or` and some 128-bit
// accesses stay 16-bit (test/Pipeline/clusters.test counts them).
// CHECK-NOT: gpu.block_id
// CHECK: %[[RANK:.*]] = gpu.cluster_block_id x
// CHECK: %[[BLOCK:.*]] = gpu.cluster_id x
// CHECK: %[[FIRST:.*]] = arith.muli %[[RANK]], %c256
// CHECK: %[[T:.*]] = arith.addi %[[FIRST]], %[[TID]]
// CHECK: %[[WARP:.*]] = arith.divui %[[T]], %c32
// CHECK: %[[LANE:.*]] = arith.remui %[[T]], %c32
// CHECK: memref.load %{{.*}}[%[[BLOCK]],
// The max: the warp's partial into its CTA's scratch, then the cluster's barrier.
// CHECK: memref.store %{{.*}}, %[[SCRATCH:.*]][%[[WARP]]]
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: %[[W:.*]] = arith.minui %[[LANE]], %c31
// CHECK-NEXT: %[[R:.*]] = arith.divui %[[W]], %c8
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[W]], %c4
// CHECK-NEXT: %[[BASE:.*]] = memref.extract_aligned_pointer_as_index %[[SCRATCH]]
// CHECK-NEXT: %[[A:.*]] = arith.addi %[[BASE]], %[[OFF]]
// CHECK-NEXT: %[[I:.*]] = arith.index_castui %[[A]] : index to i64
// CHECK-NEXT: %[[P:.*]] = llvm.inttoptr %[[I]] : i64 to !llvm.ptr<3>
// CHECK-NEXT: %[[R32:.*]] = arith.index_castui %[[R]] : index to i32
// CHECK-NEXT: %[[REMOTE:.*]] = nvvm.mapa %[[P]], %[[R32]] : !llvm.ptr<3> -> !llvm.ptr<7>
// CHECK-NEXT: %[[V:.*]] = llvm.load %[[REMOTE]] : !llvm.ptr<7> -> f32
// CHECK-NEXT: %[[S0:.*]], %{{.*}} = gpu.shuffle idx %[[V]], %c0_i32, %c32_i32 : f32
// CHECK-NEXT: %[[S1:.*]], %{{.*}} = gpu.shuffle idx %[[V]], %c1_i32, %c32_i32 : f32
// CHECK-NEXT: arith.maximumf %[[S0]], %[[S1]] : f32
// CHECK-COUNT-30: gpu.shuffle idx %[[V]]
// CHECK-NOT: gpu.shuffle idx %[[V]]
// The sum, through the other scratch set.
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK: nvvm.mapa
// CHECK-NOT: nvvm.mapa
// The exit barrier, split: the arrive right after the last read of another
// CTA's partials, the global stores, and only then the wait, at the exit.
// CHECK: nvvm.cluster.arrive {aligned}
// CHECK-NOT: nvvm.cluster.wait
// CHECK-NOT: nvvm.mapa
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[BLOCK]],
// CHECK-NOT: nvvm.cluster.arrive
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.cluster.wait {aligned}
// CHECK-NEXT: gpu.return

// SM80: remark: cluster(4) not used on sm_80 (clusters of at most 1 CTA(s)): the block runs as one CTA of 1024 threads (the same schedule)
// SM80: gpu.launch_func @motif_kernels::@softmax_softmax blocks in (%c8,
// SM80-SAME: threads in (%c1024,
// SM80: known_block_size = array<i32: 1024, 1, 1>
// SM80-NOT: nvvm.cluster_dim
// SM80-NOT: nvvm.mapa
// SM80-NOT: nvvm.cluster.
// SM80: gpu.barrier
// SM80-NOT: nvvm.mapa
// SM80-NOT: nvvm.cluster.

// Partials of different columns in each lane: scratch[warp][lane], read at
// [w, lane] from rank w / 16 (two CTAs of 16 warps).
// LANES: nvvm.cluster_dim = array<i32: 2, 1, 1>
// LANES: memref.store %{{.*}}, %[[S:.*]][%{{.*}}, %{{.*}}] : memref<32x32xf32, #gpu.address_space<workgroup>>
// LANES-NEXT: nvvm.cluster.arrive {aligned}
// LANES-NEXT: nvvm.cluster.wait {aligned}
// LANES: memref.extract_aligned_pointer_as_index %[[S]]
// LANES: nvvm.mapa %{{.*}}, %c0_i32
// LANES: nvvm.mapa %{{.*}}, %c1_i32
// LANES-COUNT-15: nvvm.mapa %{{.*}}, %c1_i32
// LANES-NOT: nvvm.mapa
// LANES: nvvm.cluster.arrive {aligned}
// LANES-NOT: nvvm.cluster.wait
// LANES: memref.store
// LANES: nvvm.cluster.wait {aligned}
// LANES-NEXT: gpu.return

// cluster-push (the default; here through cluster barriers, cluster-mbarrier=false): lanes 0-3 of each warp store the warp's partial into CTA
// `lane`'s scratch[warp] (mapa + llvm.store) after the start barrier's wait
// (its arrive opens the kernel), then the exchange barrier, then every
// thread reads the 32 partials from its own CTA's scratch (memref.load, warp
// order): no load from another CTA, so no exit barrier. Executed by
// clusters-emulated.test and python/tests/test_emulator.py.
// PUSH: gpu.func @softmax_softmax
// PUSH: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// PUSH: nvvm.cluster.arrive {aligned}
// PUSH-NOT: nvvm.cluster.arrive
// PUSH: nvvm.cluster.wait {aligned}
// PUSH-NEXT: %[[SPEAKS:.*]] = arith.cmpi ult, %[[LANE]], %c4
// PUSH-NEXT: scf.if %[[SPEAKS]] {
// PUSH: %[[R32:.*]] = arith.index_castui %[[LANE]] : index to i32
// PUSH-NEXT: %[[REMOTE:.*]] = nvvm.mapa %{{.*}}, %[[R32]] : !llvm.ptr<3> -> !llvm.ptr<7>
// PUSH-NEXT: llvm.store %{{.*}}, %[[REMOTE]] : f32, !llvm.ptr<7>
// PUSH-NEXT: }
// PUSH-NEXT: nvvm.cluster.arrive {aligned}
// PUSH-NEXT: nvvm.cluster.wait {aligned}
// PUSH-NEXT: memref.load %[[SCRATCH:.*]][%c0]
// PUSH-NEXT: memref.load %[[SCRATCH]][%c1]
// PUSH-NOT: llvm.load
// PUSH: llvm.store
// PUSH-NEXT: }
// PUSH-NEXT: nvvm.cluster.arrive {aligned}
// PUSH-NEXT: nvvm.cluster.wait {aligned}
// PUSH-NOT: llvm.load
// PUSH-NOT: nvvm.cluster.
// PUSH: gpu.return

// With a partial a lane, every lane stores into each CTA in turn.
// PUSH-LANES: nvvm.cluster.arrive {aligned}
// PUSH-LANES: nvvm.cluster.wait {aligned}
// PUSH-LANES: nvvm.mapa %{{.*}}, %c0_i32
// PUSH-LANES-NEXT: llvm.store
// PUSH-LANES: nvvm.mapa %{{.*}}, %c1_i32
// PUSH-LANES-NEXT: llvm.store
// PUSH-LANES-NEXT: nvvm.cluster.arrive {aligned}
// PUSH-LANES-NEXT: nvvm.cluster.wait {aligned}
// PUSH-LANES-NOT: nvvm.mapa
// PUSH-LANES-NOT: llvm.load
// PUSH-LANES-NOT: nvvm.cluster.
// PUSH-LANES: gpu.return

// cluster-mbarrier (the default): each exchange has its own scratch and an
// mbarrier per CTA, initialized by thread 0 before the start barrier (one
// fence after the inits); after the start barrier's wait, thread 0 arrives on
// it expecting every byte it will receive (32 warps x 4 bytes: a partial may
// land before, the tx-count goes below zero meanwhile); a partial goes out
// with st.async, which counts its bytes on the receiving CTA's mbarrier, and
// the CTA waits on its own mbarrier (phase 0): after the start barrier, no
// cluster barrier at all. The start is the only cluster barrier and publishes
// only the mbarriers (after the fence): its arrive is relaxed. Thread 0 of each CTA (gpu.thread_id, the CTA's own
// number: with the cluster-wide one only CTA 0's mbarriers would be, and the
// others' exchanges would never complete).
// MBAR: gpu.func @softmax_softmax
// MBAR: %[[TID:.*]] = gpu.thread_id x
// MBAR: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// MBAR: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %c0 : index
// MBAR-NEXT: scf.if %[[FIRST]] {
// MBAR-NEXT: memref.extract_aligned_pointer_as_index %[[BAR1:[^ ]*]] : memref<1xi64, #gpu.address_space<workgroup>>
// MBAR: nvvm.mbarrier.init %{{.*}}, %c1_i32
// MBAR-NEXT: memref.extract_aligned_pointer_as_index %[[BAR2:[^ ]*]] : memref<1xi64, #gpu.address_space<workgroup>>
// MBAR: nvvm.mbarrier.init %{{.*}}, %c1_i32
// MBAR-NEXT: nvvm.fence.mbarrier.init
// MBAR-NOT: nvvm.mbarrier
// MBAR: nvvm.cluster.arrive.relaxed {aligned}
// MBAR-NOT: nvvm.cluster.arrive
// MBAR-NOT: nvvm.mbarrier
// MBAR: nvvm.cluster.wait {aligned}
// MBAR-NEXT: scf.if %[[FIRST]] {
// MBAR-NEXT: memref.extract_aligned_pointer_as_index %[[BAR1]]
// MBAR: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c128_i32
// MBAR: %[[SPEAKS:.*]] = arith.cmpi ult, %[[LANE]], %c4
// MBAR-NEXT: scf.if %[[SPEAKS]] {
// MBAR: nvvm.mapa %{{.*}}, %[[R32:.*]] : !llvm.ptr<3> -> !llvm.ptr<7>
// MBAR: memref.extract_aligned_pointer_as_index %[[BAR1]]
// MBAR: nvvm.mapa %{{.*}}, %[[R32]] : !llvm.ptr<3> -> !llvm.ptr<7>
// MBAR-NEXT: llvm.inline_asm has_side_effects "st.async.shared::cluster.mbarrier::complete_tx::bytes.b32
// MBAR-NEXT: {{^ *}}}
// MBAR-NEXT: memref.extract_aligned_pointer_as_index %[[BAR1]]
// MBAR: nvvm.mbarrier.try_wait.parity %{{.*}}, %c0_i32
// MBAR-NEXT: memref.load
// MBAR-NOT: nvvm.cluster.
// MBAR: scf.if %[[FIRST]] {
// MBAR-NEXT: memref.extract_aligned_pointer_as_index %[[BAR2]]
// MBAR: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c128_i32
// MBAR: llvm.inline_asm has_side_effects "st.async
// MBAR: memref.extract_aligned_pointer_as_index %[[BAR2]]
// MBAR: nvvm.mbarrier.try_wait.parity %{{.*}}, %c0_i32
// MBAR-NOT: nvvm.cluster.
// MBAR-NOT: llvm.load
// MBAR: gpu.return

// A partial a lane: every lane sends each CTA its own (32 warps x 32 lanes x 4
// bytes expected).
// MBAR-LANES: nvvm.cluster.arrive.relaxed {aligned}
// MBAR-LANES: nvvm.cluster.wait {aligned}
// MBAR-LANES: nvvm.mbarrier.arrive.expect_tx %{{.*}}, %c4096_i32
// MBAR-LANES: nvvm.mapa %{{.*}}, %c0_i32
// MBAR-LANES: llvm.inline_asm has_side_effects "st.async
// MBAR-LANES: nvvm.mapa %{{.*}}, %c1_i32
// MBAR-LANES: llvm.inline_asm has_side_effects "st.async
// MBAR-LANES-NEXT: nvvm.mbarrier.try_wait.parity
// MBAR-LANES-NOT: nvvm.cluster.
// MBAR-LANES-NOT: llvm.load
// MBAR-LANES: gpu.return
