// pipeline{stages=N} turns the one-stage TMA loop of the Hopper matmul v1
// (examples/hopper_matmul_v1_wgmma.mlir: announce, copy, wait in one single_thread, then
// wgmma and a block sync) into an N-stage ring shaped like
// examples/hopper_matmul_v2_pipeline.mlir, for N = 1 .. 6: stage-dimensioned buffers, N
// barriers of count 1, a prologue filling min(T, N) stages, and a loop that waits on its stage,
// computes on the stage's slices, refills the stage with tile i + N while i + N < T, and
// carries (stage, phase) in its iter_args. verify-barriers proves each result.
//
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=1},verify-barriers)' | FileCheck %s -DN=1 -DLIST='1'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=2},verify-barriers)' | FileCheck %s -DN=2 -DLIST='1, 1'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},verify-barriers)' | FileCheck %s -DN=3 -DLIST='1, 1, 1'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=4},verify-barriers)' | FileCheck %s -DN=4 -DLIST='1, 1, 1, 1'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=5},verify-barriers)' | FileCheck %s -DN=5 -DLIST='1, 1, 1, 1, 1'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=6},verify-barriers)' | FileCheck %s -DN=6 -DLIST='1, 1, 1, 1, 1, 1'
//
// The v0 loop (tilus.dot on register copies of the tiles) pipelines the same way and still
// matches the reference, for 5 iterations and for 1 (fewer than the 4 stages):
// RUN: tilus-opt %S/../../examples/hopper_matmul_v0_tma.mlir --pass-pipeline='builtin.module(pipeline{stages=4},verify-barriers)' -o %t.v0.mlir
// RUN: tilus-run %t.v0.mlir --arg m=128 --arg k=320 | FileCheck %s --check-prefix=V0
// RUN: tilus-run %t.v0.mlir --arg m=128 --arg k=64 --schedule random --seed 7 | FileCheck %s --check-prefix=V0
// V0: check c vs reference @matmul_ref: ok
//
// A loop that is already a ring (v2) is left alone, and the stage count is checked.
// RUN: tilus-opt %S/../../examples/hopper_matmul_v2_pipeline.mlir --pass-pipeline='builtin.module(pipeline{stages=3})' --pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// NONE: (S) 0 num-pipelined
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=0})' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: pipeline: stages must be in [1, 64], got 0
//
// CHECK-LABEL: tilus.kernel @hopper_matmul_v1
// CHECK:         %[[SA:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// CHECK-NEXT:    %[[SB:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// CHECK-NEXT:    %[[BARS:.*]] = mbarrier.alloc counts [[[LIST]]] : !mbarrier.barriers<[[N]]>
// CHECK:         %[[T:.*]] = arith.ceildivsi %k, %{{.*}} : i32
// CHECK-NEXT:    %[[NPRE:.*]] = arith.minsi %[[T]], %[[CN:.*]] : i32
// Prologue: one thread fills stages 0 .. min(T, N).
// CHECK-NEXT:    threadgroup.single_thread {
// CHECK-NEXT:      scf.for %[[S:.*]] = %{{.*}} to %[[NPRE]] step %{{.*}}  : i32 {
// CHECK:             %[[PA:.*]] = tilus.slice_shared %[[SA]][%[[S]]]
// CHECK-NEXT:        %[[PB:.*]] = tilus.slice_shared %[[SB]][%[[S]]]
// CHECK-NEXT:        mbarrier.arrive_expect_tx %[[BARS]][%[[S]] : i32], %{{.*}} : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:        tma.global_to_shared %{{.*}}, %[[PA]], %[[BARS]][%[[S]] : i32]
// CHECK-NEXT:        tma.global_to_shared %{{.*}}, %[[PB]], %[[BARS]][%[[S]] : i32]
// Main loop: (stage, phase) appended to the iter_args, the phase starting at the consumer's.
// CHECK:         %[[P0:.*]] = mbarrier.consumer_initial_phase
// CHECK-NEXT:    %[[RES:.*]]:3 = scf.for %[[I:.*]] = %{{.*}} to %[[T]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[STAGE:.*]] = %{{.*}}, %[[PHASE:.*]] = %[[P0]])
// CHECK:           mbarrier.wait %[[BARS]][%[[STAGE]] : i32], phase(%[[PHASE]]) : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:      threadgroup.sync
// CHECK-NEXT:      %[[A:.*]] = tilus.slice_shared %[[SA]][%[[STAGE]]]
// CHECK-NEXT:      %[[B:.*]] = tilus.slice_shared %[[SB]][%[[STAGE]]]
// CHECK-NEXT:      %[[BT:.*]] = tilus.permute_shared %[[B]] [1, 0]
// CHECK-NEXT:      wgmma.fence
// CHECK-NEXT:      %[[ACC2:.*]] = wgmma.mma %[[A]], %[[BT]], %[[ACC]]
// CHECK-NEXT:      wgmma.commit_group
// CHECK-NEXT:      wgmma.wait_group 0
// CHECK-NEXT:      threadgroup.sync
// Refill the stage with tile i + N while there is one.
// CHECK-NEXT:      %[[CN2:.*]] = arith.constant [[N]] : i32
// CHECK-NEXT:      %[[J:.*]] = arith.addi %[[I]], %[[CN2]] : i32
// CHECK-NEXT:      %[[MORE:.*]] = arith.cmpi slt, %[[J]], %[[T]] : i32
// CHECK-NEXT:      threadgroup.single_thread {
// CHECK-NEXT:        scf.if %[[MORE]] {
// CHECK:               mbarrier.arrive_expect_tx %[[BARS]][%[[STAGE]] : i32]
// CHECK-NEXT:          tma.global_to_shared %{{.*}}, %[[A]], %[[BARS]][%[[STAGE]] : i32]
// CHECK-NEXT:          tma.global_to_shared %{{.*}}, %[[B]], %[[BARS]][%[[STAGE]] : i32]
// Advance: stage = (stage + 1) % N, the phase flips when the stage wraps.
// CHECK:           %[[S1:.*]] = arith.addi %[[STAGE]], %{{.*}} : i32
// CHECK-NEXT:      %[[WRAP:.*]] = arith.cmpi eq, %[[S1]], %[[CN]] : i32
// CHECK-NEXT:      %[[NS:.*]] = arith.select %[[WRAP]], %{{.*}}, %[[S1]] : i32
// CHECK-NEXT:      %[[FLIP:.*]] = arith.xori %[[PHASE]], %{{.*}} : i32
// CHECK-NEXT:      %[[NP:.*]] = arith.select %[[WRAP]], %[[FLIP]], %[[PHASE]] : i32
// CHECK-NEXT:      scf.yield %[[ACC2]], %[[NS]], %[[NP]]
// CHECK:         tilus.cast %[[RES]]#0
// CHECK:         tilus.free_shared %[[SA]] : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// CHECK-NEXT:    tilus.free_shared %[[SB]] : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// CHECK-LABEL: tilus.kernel @matmul_ref
