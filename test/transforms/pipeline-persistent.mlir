// pipeline{stages=N} on a persistent kernel (examples/hopper_matmul_v1_persistent.mlir): the
// one-stage k loop sits in the tile loop, and the ring it becomes is carried across tiles.
//
// * Set-up before the tile loop: N-stage buffers and N count-1 barriers; the k loop's trip count
//   T = max(ceildiv(K, 64), 0), the block's tile count max(ceildiv(num_tiles - pid, num_blocks),
//   0), and their product G, the block's k steps in one linear walk (step j is k step j rem T of
//   the block's tile j / T).
// * Prologue: one thread fills steps 0 .. min(G, N) of the walk, each recomputing its tile's
//   coordinates (the tile loop's code, cloned for tile lb + (j / T) * step), so with T < N the
//   prologue already reaches into the next tiles.
// * The tile loop carries the barrier's phase as before, plus the stage and the tile's first step
//   `base` of the walk (yielded as base + T): each tile's k loop starts where the previous left.
// * Refill: step base + i + N of the walk while it is < G, into the stage just consumed. No tile
//   drains the ring: the refills of a tile's last N k steps load the next tile's first ones.
//
// verify-barriers accepts each result (the ring's stage at the k loop's start is an iter_arg of
// the tile loop, a form it skips rather than proves; see docs/design/notes.md).
//
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=1},verify-barriers)' | FileCheck %s -DN=1 -DFULLS='1'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=2},verify-barriers)' | FileCheck %s -DN=2 -DFULLS='1, 1'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=3},verify-barriers)' | FileCheck %s -DN=3 -DFULLS='1, 1, 1'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=4},verify-barriers)' | FileCheck %s -DN=4 -DFULLS='1, 1, 1, 1'
//
// Five stages of 48 KiB do not fit the 227 KiB of shared memory of a block: the verifier after
// the pass says so at the loop (the tile is v4's 128 x 256, 3 stages in v4).
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=5})' --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=TOO-BIG
// TOO-BIG: error: 'tilus.shared_tensor' op expects the block's shared memory to fit in 232448 bytes, but this allocation of 163840 bytes (aligned to 1024) ends at byte 245760
//
// The interpreter runs the results against the reference in pipeline-persistent-sweep.mlir.

// CHECK-LABEL: tilus.kernel @hopper_matmul_v1_persistent
// CHECK-SAME:    warps(4)
// CHECK:         %[[PID:.*]] = tilus.block_id x
// CHECK-NEXT:    tilus.num_blocks x
// CHECK:         arith.cmpi slt, %[[PID]], %[[NB:.*]] : i32
// CHECK:         %[[PH0:.*]] = mbarrier.consumer_initial_phase
// CHECK-NEXT:    %[[SA:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// CHECK-NEXT:    %[[SB:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x256x64xf16, swizzle = 128B>
// CHECK-NEXT:    %[[FULL:.*]] = mbarrier.alloc counts [[[FULLS]]] : !mbarrier.barriers<[[N]]>
// CHECK:         %[[KT:.*]] = arith.ceildivsi %k, %{{.*}} : i32
// CHECK-NEXT:    %[[T:.*]] = arith.maxsi %[[KT]], %{{.*}} : i32
// CHECK-NEXT:    %[[SPAN:.*]] = arith.subi %[[TILES:.*]], %[[PID]] : i32
// CHECK-NEXT:    %[[OT:.*]] = arith.ceildivsi %[[SPAN]], %[[NB]] : i32
// CHECK-NEXT:    %[[MYTILES:.*]] = arith.maxsi %[[OT]], %{{.*}} : i32
// CHECK-NEXT:    %[[G:.*]] = arith.muli %[[MYTILES]], %[[T]] : i32
// CHECK-NEXT:    %[[NPRE:.*]] = arith.minsi %[[G]], %{{.*}} : i32
// CHECK-NEXT:    threadgroup.single_thread {
// CHECK-NEXT:      scf.for %[[J:.*]] = %{{.*}} to %[[NPRE]] step %{{.*}}  : i32 {
// CHECK-NEXT:        %[[U:.*]] = arith.divui %[[J]], %[[T]] : i32
// CHECK-NEXT:        %[[R:.*]] = arith.remui %[[J]], %[[T]] : i32
// CHECK-NEXT:        %[[TU:.*]] = arith.muli %[[U]], %[[NB]] : i32
// CHECK-NEXT:        %[[TILE:.*]] = arith.addi %[[PID]], %[[TU]] : i32
// CHECK:             tilus.fast_divmod %[[TILE]]
// CHECK:             %[[PKK:.*]] = arith.muli %[[R]], %{{.*}} : i32
// CHECK-NEXT:        %[[PA:.*]] = tilus.slice_shared %[[SA]][%[[J]]]
// CHECK-NEXT:        %[[PB:.*]] = tilus.slice_shared %[[SB]][%[[J]]]
// CHECK-NEXT:        mbarrier.arrive_expect_tx %[[FULL]][%[[J]] : i32], %{{.*}} : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:        tma.global_to_shared %{{.*}}[%{{.*}}, %[[PKK]] : i32, i32], %[[PA]], %[[FULL]][%[[J]] : i32]
// CHECK-NEXT:        tma.global_to_shared %{{.*}}[%{{.*}}, %[[PKK]] : i32, i32], %[[PB]], %[[FULL]][%[[J]] : i32]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[END:.*]]:3 = scf.for %[[TI:.*]] = %[[PID]] to %[[TILES]] step %[[NB]] iter_args(%[[PH:.*]] = %[[PH0]], %[[ST:.*]] = %{{.*}}, %[[BASE:.*]] = %{{.*}}) -> (i32, i32, i32)  : i32 {
// CHECK:           tilus.fast_divmod %[[TI]]
// CHECK:           %[[ACC0:.*]] = tilus.register_tensor
// CHECK-NEXT:      %[[RES:.*]]:3 = scf.for %[[I:.*]] = %{{.*}} to %[[T]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]], %[[S:.*]] = %[[ST]], %[[P:.*]] = %[[PH]])
// CHECK-NEXT:        %[[KK:.*]] = arith.muli %[[I]], %{{.*}} : i32
// CHECK-NEXT:        mbarrier.wait %[[FULL]][%[[S]] : i32], phase(%[[P]]) : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:        threadgroup.sync
// CHECK:             wgmma.mma
// CHECK-NEXT:        wgmma.commit_group
// CHECK-NEXT:        wgmma.wait_group 0
// CHECK-NEXT:        threadgroup.sync
// CHECK-NEXT:        %[[STEP:.*]] = arith.addi %[[BASE]], %[[I]] : i32
// CHECK-NEXT:        %{{.*}} = arith.constant [[N]] : i32
// CHECK-NEXT:        %[[NEXT:.*]] = arith.addi %[[STEP]], %{{.*}} : i32
// CHECK-NEXT:        %[[MORE:.*]] = arith.cmpi slt, %[[NEXT]], %[[G]] : i32
// CHECK-NEXT:        threadgroup.single_thread {
// CHECK-NEXT:          scf.if %[[MORE]] {
// CHECK-NEXT:            arith.divui %[[NEXT]], %[[T]] : i32
// CHECK-NEXT:            arith.remui %[[NEXT]], %[[T]] : i32
// CHECK:                 mbarrier.arrive_expect_tx %[[FULL]][%[[S]] : i32]
// CHECK-NEXT:            tma.global_to_shared
// CHECK-NEXT:            tma.global_to_shared
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK:             scf.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      tilus.cast %[[RES]]#0
// CHECK-NEXT:      tilus.store_global
// CHECK-NEXT:      %[[NBASE:.*]] = arith.addi %[[BASE]], %[[T]] : i32
// CHECK-NEXT:      scf.yield %[[RES]]#2, %[[RES]]#1, %[[NBASE]] : i32, i32, i32
// CHECK-NEXT:    }
// CHECK-NEXT:    tilus.free_shared %[[SA]]
// CHECK-NEXT:    tilus.free_shared %[[SB]]
// CHECK-LABEL: tilus.kernel @matmul_ref
