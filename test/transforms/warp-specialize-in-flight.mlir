// warp-specialize{mma-in-flight=1} on the ring of the (non-persistent) Hopper matmul v1: the
// consumers keep their k step's wgmma in flight (`wgmma.wait_group 1`), release the previous
// stage `(i + N - 1) rem N` from iteration 1 on, and retire the last group after the loop (no
// release there: the producer has no tile after this one). verify-barriers proves both barrier
// arrays for every trip count, for N = 2 .. 4 and K = 1, 2, and the interpreter runs each on
// trip counts 1, N - 1, N, N + 1 and 7N + 3 on a random schedule against the reference.
//
// RUN: tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline='builtin.module(pipeline{stages=3},warp-specialize{mma-in-flight=1})' | FileCheck %s
// RUN: for g in 1 2; do \
// RUN:   for n in 2 3 4; do \
// RUN:     tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline="builtin.module(pipeline{stages=$n},warp-specialize{consumer-warpgroups=$g mma-in-flight=1})" -o %t.$g.$n.mlir || exit 1; \
// RUN:     tilus-opt %t.$g.$n.mlir --verify-barriers --pass-statistics -o /dev/null > %t.stats 2>&1 || { cat %t.stats; exit 1; }; \
// RUN:     grep -q "(S) 2 num-barriers" %t.stats && grep -q "(S) 0 num-skipped" %t.stats \
// RUN:       && echo "groups=$g stages=$n: proved" || { echo "FAILED groups=$g stages=$n: not proved"; cat %t.stats; exit 1; }; \
// RUN:     for t in 1 $((n - 1)) $n $((n + 1)) $((7 * n + 3)); do \
// RUN:       tilus-run %t.$g.$n.mlir --arg m=128 --arg n=128 --arg k=$((64 * t)) --schedule random --seed $((10 * n + t)) > %t.out 2>&1 \
// RUN:         && grep "check c vs reference @matmul_ref: ok" %t.out > /dev/null \
// RUN:         && echo "groups=$g stages=$n trips=$t: ok" || { echo "FAILED groups=$g stages=$n trips=$t"; cat %t.out; exit 1; }; \
// RUN:     done; \
// RUN:   done; \
// RUN: done | FileCheck %s --check-prefix=SWEEP
// SWEEP-NOT: FAILED
// SWEEP-COUNT-18: groups=1 stages={{[2-4]}}{{( trips=[0-9]+)?}}: {{proved|ok}}
// SWEEP-COUNT-18: groups=2 stages={{[2-4]}}{{( trips=[0-9]+)?}}: {{proved|ok}}
// SWEEP-NOT: FAILED
//
// A consumer with no wgmma group to keep in flight (v0 computes with tilus.dot) is rejected at
// its loop.
// RUN: not tilus-opt %S/../../examples/hopper_matmul_v0_tma.mlir --pass-pipeline='builtin.module(pipeline{stages=2},warp-specialize{mma-in-flight=1})' --diagnostic-format mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-WGMMA
// NO-WGMMA: hopper_matmul_v0_tma.mlir:{{[0-9]+}}:{{[0-9]+}}: error: warp-specialize: mma-in-flight=1: the consumer's loop has no wgmma.wait_group 0 before the release to relax

// CHECK-LABEL: tilus.kernel @hopper_matmul_v1
// CHECK:         %[[EMPTY:.*]] = mbarrier.alloc counts [128, 128, 128] : !mbarrier.barriers<3>
// CHECK:         threadgroup.warp_group warps(0, 4) {
// CHECK:           %[[RES:[^ ]*]]:3 = scf.for %[[I:[^ ]*]] = %{{[^ ]*}} to %{{[^ ]*}} step
// CHECK:             wgmma.commit_group
// CHECK-NEXT:        wgmma.wait_group 1
// CHECK-NEXT:        %[[BACK:.*]] = arith.constant 2 : i32
// CHECK-NEXT:        %[[N:.*]] = arith.constant 3 : i32
// CHECK-NEXT:        %[[X:.*]] = arith.addi %[[I]], %[[BACK]] : i32
// CHECK-NEXT:        %[[PREV:.*]] = arith.remsi %[[X]], %[[N]] : i32
// CHECK-NEXT:        %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:        %[[HAS:.*]] = arith.cmpi sge, %[[I]], %[[ONE]] : i32
// CHECK-NEXT:        scf.if %[[HAS]] {
// CHECK-NEXT:          mbarrier.arrive %[[EMPTY]][%[[PREV]] : i32]
// CHECK-NEXT:        }
// CHECK:           }
// CHECK-NEXT:      wgmma.wait_group 0
// CHECK-NEXT:      tilus.cast %[[RES]]#0
