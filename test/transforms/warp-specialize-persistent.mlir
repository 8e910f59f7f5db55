// warp-specialize on the ring that pipeline{stages=N} carries across the tiles of a persistent
// kernel (examples/hopper_matmul_v1_persistent.mlir; pipeline-persistent.mlir shows the ring).
//
// The producer walks the same tile loop (`pid .. num_tiles step num_blocks`) with its own
// (stage, phase) carried from one tile's k loop to the next, starting at (0,
// producer_initial_phase): it computes the tile's coordinates once per tile (hoisted out of its
// k loop), then per k step waits on empty[stage], announces the bytes from one thread and
// issues the copies. It never waits for the consumers' epilogue, only for free stages, so it
// fills the next tile's first stages while the consumers convert and store the current one. The
// prologue is gone (the producer's first round fills the ring) and so is the walk's arithmetic
// (the linear step, its division into tile and k step): the producer's own loops are the walk.
// The consumers keep the tile loop with the k loop and the epilogue; their refill became the
// release of the stage.
//
// K = 1: one consumer warpgroup with the whole 128 x 256 accumulator (256 registers a thread:
// ptxas spills it, see warp-specialize-persistent-ptxas.mlir; K = 2 is the configuration to run).
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=1},warp-specialize,verify-barriers)' | FileCheck %s -DN=1 -DEMPTYS='128'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=2},warp-specialize,verify-barriers)' | FileCheck %s -DN=2 -DEMPTYS='128, 128'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize,verify-barriers)' | FileCheck %s -DN=3 -DEMPTYS='128, 128, 128'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=4},warp-specialize,verify-barriers)' | FileCheck %s -DN=4 -DEMPTYS='128, 128, 128, 128'
//
// K = 2: rows 0 .. 64 and 64 .. 128 of each tile in two warpgroups, A in two 64-row boxes, B
// shared: v4's shape (examples/hopper_matmul_v4_persistent.mlir).
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=1},warp-specialize{consumer-warpgroups=2},verify-barriers)' | FileCheck %s --check-prefix=K2 -DN=1 -DEMPTYS='256'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=2},warp-specialize{consumer-warpgroups=2},verify-barriers)' | FileCheck %s --check-prefix=K2 -DN=2 -DEMPTYS='256, 256'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2},verify-barriers)' | FileCheck %s --check-prefix=K2 -DN=3 -DEMPTYS='256, 256, 256'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=4},warp-specialize{consumer-warpgroups=2},verify-barriers)' | FileCheck %s --check-prefix=K2 -DN=4 -DEMPTYS='256, 256, 256, 256'
//
// mma-in-flight=1 (N >= 2): as v4, each consumer waits with `wgmma.wait_group 1` (the previous
// k step's MMA has retired, this one stays in flight), releases the previous stage
// `(stage + N - 1) rem N` from the second k step on, and after the k loop retires the last MMA
// with `wait_group 0` and releases its stage when the tile had k steps: the producer goes on
// into the next tile and needs it.
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=2},warp-specialize{consumer-warpgroups=2 mma-in-flight=1},verify-barriers)' | FileCheck %s --check-prefix=FLIGHT -DN=2 -DBACK=1
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2 mma-in-flight=1},verify-barriers)' | FileCheck %s --check-prefix=FLIGHT -DN=3 -DBACK=2
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=4},warp-specialize{consumer-warpgroups=2 mma-in-flight=1},verify-barriers)' | FileCheck %s --check-prefix=FLIGHT -DN=4 -DBACK=3
//
// The options are checked: one stage cannot keep an MMA in flight over its own release.
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=1},warp-specialize{mma-in-flight=1})' --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=ONE-STAGE
// ONE-STAGE: error: warp-specialize: mma-in-flight=1: releasing the previous k step's stage while the current one is read needs a ring of at least 2 stages (this one has 1)
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=2},warp-specialize{mma-in-flight=2})' --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=BAD-OPTION
// BAD-OPTION: error: warp-specialize: mma-in-flight must be 0 or 1, got 2
//
// verify-barriers rejects the result with the in-loop release moved back to the current stage
// after `wait_group 1` (the stage the MMA in flight still reads), at both consumers.
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2 mma-in-flight=1})' -o %t.mlir
// RUN: sed -e 's/^            mbarrier.arrive %17\[%[0-9]* : i32\]/            mbarrier.arrive %17[%arg6 : i32]/' %t.mlir > %t.current.mlir
// RUN: not tilus-opt %t.current.mlir --verify-barriers -o /dev/null --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=CURRENT
// CURRENT-COUNT-2: error: this releases a stage while a wgmma.mma may still be reading it: 1 MMA group is not retired by wgmma.wait_group
// The interpreter runs into the consequence: the stage released early is released again by no
// one, and the producer waits for it forever.
// RUN: not tilus-run %t.current.mlir 2>&1 | FileCheck %s --check-prefix=CURRENT-RUN
// CURRENT-RUN: deadlock: every live unit is blocked

// CHECK-LABEL: tilus.kernel @hopper_matmul_v1_persistent
// CHECK-SAME:    warps(8)
// CHECK:         %[[PID:.*]] = tilus.block_id x
// CHECK-NEXT:    tilus.num_blocks x
// CHECK:         arith.cmpi slt, %[[PID]], %[[NB:.*]] : i32
// CHECK-NEXT:    %[[TILES:.*]] = arith.select
// CHECK:         %[[SA:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// CHECK-NEXT:    %[[SB:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x256x64xf16, swizzle = 128B>
// CHECK-NEXT:    %[[FULL:.*]] = mbarrier.alloc counts [{{[1, ]+}}] : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:    %[[EMPTY:.*]] = mbarrier.alloc counts [[[EMPTYS]]] : !mbarrier.barriers<[[N]]>
// CHECK:         %[[T:.*]] = arith.maxsi
// CHECK-NOT:     threadgroup.single_thread
// CHECK-NOT:     arith.divui
// CHECK:         threadgroup.warp_group warps(4, 4) {
// CHECK-NEXT:      threadgroup.setmaxnreg dec 40
// CHECK-NEXT:      threadgroup.single_warp {
// CHECK-NEXT:        %[[PP:.*]] = mbarrier.producer_initial_phase
// CHECK:             %[[PEND:.*]]:2 = scf.for %[[PT:.*]] = %[[PID]] to %[[TILES]] step %[[NB]] iter_args(%[[PTS:.*]] = %{{.*}}, %[[PTP:.*]] = %[[PP]]) -> (i32, i32)  : i32 {
// CHECK-NEXT:          arith.muli
// CHECK-NEXT:          tilus.fast_divmod %[[PT]]
// CHECK:               %[[OM:.*]] = arith.muli %{{.*}}, %c128_i32 : i32
// CHECK-NEXT:          %[[ON:.*]] = arith.muli %{{.*}}, %c256_i32 : i32
// CHECK-NEXT:          %[[PK:.*]]:2 = scf.for %[[PI:.*]] = %{{.*}} to %[[T]] step %{{.*}} iter_args(%[[PS:.*]] = %[[PTS]], %[[PPH:.*]] = %[[PTP]]) -> (i32, i32)  : i32 {
// CHECK-NEXT:            mbarrier.wait %[[EMPTY]][%[[PS]] : i32], phase(%[[PPH]]) : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:            %[[KK:.*]] = arith.muli %[[PI]], %{{.*}} : i32
// CHECK-NEXT:            %[[PA:.*]] = tilus.slice_shared %[[SA]][%[[PS]]]
// CHECK-NEXT:            %[[PB:.*]] = tilus.slice_shared %[[SB]][%[[PS]]]
// CHECK-NEXT:            threadgroup.single_thread {
// CHECK-NEXT:              mbarrier.arrive_expect_tx %[[FULL]][%[[PS]] : i32], %{{.*}} : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:            }
// CHECK-NEXT:            tma.global_to_shared %{{.*}}[%[[OM]], %[[KK]] : i32, i32], %[[PA]], %[[FULL]][%[[PS]] : i32]
// CHECK-NEXT:            tma.global_to_shared %{{.*}}[%[[ON]], %[[KK]] : i32, i32], %[[PB]], %[[FULL]][%[[PS]] : i32]
// CHECK:                 scf.yield
// CHECK-NEXT:          }
// CHECK-NEXT:          scf.yield %[[PK]]#0, %[[PK]]#1 : i32, i32
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.warp_group warps(0, 4) {
// CHECK-NEXT:      threadgroup.setmaxnreg inc 256
// CHECK-NEXT:      %[[CP:.*]] = mbarrier.consumer_initial_phase
// CHECK-NEXT:      %{{.*}}:3 = scf.for %[[CT:.*]] = %[[PID]] to %[[TILES]] step %[[NB]] iter_args(%[[CTP:.*]] = %[[CP]], %[[CTS:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) -> (i32, i32, i32)  : i32 {
// CHECK:             tilus.fast_divmod %[[CT]]
// CHECK:             %[[ACC0:.*]] = tilus.register_tensor
// CHECK-NEXT:        %[[RES:.*]]:3 = scf.for %{{.*}} = %{{.*}} to %[[T]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]], %[[CS:.*]] = %[[CTS]], %[[CPH:.*]] = %[[CTP]])
// CHECK-NEXT:          mbarrier.wait %[[FULL]][%[[CS]] : i32], phase(%[[CPH]]) : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:          %[[A:.*]] = tilus.slice_shared %[[SA]][%[[CS]]]
// CHECK-NEXT:          %[[B:.*]] = tilus.slice_shared %[[SB]][%[[CS]]]
// CHECK-NEXT:          %[[BT:.*]] = tilus.permute_shared %[[B]] [1, 0]
// CHECK-NEXT:          wgmma.fence
// CHECK-NEXT:          %[[ACC2:.*]] = wgmma.mma %[[A]], %[[BT]], %[[ACC]]
// CHECK-NEXT:          wgmma.commit_group
// CHECK-NEXT:          wgmma.wait_group 0
// CHECK-NEXT:          mbarrier.arrive %[[EMPTY]][%[[CS]] : i32] : !mbarrier.barriers<[[N]]>
// CHECK:               scf.yield %[[ACC2]], %{{.*}}, %{{.*}}
// CHECK-NEXT:        }
// CHECK-NEXT:        tilus.cast %[[RES]]#0
// CHECK-NEXT:        tilus.store_global
// CHECK:             scf.yield %[[RES]]#2, %[[RES]]#1, %{{.*}} : i32, i32, i32
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.sync
// CHECK-NEXT:    tilus.free_shared %[[SA]]
// CHECK-NEXT:    tilus.free_shared %[[SB]]
// CHECK-LABEL: tilus.kernel @matmul_ref

// K2-LABEL: tilus.kernel @hopper_matmul_v1_persistent
// K2-SAME:    warps(12)
// K2:         %[[SA:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x2x64x64xf16, swizzle = 128B>
// K2-NEXT:    %[[SB:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x256x64xf16, swizzle = 128B>
// K2-NEXT:    %[[FULL:.*]] = mbarrier.alloc counts [{{[1, ]+}}] : !mbarrier.barriers<[[N]]>
// K2-NEXT:    %[[EMPTY:.*]] = mbarrier.alloc counts [[[EMPTYS]]] : !mbarrier.barriers<[[N]]>
// K2:         threadgroup.warp_group warps(8, 4) {
// K2-NEXT:      threadgroup.setmaxnreg dec 40
// K2-NEXT:      threadgroup.single_warp {
// K2:             scf.for
// K2:               %[[OM:.*]] = arith.muli %{{.*}}, %c128_i32 : i32
// K2:               scf.for
// K2-NEXT:            mbarrier.wait %[[EMPTY]][%[[PS:.*]] : i32]
// K2:                 mbarrier.arrive_expect_tx %[[FULL]][%[[PS]] : i32], %c49152_i32
// K2:                 %[[A0:.*]] = tilus.slice_shared %[[SA]][%[[PS]], %{{.*}}] : !tilus.shared<[[N]]x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
// K2-NEXT:            tma.global_to_shared %{{.*}}[%[[OM]], %[[KK:.*]] : i32, i32], %[[A0]], %[[FULL]][%[[PS]] : i32]
// K2:                 %[[A1:.*]] = tilus.slice_shared %[[SA]][%[[PS]], %{{.*}}]
// K2:                 %[[OM1:.*]] = arith.addi %[[OM]], %{{.*}} : i32
// K2-NEXT:            tma.global_to_shared %{{.*}}[%[[OM1]], %[[KK]] : i32, i32], %[[A1]], %[[FULL]][%[[PS]] : i32]
// K2:                 tma.global_to_shared %{{.*}}, %[[FULL]][%[[PS]] : i32] : !tilus.global<?x?xf16>, !tilus.shared<256x64xf16, swizzle = 128B>
// K2:         threadgroup.warp_group warps(0, 4) {
// K2-NEXT:      threadgroup.setmaxnreg inc 232
// K2:           scf.for
// K2:             tilus.register_tensor init(%{{.*}} : f32) : !tilus.reg<64x256xf32, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
// K2:               mbarrier.wait %[[FULL]][%[[CS:.*]] : i32]
// K2-NEXT:          %[[C0:.*]] = arith.constant 0 : i32
// K2-NEXT:          %[[GA:.*]] = tilus.slice_shared %[[SA]][%[[CS]], %[[C0]]]
// K2:               wgmma.mma %[[GA]], %{{.*}}, %{{.*}} : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x256xf32,
// K2:               mbarrier.arrive %[[EMPTY]][%[[CS]] : i32]
// K2:             tilus.store_global %{{.*}}, %{{.*}}[%[[ROW0:[^,]*]], %{{.*}}]
// K2:         threadgroup.warp_group warps(4, 4) {
// K2-NEXT:      threadgroup.setmaxnreg inc 232
// K2:               mbarrier.wait %[[FULL]][%[[CS1:.*]] : i32]
// K2-NEXT:          %[[C1:.*]] = arith.constant 1 : i32
// K2-NEXT:          %[[GA1:.*]] = tilus.slice_shared %[[SA]][%[[CS1]], %[[C1]]]
// K2:               wgmma.mma %[[GA1]]
// K2:               mbarrier.arrive %[[EMPTY]][%[[CS1]] : i32]
// K2:             %[[ROW1:.*]] = arith.addi %{{.*}}, %c64_i32{{.*}} : i32
// K2-NEXT:        tilus.store_global %{{.*}}, %{{.*}}[%[[ROW1]], %{{.*}}]
// K2:         threadgroup.sync
// K2-LABEL: tilus.kernel @matmul_ref

// FLIGHT-LABEL: tilus.kernel @hopper_matmul_v1_persistent
// FLIGHT:         %[[EMPTY:.*]] = mbarrier.alloc counts [{{[256, ]+}}] : !mbarrier.barriers<[[N]]>
// FLIGHT:         threadgroup.warp_group warps(0, 4) {
// FLIGHT:             tilus.register_tensor
// FLIGHT-NEXT:        %[[RES:[^ ]*]]:3 = scf.for %[[I:[^ ]*]] = %{{[^ ]*}} to %[[T:[^ ]*]] step %{{[^ ]*}} iter_args(%{{[^ ]*}} = %{{[^ ]*}}, %[[CS:[^ ]*]] = %{{[^ ]*}}, %{{[^ ]*}} = %{{[^ ]*}})
// FLIGHT:               wgmma.commit_group
// FLIGHT-NEXT:          wgmma.wait_group 1
// FLIGHT-NEXT:          %[[BK:.*]] = arith.constant [[BACK]] : i32
// FLIGHT-NEXT:          %[[NN:.*]] = arith.constant [[N]] : i32
// FLIGHT-NEXT:          %[[X:.*]] = arith.addi %[[CS]], %[[BK]] : i32
// FLIGHT-NEXT:          %[[PREV:.*]] = arith.remui %[[X]], %[[NN]] : i32
// FLIGHT-NEXT:          %[[ONE:.*]] = arith.constant 1 : i32
// FLIGHT-NEXT:          %[[HAS:.*]] = arith.cmpi sge, %[[I]], %[[ONE]] : i32
// FLIGHT-NEXT:          scf.if %[[HAS]] {
// FLIGHT-NEXT:            mbarrier.arrive %[[EMPTY]][%[[PREV]] : i32]
// FLIGHT-NEXT:          }
// FLIGHT:             }
// FLIGHT-NEXT:        wgmma.wait_group 0
// FLIGHT-NEXT:        %[[Z:.*]] = arith.constant 0 : i32
// FLIGHT-NEXT:        %[[HAD:.*]] = arith.cmpi sgt, %[[T]], %[[Z]] : i32
// FLIGHT-NEXT:        %[[BACK2:.*]] = arith.constant [[BACK]] : i32
// FLIGHT-NEXT:        %[[NN2:.*]] = arith.constant [[N]] : i32
// FLIGHT-NEXT:        %[[X2:.*]] = arith.addi %[[RES]]#1, %[[BACK2]] : i32
// FLIGHT-NEXT:        %[[LAST:.*]] = arith.remui %[[X2]], %[[NN2]] : i32
// FLIGHT-NEXT:        scf.if %[[HAD]] {
// FLIGHT-NEXT:          mbarrier.arrive %[[EMPTY]][%[[LAST]] : i32]
// FLIGHT-NEXT:        }
// FLIGHT-NEXT:        tilus.cast %[[RES]]#0
// FLIGHT:         threadgroup.warp_group warps(4, 4) {
// FLIGHT:               wgmma.wait_group 1
// FLIGHT:             wgmma.wait_group 0
// FLIGHT-LABEL: tilus.kernel @matmul_ref
