// tma-store-epilogue (issue 15): a group's store of a register tile goes through a 128B-swizzled
// shared buffer and TMA bulk stores (examples/hopper_matmul_v6_tma_epilogue.mlir's
// epilogue), with the direct store kept for a C that TMA cannot write.
//
// v1_persistent through pipeline{stages=3} and warp-specialize{consumer-warpgroups=2
// mma-in-flight=1} (v4's kernel): each consumer warpgroup gets its own buffer, allocated as four
// [64, 64] boxes (box-major, so the accumulator's stores are free of bank conflicts) and
// written through its [64, 4, 64] view; one TMA store a box into C viewed with the row pitch
// ceil(N / 64) * 64 (C when 64 divides N, a valid tensor map for every N); verify-barriers
// still accepts it. (These checks are with overlap-epilogue=false; the overlap, the default,
// is checked below.)
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2 mma-in-flight=1},tma-store-epilogue{overlap-epilogue=false},verify-barriers)' -o %t.k2.mlir
// RUN: FileCheck %s --check-prefix=K2 < %t.k2.mlir
// K2-LABEL: tilus.kernel @hopper_matmul_v1_persistent
// K2-SAME:    warps(12)
// K2:         %[[GC:.*]] = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
// K2-NEXT:    %[[E:.*]] = arith.constant 64 : i32
// K2-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// K2-NEXT:    %[[CH:.*]] = arith.ceildivsi %n, %[[E]] : i32
// K2-NEXT:    %[[PITCH:.*]] = arith.muli %[[CH]], %[[E]] : i32
// K2-NEXT:    %[[GC2:.*]] = tilus.global_view %c[%m, %[[PITCH]]] strides[%[[PITCH]]] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [?, 1]>
// K2-NEXT:    %[[REM:.*]] = arith.remsi %n, %[[E]] : i32
// K2-NEXT:    %[[OK:.*]] = arith.cmpi eq, %[[REM]], %[[Z]] : i32
// K2:         threadgroup.warp_group warps(8, 4) {
// K2-NOT:       tma.shared_to_global
// K2:         %[[BUF0:.*]] = tilus.shared_tensor : !tilus.shared<4x64x64xf16, swizzle = 128B>
// K2-NEXT:    %[[VIEW0:.*]] = tilus.permute_shared %[[BUF0]] [1, 0, 2] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
// K2-NEXT:    threadgroup.warp_group warps(0, 4) {
// The tile loop carries the previous tile's row, column and "boxes pending" (the deferral,
// defer-boxes=true): box j of the previous tile goes out at step j of the k loop (j = 1..3),
// the boxes a k loop of fewer steps did not reach right after it, box 0 in the epilogue, and
// the last tile's boxes 1..3 after the tile loop.
// K2:             %[[TILES:.*]]:6 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args({{.*}}, %[[PROW:.*]] = %{{.*}}, %[[PCOL:.*]] = %{{.*}}, %[[PEND:.*]] = %false) -> (i32, i32, i32, i32, i32, i1)
// K2:               %[[ON:.*]] = arith.muli %{{.*}}, %c256_i32 : i32
// K2:               scf.for %[[KIV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(
// K2:                 wgmma.mma
// K2:                 %[[LT:.*]] = arith.cmpi slt, %[[KIV]], %{{.*}} : i32
// K2-NEXT:            %[[IN:.*]] = arith.andi %{{.*}}, %[[LT]] : i1
// K2-NEXT:            %[[GO:.*]] = arith.andi %[[IN]], %[[PEND]] : i1
// K2-NEXT:            scf.if %[[GO]] {
// K2-NEXT:              threadgroup.single_thread {
// K2-NEXT:                %[[BJ:.*]] = tilus.slice_shared %[[BUF0]][%[[KIV]]]
// K2:                     %[[OFF:.*]] = arith.shli %[[KIV]], %{{.*}} : i32
// K2-NEXT:                %[[CJ:.*]] = arith.addi %[[PCOL]], %[[OFF]] : i32
// K2-NEXT:                tma.shared_to_global %[[BJ]], %[[GC2]][%[[PROW]], %[[CJ]] : i32, i32]
// K2-NEXT:                tma.commit_group
// K2:               scf.if %[[PEND]] {
// K2:                 scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// K2-NEXT:              threadgroup.single_thread {
// K2:                     tma.shared_to_global %{{.*}}, %[[GC2]][%[[PROW]], %{{.*}} : i32, i32]
// K2:               %[[OUT:.*]] = tilus.cast
// K2:               scf.if %[[OK]] {
// K2-NEXT:            threadgroup.single_thread {
// K2-NEXT:              tma.wait_group 0 read
// K2-NEXT:            }
// K2-NEXT:            threadgroup.sync
// K2-NEXT:            tilus.store_shared %[[OUT]], %[[VIEW0]] : !tilus.reg<64x256xf16, {{.*}}>, !tilus.shared<64x4x64xf16, strides = [64, 4096, 1], swizzle = 128B>
// K2-NEXT:            tma.fence_proxy_async shared
// K2-NEXT:            threadgroup.sync
// K2-NEXT:            threadgroup.single_thread {
// K2-NEXT:              %[[Q0:.*]] = arith.constant 0 : i32
// K2-NEXT:              %[[B0:.*]] = tilus.slice_shared %[[BUF0]][%[[Q0]]] : !tilus.shared<4x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
// K2-NEXT:              tma.shared_to_global %[[B0]], %[[GC2]][%[[ROW:.*]], %[[ON]] : i32, i32] : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
// K2-NEXT:              tma.commit_group
// K2-NEXT:            }
// K2-NEXT:          } else {
// K2-NEXT:            tilus.store_global %[[OUT]], %[[GC]]
// K2-NEXT:          }
// K2:               scf.yield %{{.*}}, %[[ROW]], %[[ON]], %[[OK]] : i32, i32, i32, i32, i32, i1
// K2-NEXT:        }
// K2:             scf.if %[[TILES]]#5 {
// K2:               scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} : i32 {
// K2-NEXT:            threadgroup.single_thread {
// K2:                   tma.shared_to_global %{{.*}}, %[[GC2]][%[[TILES]]#3, %{{.*}} : i32, i32]
// K2:           threadgroup.single_thread {
// K2-NEXT:        tma.wait_group 0
// K2-NEXT:      }
// K2-NEXT:      threadgroup.sync
// K2-NEXT:    }
// K2-NEXT:    %[[BUF1:.*]] = tilus.shared_tensor : !tilus.shared<4x64x64xf16, swizzle = 128B>
// K2-NEXT:    %[[VIEW1:.*]] = tilus.permute_shared %[[BUF1]]
// K2-NEXT:    threadgroup.warp_group warps(4, 4) {
// K2:             scf.if %[[OK]] {
// K2:               tilus.store_shared %{{.*}}, %[[VIEW1]]
// K2:               tilus.slice_shared %[[BUF1]]
// K2-NEXT:          tma.shared_to_global %{{.*}}, %[[GC2]]
//
// With overlap-epilogue (the default) the tile loop also carries the tile itself (converted,
// 16-bit): the previous tile is written into the buffer, and its box 0 sent, at step 0 of the
// k loop, after the step's MMAs are issued and before the wgmma wait, so that the shared
// stores run under them; a k loop of no step does it right after; the tile's own epilogue
// keeps only the direct store; the last tile goes out after the tile loop, then its boxes 1..3.
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2 mma-in-flight=1},tma-store-epilogue,verify-barriers)' -o %t.ov.mlir
// RUN: FileCheck %s --check-prefix=OV < %t.ov.mlir
// RUN: tilus-run %t.ov.mlir | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.ov.mlir --schedule random --seed 5 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.ov.mlir --arg k=64 --arg num_sms=2 --schedule random --seed 6 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.ov.mlir --arg k=0 --arg num_sms=2 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.ov.mlir --arg n=200 --schedule random --seed 8 | FileCheck %s --check-prefix=INTERP
// OV-LABEL: tilus.kernel @hopper_matmul_v1_persistent
// OV:         %[[VIEW0:.*]] = tilus.permute_shared %{{.*}} [1, 0, 2]
// OV-NEXT:    threadgroup.warp_group warps(0, 4) {
// OV:           %[[UNDEF:.*]] = tilus.register_tensor : !tilus.reg<64x256xf16, {{.*}}>
// OV-NEXT:      %[[TILES:.*]]:7 = scf.for {{.*}} iter_args({{.*}}, %[[PROW:.*]] = %{{.*}}, %[[PCOL:.*]] = %{{.*}}, %[[PEND:.*]] = %false, %[[PTILE:.*]] = %[[UNDEF]]) -> (i32, i32, i32, i32, i32, i1, !tilus.reg<64x256xf16, {{.*}}>)
// OV:             scf.for %[[KIV:.*]] = %{{.*}} to %[[KUB:.*]] step %{{.*}} iter_args(
// OV:               wgmma.mma
// OV-NEXT:          wgmma.commit_group
// OV-NEXT:          %[[Z:.*]] = arith.constant 0 : i32
// OV-NEXT:          %[[FIRST:.*]] = arith.cmpi eq, %[[KIV]], %[[Z]] : i32
// OV-NEXT:          %[[GO:.*]] = arith.andi %[[FIRST]], %[[PEND]] : i1
// OV-NEXT:          scf.if %[[GO]] {
// OV-NEXT:            threadgroup.single_thread {
// OV-NEXT:              tma.wait_group 0 read
// OV-NEXT:            }
// OV-NEXT:            threadgroup.sync
// OV-NEXT:            tilus.store_shared %[[PTILE]], %[[VIEW0]]
// OV-NEXT:            tma.fence_proxy_async shared
// OV-NEXT:            threadgroup.sync
// OV-NEXT:            threadgroup.single_thread {
// OV:                   tma.shared_to_global %{{.*}}, %{{.*}}[%[[PROW]], %[[PCOL]] : i32, i32]
// OV-NEXT:              tma.commit_group
// OV-NEXT:            }
// OV-NEXT:          } else {
// OV-NEXT:          }
// OV-NEXT:          wgmma.wait_group 1
// OV:             %[[NONE:.*]] = arith.cmpi slt, %[[KUB]], %{{.*}} : i32
// OV-NEXT:        %[[GO2:.*]] = arith.andi %[[NONE]], %[[PEND]] : i1
// OV-NEXT:        scf.if %[[GO2]] {
// OV:               tilus.store_shared %[[PTILE]], %[[VIEW0]]
// OV:             %[[OUT:.*]] = tilus.cast
// OV-NEXT:        scf.if %{{.*}} {
// OV-NEXT:        } else {
// OV-NEXT:          tilus.store_global %[[OUT]]
// OV-NEXT:        }
// OV:             scf.yield {{.*}}, %[[OUT]] : i32, i32, i32, i32, i32, i1, !tilus.reg<64x256xf16, {{.*}}>
// OV:           scf.if %[[TILES]]#5 {
// OV:             tilus.store_shared %[[TILES]]#6, %[[VIEW0]]
// OV:             tma.shared_to_global %{{.*}}, %{{.*}}[%[[TILES]]#3, %[[TILES]]#4 : i32, i32]
// OV:           scf.if %[[TILES]]#5 {
// OV:             scf.for
// OV:           tma.wait_group 0
//
// With spread-stores the carried tile goes into the buffer a box at a time: box j (a
// tilus.slice_register of the tile's registers, columns [64 j, 64 j + 64)) is written and sent
// at step j of the next k loop, under that step's MMAs; step 0 first waits until the copy
// engine has read the buffer. A k loop of fewer than 4 steps writes and sends the boxes it did
// not reach right after it (k = 64 and k = 0 below); the last tile's epilogue is whole, after
// the tile loop. (Off by default: on the H100 it does not pay, docs/perf.md, issue 17's
// seventh part.)
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2 mma-in-flight=0},tma-store-epilogue{spread-stores},verify-barriers)' -o %t.sp.mlir
// RUN: FileCheck %s --check-prefix=SP < %t.sp.mlir
// RUN: tilus-run %t.sp.mlir | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.sp.mlir --schedule random --seed 9 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.sp.mlir --arg k=64 --arg num_sms=2 --schedule random --seed 10 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.sp.mlir --arg k=128 --arg num_sms=2 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.sp.mlir --arg k=0 --arg num_sms=2 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.sp.mlir --arg n=200 --schedule random --seed 12 | FileCheck %s --check-prefix=INTERP
// SP-LABEL: tilus.kernel @hopper_matmul_v1_persistent
// SP:           %[[TILES:.*]]:7 = scf.for {{.*}} iter_args({{.*}}, %[[PROW:.*]] = %{{.*}}, %[[PCOL:.*]] = %{{.*}}, %[[PEND:.*]] = %false, %[[PTILE:.*]] = %{{.*}}) -> (i32, i32, i32, i32, i32, i1, !tilus.reg<64x256xf16, {{.*}}>)
// SP:             scf.for %[[KIV:.*]] = %{{.*}} to %[[KUB:.*]] step %{{.*}} iter_args(
// SP:               wgmma.commit_group
// SP-NEXT:          %[[C0:.*]] = arith.constant 0 : i32
// SP-NEXT:          %[[Z:.*]] = arith.cmpi eq, %[[KIV]], %[[C0]] : i32
// SP-NEXT:          %[[GO0:.*]] = arith.andi %[[Z]], %[[PEND]] : i1
// SP-NEXT:          scf.if %[[GO0]] {
// SP-NEXT:            threadgroup.single_thread {
// SP-NEXT:              tma.wait_group 0 read
// SP-NEXT:            }
// SP-NEXT:            threadgroup.sync
// SP-NEXT:            %[[B0:.*]] = tilus.slice_register %[[PTILE]] [0, 0] : !tilus.reg<64x256xf16, layout = spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> -> !tilus.reg<64x64xf16, layout = spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
// SP-NEXT:            %[[C00:.*]] = arith.constant 0 : i32
// SP-NEXT:            %[[S0:.*]] = tilus.slice_shared %{{.*}}[%[[C00]]]
// SP-NEXT:            tilus.store_shared %[[B0]], %[[S0]]
// SP-NEXT:            tma.fence_proxy_async shared
// SP-NEXT:            threadgroup.sync
// SP-NEXT:            threadgroup.single_thread {
// SP-NEXT:              tma.shared_to_global %[[S0]], %{{.*}}[%[[PROW]], %[[PCOL]] : i32, i32]
// SP:               %[[C3:.*]] = arith.constant 3 : i32
// SP-NEXT:          %[[O3:.*]] = arith.cmpi eq, %[[KIV]], %[[C3]] : i32
// SP-NEXT:          %[[GO3:.*]] = arith.andi %[[O3]], %[[PEND]] : i1
// SP-NEXT:          scf.if %[[GO3]] {
// SP-NEXT:            %[[B3:.*]] = tilus.slice_register %[[PTILE]] [0, 192]
// SP-NOT:             tma.wait_group
// SP:                 tma.shared_to_global
// SP:               wgmma.wait_group 0
// SP:             %[[SHORT:.*]] = arith.cmpi sle, %[[KUB]], %{{.*}} : i32
// SP-NEXT:        %[[GOS:.*]] = arith.andi %[[SHORT]], %[[PEND]] : i1
// SP-NEXT:        scf.if %[[GOS]] {
// SP-NEXT:          threadgroup.single_thread {
// SP-NEXT:            tma.wait_group 0 read
// SP:             arith.cmpi sle, %[[KUB]], %{{.*}} : i32
// SP:           scf.if %[[TILES]]#5 {
// SP:             tilus.store_shared %[[TILES]]#6, %{{.*}}
//
// Without the deferral (defer-boxes=false) the epilogue sends all four boxes, one after the
// other, and the loops are as before.
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2 mma-in-flight=1},tma-store-epilogue{defer-boxes=false},verify-barriers)' -o %t.nodefer.mlir
// RUN: FileCheck %s --check-prefix=NODEFER < %t.nodefer.mlir
// RUN: tilus-run %t.nodefer.mlir --schedule random --seed 7 | FileCheck %s --check-prefix=INTERP
// NODEFER-LABEL: tilus.kernel @hopper_matmul_v1_persistent
// NODEFER:         threadgroup.warp_group warps(0, 4) {
// NODEFER:           scf.for {{.*}} -> (i32, i32, i32)
// NODEFER-NOT:         tma.shared_to_global
// NODEFER:             tma.fence_proxy_async shared
// NODEFER-NEXT:        threadgroup.sync
// NODEFER-NEXT:        threadgroup.single_thread {
// NODEFER-COUNT-4:       tma.shared_to_global
// NODEFER-NEXT:          tma.commit_group
// NODEFER-NEXT:        }
// NODEFER:           threadgroup.single_thread {
// NODEFER-NEXT:        tma.wait_group 0
// K2:         threadgroup.sync
// K2:         tilus.free_shared %[[BUF0]]
// K2-NEXT:    tilus.free_shared %[[BUF1]]
// K2-NEXT:  }
// The reference kernel (tilus-run's ground truth) keeps its plain store.
// K2-LABEL: tilus.kernel @matmul_ref
// K2-NOT:     tma.
// K2:         tilus.store_global
//
// The interpreter runs it against the reference: 4 tiles on 3 blocks, a random schedule, one
// k step on 2 blocks, one tile on 2 blocks (a block without a tile), and N = 200 (not a multiple
// of 64: the direct stores).
// RUN: tilus-run %t.k2.mlir | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.k2.mlir --schedule random --seed 7 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.k2.mlir --arg k=64 --arg num_sms=2 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.k2.mlir --arg m=128 --arg n=256 --arg num_sms=2 --schedule random --seed 3 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.k2.mlir --arg n=200 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.k2.mlir --arg n=200 --schedule random --seed 11 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok
//
// Without warp-specialize the store belongs to the kernel's root group (4 warps): the final
// wait and a sync follow the tile loop, before the buffers are freed (without the sync the
// interpreter reports the free racing with the copy).
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=2},tma-store-epilogue,verify-barriers)' -o %t.root.mlir
// RUN: FileCheck %s --check-prefix=ROOT < %t.root.mlir
// ROOT-LABEL: tilus.kernel @hopper_matmul_v1_persistent
// ROOT-SAME:    warps(4)
// ROOT:         %[[BUF:.*]] = tilus.shared_tensor : !tilus.shared<4x128x64xf16, swizzle = 128B>
// ROOT-NEXT:    %[[VIEW:.*]] = tilus.permute_shared %[[BUF]] [1, 0, 2] : !tilus.shared<4x128x64xf16, swizzle = 128B> -> !tilus.shared<128x4x64xf16, strides = [64, 8192, 1], swizzle = 128B>
// ROOT:         %[[TILES:.*]]:6 = scf.for
// ROOT:           tilus.store_shared %{{.*}}, %[[VIEW]]
// ROOT:             tma.shared_to_global
// ROOT:           tilus.store_global
// ROOT:           scf.yield
// ROOT-NEXT:    }
// The last tile's deferred boxes go out before the final wait.
// ROOT:         scf.if %[[TILES]]#5 {
// ROOT:             tma.shared_to_global
// ROOT:         } else {
// ROOT-NEXT:    }
// ROOT-NEXT:    threadgroup.single_thread {
// ROOT-NEXT:      tma.wait_group 0
// ROOT-NEXT:    }
// ROOT-NEXT:    threadgroup.sync
// ROOT-NEXT:    tilus.free_shared
// ROOT-NEXT:    tilus.free_shared
// ROOT-NEXT:    tilus.free_shared %[[BUF]]
// RUN: tilus-run %t.root.mlir --schedule random --seed 2 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.root.mlir --arg n=200 | FileCheck %s --check-prefix=INTERP
//
// Shared memory: four 48 KiB stages (192 KiB and the barriers) leave no room for two 32 KiB
// buffers; the pass says so at the store and in which kernel.
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline='builtin.module(pipeline{stages=4},warp-specialize{consumer-warpgroups=2},tma-store-epilogue)' --diagnostic-format mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
// BUDGET: hopper_matmul_v1_persistent.mlir:{{[0-9]+}}:{{[0-9]+}}: error: tma-store-epilogue: the epilogue's shared buffers (65536 bytes: 2 of 64x256xf16) and the kernel's 196672 bytes of shared memory exceed the 232448 bytes a block may use
// BUDGET: note: in this kernel
// RUN: not tilus-opt %s --pass-pipeline='builtin.module(tma-store-epilogue{max-shared-bytes=0})' --diagnostic-format mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD-OPTION
// BAD-OPTION: error: tma-store-epilogue: max-shared-bytes must be positive, got 0
//
// Hand-written kernels take the pass too. v4 (3 stages, one 64 x 256 store per consumer
// warpgroup) gets a buffer per group; v5 (4 stages, two 64 x 128 halves per group) gets one
// 16 KiB buffer per group that both halves go through, the second waiting until the copy
// engine has read the first: v6's epilogue (4 stages x 48 KiB + 2 x 16 KiB = 224 KiB).
// RUN: tilus-opt %S/../../examples/hopper_matmul_v4_persistent.mlir --pass-pipeline='builtin.module(tma-store-epilogue,verify-barriers)' -o %t.v4.mlir
// RUN: grep -c 'tma.shared_to_global' %t.v4.mlir | FileCheck %s --check-prefix=TWELVE
// TWELVE: {{^12$}}
// (v4's groups each send box 0 at the next tile's first k-step, after a k loop of no step and
// after the tile loop, and boxes 1..3 in the next k loop, after a short one, and after the
// tile loop: six copy sites a group.)
// RUN: tilus-run %t.v4.mlir --schedule random --seed 9 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.v4.mlir --arg n=200 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-opt %S/../../examples/hopper_matmul_v5_cluster.mlir --pass-pipeline='builtin.module(tma-store-epilogue)' -o %t.v5.mlir
// RUN: FileCheck %s --check-prefix=V5 < %t.v5.mlir
// V5-LABEL: tilus.kernel @hopper_matmul_cluster
// V5:         %[[BUF0:.*]] = tilus.shared_tensor : !tilus.shared<2x64x64xf16, swizzle = 128B>
// V5-NEXT:    %[[VIEW0:.*]] = tilus.permute_shared %[[BUF0]] [1, 0, 2] : !tilus.shared<2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x2x64xf16, strides = [64, 4096, 1], swizzle = 128B>
// V5-NEXT:    threadgroup.warp_group warps(0, 4) {
// V5:               tma.wait_group 0 read
// V5:             tilus.store_shared %{{.*}}, %[[VIEW0]]
// V5:               tilus.slice_shared %[[BUF0]]
// V5:               tma.wait_group 0 read
// V5:             tilus.store_shared %{{.*}}, %[[VIEW0]]
// V5:               tilus.slice_shared %[[BUF0]]
// V5:         %[[BUF1:.*]] = tilus.shared_tensor : !tilus.shared<2x64x64xf16, swizzle = 128B>
// V5-NEXT:    %[[VIEW1:.*]] = tilus.permute_shared %[[BUF1]]
// V5-NEXT:    threadgroup.warp_group warps(4, 4) {
// V5:             tilus.store_shared %{{.*}}, %[[VIEW1]]
// V5:             tilus.store_shared %{{.*}}, %[[VIEW1]]
// V5-NOT:     tilus.shared_tensor
// V5:         tilus.free_shared %[[BUF0]]
// V5-NEXT:    tilus.free_shared %[[BUF1]]
// RUN: tilus-run %t.v5.mlir | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.v5.mlir --schedule random --seed 5 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.v5.mlir --arg k=64 --arg num_sms=2 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.v5.mlir --arg n=200 | FileCheck %s --check-prefix=INTERP
//
// A column offset the pass cannot prove a multiple of 64 (a parameter) is tested at run time
// with N; the kernel below copies a [64, 128] tile at column `col`. col = 64 takes the TMA
// store, col = 32 and N = 200 the direct one; the reference is left alone.
// RUN: tilus-opt %s --pass-pipeline='builtin.module(tma-store-epilogue)' -o %t.tile.mlir
// RUN: FileCheck %s --check-prefix=TILE < %t.tile.mlir
// TILE-LABEL: tilus.kernel @copy_tile(
// TILE:         %[[OK:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i32
// TILE:         tilus.shared_tensor : !tilus.shared<2x64x64xf16, swizzle = 128B>
// TILE:         %[[R:.*]] = arith.remsi %col, %{{.*}} : i32
// TILE-NEXT:    %[[COL_OK:.*]] = arith.cmpi eq, %[[R]], %{{.*}} : i32
// TILE-NEXT:    %[[BOTH:.*]] = arith.andi %[[OK]], %[[COL_OK]] : i1
// TILE-NEXT:    scf.if %[[BOTH]] {
// TILE:           tma.shared_to_global %{{.*}} : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.global<?x?xf16, strides = [?, 1]>
// TILE:         } else {
// TILE-NEXT:      tilus.store_global
// TILE:         threadgroup.single_thread {
// TILE-NEXT:      tma.wait_group 0
// TILE-NEXT:    }
// TILE-NEXT:    threadgroup.sync
// TILE-LABEL: tilus.kernel @copy_tile_ref(
// TILE-NOT:     tma.
// RUN: tilus-run %t.tile.mlir | FileCheck %s --check-prefix=TILE-RUN
// RUN: tilus-run %t.tile.mlir --arg col=32 | FileCheck %s --check-prefix=TILE-RUN
// RUN: tilus-run %t.tile.mlir --arg n=200 --arg col=64 | FileCheck %s --check-prefix=TILE-RUN
// RUN: tilus-run %t.tile.mlir --arg m=100 --schedule random --seed 4 | FileCheck %s --check-prefix=TILE-RUN
// TILE-RUN: check y vs reference @copy_tile_ref: ok

tilus.kernel @copy_tile(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %n: i32, %col: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d2 ceildiv 64)>)
    attributes {tilus.args = {m = 192 : i32, n = 256 : i32, col = 64 : i32}, tilus.outputs = ["y"], tilus.reference = "copy_tile_ref"} {
  %c64 = arith.constant 64 : i32
  %bx = tilus.block_id x
  %row = arith.muli %bx, %c64 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gy = tilus.global_view %y[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %t = tilus.load_global %gx[%row, %col] : !tilus.global<?x?xf16> -> !tilus.reg<64x128xf16>
  tilus.store_global %t, %gy[%row, %col] : !tilus.reg<64x128xf16>, !tilus.global<?x?xf16>
}

tilus.kernel @copy_tile_ref(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %n: i32, %col: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4) -> (d2 ceildiv 64)>) {
  %c64 = arith.constant 64 : i32
  %bx = tilus.block_id x
  %row = arith.muli %bx, %c64 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gy = tilus.global_view %y[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %t = tilus.load_global %gx[%row, %col] : !tilus.global<?x?xf16> -> !tilus.reg<64x128xf16>
  tilus.store_global %t, %gy[%row, %col] : !tilus.reg<64x128xf16>, !tilus.global<?x?xf16>
}
