// warp-specialize splits the ring that pipeline{stages=N} makes of the Hopper matmul v1
// (examples/hopper_matmul_v1_wgmma.mlir) into a producer and K consumer warpgroups, shaped like
// examples/hopper_matmul_v3_warp_specialized.mlir, for N = 1 .. 6.
//
// K = 1 (the default): the kernel grows from 4 to 8 warps; N empty barriers of count 128 (every
// consumer thread arrives once per phase) join the N full barriers of count 1; the producer is
// the warpgroup of warps 4 .. 8, which releases registers (setmaxnreg dec 40) and whose first
// warp waits on empty[stage] from the producer's initial phase, announces the bytes from one
// thread and issues the copies of tile i at warp scope; warps 0 .. 4 claim registers
// (setmaxnreg inc 256: 256 threads start with 248 each), wait on full[stage], compute and
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
// K = 2 (cooperative consumers): the tile's 128 rows split into two warpgroups of 64, each with
// its own 64-row accumulator, its half of A (the A ring becomes [N, 2, 64, 64], filled by two
// 64-row TMA boxes) and its half of C; both groups release every stage (empty counts 256). 12
// warps: 384 threads start with 168 registers, the producer keeps 40 and the consumers take
// 232 (128 x 40 + 256 x 232 = 64512 of 65536).
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=1},warp-specialize{consumer-warpgroups=2},verify-barriers)' | FileCheck %s --check-prefix=K2 -DN=1 -DEMPTYS='256'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=2},warp-specialize{consumer-warpgroups=2},verify-barriers)' | FileCheck %s --check-prefix=K2 -DN=2 -DEMPTYS='256, 256'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2},verify-barriers)' | FileCheck %s --check-prefix=K2 -DN=3 -DEMPTYS='256, 256, 256'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=4},warp-specialize{consumer-warpgroups=2},verify-barriers)' | FileCheck %s --check-prefix=K2 -DN=4 -DEMPTYS='256, 256, 256, 256'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=5},warp-specialize{consumer-warpgroups=2},verify-barriers)' | FileCheck %s --check-prefix=K2 -DN=5 -DEMPTYS='256, 256, 256, 256, 256'
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=6},warp-specialize{consumer-warpgroups=2},verify-barriers)' | FileCheck %s --check-prefix=K2 -DN=6 -DEMPTYS='256, 256, 256, 256, 256, 256'
//
// K = 3 on a 192 x 64 tile (inputs/matmul-bm192.mlir): three groups of 64 rows, A boxes at row
// offsets 0, 64 and 128, empty counts 384; 16 warps start with 128 registers, the consumers take
// 152 (128 x 40 + 384 x 152 = 63488).
// RUN: tilus-opt %S/inputs/matmul-bm192.mlir --pass-pipeline='builtin.module(pipeline{stages=1},warp-specialize{consumer-warpgroups=3},verify-barriers)' | FileCheck %s --check-prefix=K3 -DN=1 -DEMPTYS='384'
// RUN: tilus-opt %S/inputs/matmul-bm192.mlir --pass-pipeline='builtin.module(pipeline{stages=2},warp-specialize{consumer-warpgroups=3},verify-barriers)' | FileCheck %s --check-prefix=K3 -DN=2 -DEMPTYS='384, 384'
// RUN: tilus-opt %S/inputs/matmul-bm192.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=3},verify-barriers)' | FileCheck %s --check-prefix=K3 -DN=3 -DEMPTYS='384, 384, 384'
// RUN: tilus-opt %S/inputs/matmul-bm192.mlir --pass-pipeline='builtin.module(pipeline{stages=4},warp-specialize{consumer-warpgroups=3},verify-barriers)' | FileCheck %s --check-prefix=K3 -DN=4 -DEMPTYS='384, 384, 384, 384'
// RUN: tilus-opt %S/inputs/matmul-bm192.mlir --pass-pipeline='builtin.module(pipeline{stages=5},warp-specialize{consumer-warpgroups=3},verify-barriers)' | FileCheck %s --check-prefix=K3 -DN=5 -DEMPTYS='384, 384, 384, 384, 384'
// RUN: tilus-opt %S/inputs/matmul-bm192.mlir --pass-pipeline='builtin.module(pipeline{stages=6},warp-specialize{consumer-warpgroups=3},verify-barriers)' | FileCheck %s --check-prefix=K3 -DN=6 -DEMPTYS='384, 384, 384, 384, 384, 384'
//
// Without setmaxnreg (producer-regs=0 consumer-regs=0) the producer is one warp: 5 warps.
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=2},warp-specialize{producer-regs=0 consumer-regs=0},verify-barriers)' | FileCheck %s --check-prefix=NOREGS
// NOREGS:      warps(5)
// NOREGS-NOT:  setmaxnreg
// NOREGS:      threadgroup.single_warp warp(4) {
// NOREGS-NEXT:   mbarrier.producer_initial_phase
// NOREGS:      threadgroup.warp_group warps(0, 4) {
// NOREGS-NEXT:   tilus.register_tensor
//
// The v0 loop (tilus.dot on register copies of the tiles) and the hand-written ring of v2 split
// the same way and still match the reference:
// RUN: tilus-opt %S/../../examples/hopper_matmul_v0_tma.mlir --pass-pipeline='builtin.module(pipeline{stages=4},warp-specialize,verify-barriers)' -o %t.v0.mlir
// RUN: tilus-run %t.v0.mlir --arg m=128 --arg k=320 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %t.v0.mlir --arg m=128 --arg k=64 --schedule random --seed 7 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-opt %S/../../examples/hopper_matmul_v2_pipeline.mlir --pass-pipeline='builtin.module(warp-specialize,verify-barriers)' -o %t.v2.mlir
// RUN: tilus-run %t.v2.mlir --arg k=448 --schedule random --seed 3 | FileCheck %s --check-prefix=INTERP
// INTERP: grid: {{.*}} blocks of 256 threads (8 warps)
// INTERP: check c vs reference @matmul_ref: ok
//
// The result lowers to PTX (tilus-to-ptx): 256 threads, which start with 248 registers each
// (.maxnreg, so that ptxas honours setmaxnreg), N full and N empty barriers.
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize)' -o %t.ws3.mlir
// RUN: tilus-run %t.ws3.mlir --dump-ptx | FileCheck %s --check-prefix=PTX
// PTX: .maxntid 256, 1, 1
// PTX-NEXT: .maxnreg 248
// PTX-COUNT-3: mbarrier.init.shared::cta.b64 {{.*}}, 1;
// PTX-COUNT-3: mbarrier.init.shared::cta.b64 {{.*}}, 128;
//
// Broken variants of that output are rejected by verify-barriers at the op, and the interpreter
// deadlocks on each (5 iterations): the consumers' release dropped, the producer starting at the
// consumers' phase (it waits for a release that needs its own fill), and an empty barrier
// counting a producer warp's threads too.
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
// Splitting rows needs wgmma consumers and rows that split into multiples of 64:
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v0_tma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2})' 2>&1 | FileCheck %s --check-prefix=DOT
// DOT: warp-specialize: consumer-warpgroups=2: the tile's rows are split across consumer warpgroups through the operands of wgmma.mma, and this loop has none
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=3})' 2>&1 | FileCheck %s --check-prefix=ROWS
// ROWS: warp-specialize: consumer-warpgroups=3: the tile's 128 rows do not split into 3 groups of a multiple of 64 rows (wgmma's M)
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=8})' 2>&1 | FileCheck %s --check-prefix=K8
// K8: warp-specialize: consumer-warpgroups must be in [1, 7] (7 warpgroups and the producer fill the 32 warps of a block), got 8
// The register split is checked against setmaxnreg's range and the register file:
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{producer-regs=44})' 2>&1 | FileCheck %s --check-prefix=REGS44
// REGS44: warp-specialize: producer-regs must be 0 (no setmaxnreg) or a multiple of 8 in [24, 256] (setmaxnreg's range), got 44
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2 producer-regs=176})' 2>&1 | FileCheck %s --check-prefix=RAISE
// RAISE: warp-specialize: producer-regs=176 is above the 168 registers per thread a block of 384 threads starts with; setmaxnreg.dec cannot raise it
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2 consumer-regs=160})' 2>&1 | FileCheck %s --check-prefix=LOWER
// LOWER: warp-specialize: consumer-regs=160 is below the 168 registers per thread a block of 384 threads starts with; setmaxnreg.inc cannot lower it
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{consumer-warpgroups=2 consumer-regs=240})' 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: warp-specialize: the register split overcommits the register file: 128 producer threads x 40 + 256 consumer threads x 240 = 66560 registers, more than the 65536 of an SM, so setmaxnreg.inc would wait forever
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{producer-warps=2})' 2>&1 | FileCheck %s --check-prefix=P2
// P2: warp-specialize: producer-warps must be 1 (one warp issues the copies), got 2
// A kernel of 32 warps has no room for the producer:
// RUN: sed 's/^    warps(4)/    warps(32)/' %S/../../examples/hopper_matmul_v0_tma.mlir | not tilus-opt - --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize)' 2>&1 | FileCheck %s --check-prefix=W32
// W32: warp-specialize: the kernel has 32 warps; 1 consumer group of 32 and a producer of 4 warps make 36, more than the 32 warps of a block
// and one of 6 warps none for setmaxnreg, which needs whole warpgroups:
// RUN: sed 's/^    warps(4)/    warps(6)/' %S/../../examples/hopper_matmul_v0_tma.mlir | not tilus-opt - --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize)' 2>&1 | FileCheck %s --check-prefix=W6
// W6: warp-specialize: the kernel's 6 warps are not whole warpgroups, which setmaxnreg needs (producer-regs=0 consumer-regs=0 leaves it out)
//
// CHECK-LABEL: tilus.kernel @hopper_matmul_v1
// CHECK-SAME:    warps(8)
// CHECK:         %[[SA:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// CHECK-NEXT:    %[[SB:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// CHECK-NEXT:    %[[FULL:.*]] = mbarrier.alloc counts [[[FULLS]]] : !mbarrier.barriers<[[N]]>
// CHECK-NEXT:    %[[EMPTY:.*]] = mbarrier.alloc counts [[[EMPTYS]]] : !mbarrier.barriers<[[N]]>
// CHECK:         %[[T:.*]] = arith.ceildivsi %k, %{{.*}} : i32
// No prologue: the producer's first round fills the stages.
// CHECK-NOT:     threadgroup.single_thread
// Producer: warpgroup 1 releases registers, its first warp loads every tile, (stage, phase)
// from the producer's initial phase.
// CHECK:         threadgroup.warp_group warps(4, 4) {
// CHECK-NEXT:      threadgroup.setmaxnreg dec 40
// CHECK-NEXT:      threadgroup.single_warp {
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
// CHECK-NEXT:      threadgroup.setmaxnreg inc 256
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
//
// K2-LABEL: tilus.kernel @hopper_matmul_v1
// K2-SAME:    warps(12)
// The A ring holds each stage's two 64-row halves; B is shared.
// K2:         %[[SA:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x2x64x64xf16, swizzle = 128B>
// K2-NEXT:    %[[SB:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x128x64xf16, swizzle = 128B>
// K2-NEXT:    %[[FULL:.*]] = mbarrier.alloc counts [{{[1, ]+}}] : !mbarrier.barriers<[[N]]>
// K2-NEXT:    %[[EMPTY:.*]] = mbarrier.alloc counts [[[EMPTYS]]] : !mbarrier.barriers<[[N]]>
// K2:         threadgroup.warp_group warps(8, 4) {
// K2-NEXT:      threadgroup.setmaxnreg dec 40
// K2-NEXT:      threadgroup.single_warp {
// K2:             mbarrier.wait %[[EMPTY]][%[[PS:.*]] : i32]
// K2:               mbarrier.arrive_expect_tx %[[FULL]][%[[PS]] : i32], %{{.*}} :
// One A box per consumer group, at rows offset_m and offset_m + 64:
// K2:             %[[A0:.*]] = tilus.slice_shared %[[SA]][%[[PS]], %{{.*}}] : !tilus.shared<[[N]]x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
// K2-NEXT:        tma.global_to_shared %{{.*}}[%[[OM:.*]], %[[KK:.*]] : i32, i32], %[[A0]], %[[FULL]][%[[PS]] : i32]
// K2:             %[[A1:.*]] = tilus.slice_shared %[[SA]][%[[PS]], %{{.*}}]
// K2:             %[[OM1:.*]] = arith.addi %[[OM]], %{{.*}} : i32
// K2-NEXT:        tma.global_to_shared %{{.*}}[%[[OM1]], %[[KK]] : i32, i32], %[[A1]], %[[FULL]][%[[PS]] : i32]
// K2:             tma.global_to_shared %{{.*}}, %[[FULL]][%[[PS]] : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>
// Two consumer groups, each with a 64-row accumulator, its A half, and its rows of C.
// K2:         threadgroup.warp_group warps(0, 4) {
// K2-NEXT:      threadgroup.setmaxnreg inc 232
// K2-NEXT:      tilus.register_tensor init(%{{.*}} : f32) : !tilus.reg<64x128xf32, layout = spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
// K2:             mbarrier.wait %[[FULL]][%[[CS:.*]] : i32]
// K2-NEXT:        %[[C0:.*]] = arith.constant 0 : i32
// K2-NEXT:        %[[GA:.*]] = tilus.slice_shared %[[SA]][%[[CS]], %[[C0]]]
// K2:             wgmma.mma %[[GA]], %{{.*}}, %{{.*}} : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x128xf32,
// K2:             mbarrier.arrive %[[EMPTY]][%[[CS]] : i32]
// K2:           tilus.store_global %{{.*}}, %{{.*}}[%[[OM]], %{{.*}}] : !tilus.reg<64x128xf16,
// K2-NEXT:    }
// K2-NEXT:    threadgroup.warp_group warps(4, 4) {
// K2-NEXT:      threadgroup.setmaxnreg inc 232
// K2-NEXT:      tilus.register_tensor init(%{{.*}} : f32) : !tilus.reg<64x128xf32,
// K2:             mbarrier.wait %[[FULL]][%[[CS1:.*]] : i32]
// K2-NEXT:        %[[C1:.*]] = arith.constant 1 : i32
// K2-NEXT:        %[[GA1:.*]] = tilus.slice_shared %[[SA]][%[[CS1]], %[[C1]]]
// K2:             wgmma.mma %[[GA1]], %{{.*}}, %{{.*}} : !tilus.shared<64x64xf16, swizzle = 128B>
// K2:             mbarrier.arrive %[[EMPTY]][%[[CS1]] : i32]
// K2:           %[[ROW1:.*]] = arith.addi %[[OM]], %{{.*}} : i32
// K2-NEXT:      tilus.store_global %{{.*}}, %{{.*}}[%[[ROW1]], %{{.*}}] : !tilus.reg<64x128xf16,
// K2-NEXT:    }
// K2-NEXT:    threadgroup.sync
// K2-NEXT:    tilus.free_shared %[[SA]] : !tilus.shared<[[N]]x2x64x64xf16, swizzle = 128B>
//
// K3-LABEL: tilus.kernel @matmul_bm192
// K3-SAME:    warps(16)
// K3:         %[[SA:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x3x64x64xf16, swizzle = 128B>
// K3-NEXT:    %[[SB:.*]] = tilus.shared_tensor : !tilus.shared<[[N]]x64x64xf16, swizzle = 128B>
// K3-NEXT:    %[[FULL:.*]] = mbarrier.alloc
// K3-NEXT:    %[[EMPTY:.*]] = mbarrier.alloc counts [[[EMPTYS]]] : !mbarrier.barriers<[[N]]>
// K3:         threadgroup.warp_group warps(12, 4) {
// K3-NEXT:      threadgroup.setmaxnreg dec 40
// K3-COUNT-3:     tma.global_to_shared %{{.*}} : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>
// K3-NEXT:        tilus.slice_shared %[[SB]]
// K3-NEXT:        tma.global_to_shared
// K3:         threadgroup.warp_group warps(0, 4) {
// K3-NEXT:      threadgroup.setmaxnreg inc 152
// K3-NEXT:      tilus.register_tensor init(%{{.*}} : f32) : !tilus.reg<64x64xf32, layout = spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
// K3:             mbarrier.arrive %[[EMPTY]]
// K3:         threadgroup.warp_group warps(4, 4) {
// K3-NEXT:      threadgroup.setmaxnreg inc 152
// K3:             mbarrier.arrive %[[EMPTY]]
// K3:         threadgroup.warp_group warps(8, 4) {
// K3-NEXT:      threadgroup.setmaxnreg inc 152
// K3:             tilus.slice_shared %[[SA]][%{{.*}}, %{{.*}}] : !tilus.shared<[[N]]x3x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
// K3:             mbarrier.arrive %[[EMPTY]]
// K3:           tilus.store_global %{{.*}} : !tilus.reg<64x64xf16,
// K3-NEXT:    }
// K3-NEXT:    threadgroup.sync
