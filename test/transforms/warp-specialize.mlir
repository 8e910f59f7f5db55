// warp-specialize splits the ring that pipeline{stages=N} makes of the Hopper matmul v1
// (examples/hopper_matmul_v1_wgmma.mlir) into a producer warp and one consumer warpgroup,
// shaped like examples/hopper_matmul_v3_warp_specialized.mlir with one consumer group, for
// N = 1 .. 6: the kernel grows from 4 to 5 warps; N empty barriers of count 128 (every
// consumer thread arrives once per phase) join the N full barriers of count 1; warp 4 waits on
// empty[stage] from the producer's initial phase, announces the bytes from one thread and
// issues the copies of tile i at warp scope; warps 0 .. 4 wait on full[stage], compute and
// arrive on empty[stage]; the epilogue runs in the consumer group, and both roles meet at one
// block-wide sync before the buffers are freed. verify-barriers proves each result.
//
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=1},warp-specialize,verify-barriers)' | FileCheck %s -DN=1 -DFULLS='1' -DEMPTYS='128'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=2},warp-specialize,verify-barriers)' | FileCheck %s -DN=2 -DFULLS='1, 1' -DEMPTYS='128, 128'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize,verify-barriers)' | FileCheck %s -DN=3 -DFULLS='1, 1, 1' -DEMPTYS='128, 128, 128'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=4},warp-specialize,verify-barriers)' | FileCheck %s -DN=4 -DFULLS='1, 1, 1, 1' -DEMPTYS='128, 128, 128, 128'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=5},warp-specialize,verify-barriers)' | FileCheck %s -DN=5 -DFULLS='1, 1, 1, 1, 1' -DEMPTYS='128, 128, 128, 128, 128'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=6},warp-specialize,verify-barriers)' | FileCheck %s -DN=6 -DFULLS='1, 1, 1, 1, 1, 1' -DEMPTYS='128, 128, 128, 128, 128, 128'
//
// The v0 loop (tilus.dot on register copies of the tiles) and the hand-written ring of v2 split
// the same way and still match the reference:
// RUN: tilus-opt %S/../../examples/hopper_matmul_v0_tma.mlir --pass-pipeline='builtin.module(pipeline{stages=4},warp-specialize,verify-barriers)' -o %t.v0.mlir
// RUN: tilus-run %t.v0.mlir --arg m=128 --arg k=320 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.v0.mlir --arg m=128 --arg k=64 --schedule random --seed 7 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-opt %S/../../examples/hopper_matmul_v2_pipeline.mlir --pass-pipeline='builtin.module(warp-specialize,verify-barriers)' -o %t.v2.mlir
// RUN: tilus-run %t.v2.mlir --arg k=448 --schedule random --seed 3 | FileCheck %s --check-prefix=INTERP
// INTERP: grid: {{.*}} blocks of 160 threads (5 warps)
// INTERP: check c vs reference @matmul_ref: ok
//
// The result lowers to PTX (tilus-to-ptx): 160 threads, N full and N empty barriers.
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize)' -o %t.ws3.mlir
// RUN: tilus-run %t.ws3.mlir --dump-ptx | FileCheck %s --check-prefix=PTX
// PTX: .maxntid 160, 1, 1
// PTX-COUNT-3: mbarrier.init.shared::cta.b64 {{.*}}, 1;
// PTX-COUNT-3: mbarrier.init.shared::cta.b64 {{.*}}, 128;
//
// Broken variants of that output are rejected by verify-barriers at the op, and the interpreter
// deadlocks on each (5 iterations): the consumers' release dropped, the producer starting at the
// consumers' phase (it waits for a release that needs its own fill), and an empty barrier
// counting the producer warp's threads too.
// RUN: sed '/mbarrier.arrive %/d' %t.ws3.mlir > %t.norelease.mlir
// RUN: not tilus-opt %t.norelease.mlir --verify-barriers -o /dev/null --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=NORELEASE
// NORELEASE: error: this wait never returns when the loop runs 4 iterations
// NORELEASE: note: barriers#1 is allocated here with counts [128, 128, 128]; an arrive on it is missing from a round
// RUN: not tilus-run %t.norelease.mlir --arg k=320 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: sed 's/= mbarrier.producer_initial_phase/= mbarrier.consumer_initial_phase/' %t.ws3.mlir > %t.phase.mlir
// RUN: not tilus-opt %t.phase.mlir --verify-barriers -o /dev/null --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=PHASE
// PHASE: error: deadlock: this wait on barriers#1[k mod 3] (parity 0 in iteration 0)
// RUN: not tilus-run %t.phase.mlir --arg k=320 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: sed 's/counts \[128, 128, 128\]/counts [160, 160, 160]/' %t.ws3.mlir > %t.count.mlir
// RUN: not tilus-opt %t.count.mlir --verify-barriers -o /dev/null --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: the phases of barriers#1[0] never complete: 128 arrivals per phase of the 160 the barrier counts (32 missing)
// RUN: not tilus-run %t.count.mlir --arg k=320 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// DEADLOCK: deadlock: every live unit is blocked
//
// A kernel that is already specialized (v3) is left alone; the options are checked.
// RUN: tilus-opt %S/../../examples/hopper_matmul_v3_warp_specialized.mlir --pass-pipeline='builtin.module(warp-specialize)' --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: (S) 0 num-specialized
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2})' 2>&1 | FileCheck %s --check-prefix=K2
// K2: warp-specialize: consumer-warpgroups=2 is not supported yet
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{producer-warps=2})' 2>&1 | FileCheck %s --check-prefix=P2
// P2: warp-specialize: producer-warps must be 1 (one warp issues the copies), got 2
// A kernel of 32 warps has no room for the producer warp:
// RUN: sed 's/^    warps(4)/    warps(32)/' %S/../../examples/hopper_matmul_v0_tma.mlir | not tilus-opt - --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize)' 2>&1 | FileCheck %s --check-prefix=W32
// W32: warp-specialize: the kernel has 32 warps; adding 1 producer warp would exceed the 32 warps of a block
//
// CHECK-LABEL: tilus.kernel @hopper_matmul_v1
// CHECK-SAME:    warps(5)
// CHECK:         %[[SA:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// CHECK-NEXT:    %[[SB:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// CHECK-NEXT:    %[[FULL:.*]] = mbarrier.alloc counts [[[FULLS]]] : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:    %[[EMPTY:.*]] = mbarrier.alloc counts [[[EMPTYS]]] : !mbarrier.barriers<[[N]]>
// CHECK:         %[[T:.*]] = arith.ceildivsi %k, %{{.*}} : i32
// No prologue: the producer's first round fills the stages.
// CHECK-NOT:     threadgroup.single_thread
// Producer: warp 4, every tile, (stage, phase) from the producer's initial phase.
// CHECK:         threadgroup.single_warp warp(4) {
// CHECK-NEXT:      %[[PP:.*]] = mbarrier.producer_initial_phase
// CHECK:           scf.for %[[PI:.*]] = %{{.*}} to %[[T]] step %{{.*}} iter_args(%[[PS:.*]] = %{{.*}}, %[[PPH:.*]] = %[[PP]]) -> (i32, i32)  : i32 {
// CHECK-NEXT:        mbarrier.wait %[[EMPTY]][%[[PS]] : i32], phase(%[[PPH]]) : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:        %[[KK:.*]] = arith.muli %[[PI]], %{{.*}} : i32
// CHECK-NEXT:        threadgroup.single_thread {
// CHECK-NEXT:          mbarrier.arrive_expect_tx %[[FULL]][%[[PS]] : i32], %{{.*}} : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[PA:.*]] = tilus.slice_shared %[[SA]][%[[PS]]]
// CHECK-NEXT:        tma.global_to_shared %{{.*}}[%{{.*}}, %[[KK]] : i32, i32], %[[PA]], %[[FULL]][%[[PS]] : i32]
// CHECK-NEXT:        %[[PB:.*]] = tilus.slice_shared %[[SB]][%[[PS]]]
// CHECK-NEXT:        tma.global_to_shared %{{.*}}[%{{.*}}, %[[KK]] : i32, i32], %[[PB]], %[[FULL]][%[[PS]] : i32]
// CHECK:             scf.yield
// Consumers: warps 0 .. 4 own the accumulator, wait on full, release on empty.
// CHECK:         threadgroup.warp_group warps(0, 4) {
// CHECK-NEXT:      %[[ACC0:.*]] = tilus.register_tensor
// CHECK-NEXT:      %[[CP:.*]] = mbarrier.consumer_initial_phase
// CHECK-NEXT:      %[[RES:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %[[T]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]], %[[CS:.*]] = %{{.*}}, %[[CPH:.*]] = %[[CP]])
// CHECK-NEXT:        mbarrier.wait %[[FULL]][%[[CS]] : i32], phase(%[[CPH]]) : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:        %[[A:.*]] = tilus.slice_shared %[[SA]][%[[CS]]]
// CHECK-NEXT:        %[[B:.*]] = tilus.slice_shared %[[SB]][%[[CS]]]
// CHECK-NEXT:        %[[BT:.*]] = tilus.permute_shared %[[B]] [1, 0]
// CHECK-NEXT:        wgmma.fence
// CHECK-NEXT:        %[[ACC2:.*]] = wgmma.mma %[[A]], %[[BT]], %[[ACC]]
// CHECK-NEXT:        wgmma.commit_group
// CHECK-NEXT:        wgmma.wait_group 0
// CHECK-NEXT:        mbarrier.arrive %[[EMPTY]][%[[CS]] : i32] : !mbarrier.barriers<[[N]]>
// CHECK:             scf.yield %[[ACC2]], %{{.*}}, %{{.*}}
// CHECK:           tilus.cast %[[RES]]#0
// CHECK-NEXT:      tilus.store_global
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.sync
// CHECK-NEXT:    tilus.free_shared %[[SA]] : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// CHECK-NEXT:    tilus.free_shared %[[SB]] : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// CHECK-LABEL: tilus.kernel @matmul_ref
