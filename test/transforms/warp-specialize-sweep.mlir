// The sweep of issue 15 for warp-specialize: pipeline{stages=N} then warp-specialize (one
// producer warp, one consumer warpgroup) applied to the Hopper matmul v1
// (examples/hopper_matmul_v1_wgmma.mlir) for N = 1 .. 6, each result proved by verify-barriers
// and run by the interpreter against the naive reference on trip counts (K / 64) of 1, N - 1,
// N, N + 1, 7N + 3 and 37 (all of them run-time values: K is a kernel argument), on the
// deterministic schedule and a random one, with no deadlock or race (tilus-run exits non-zero
// on either) and C matching the reference. M = N = 128 (one block) keeps it fast.
//
// RUN: for n in 1 2 3 4 5 6; do \
// RUN:   tilus-opt %S/../../examples/hopper_matmul_v1_wgmma.mlir --pass-pipeline="builtin.module(pipeline{stages=$n},warp-specialize,verify-barriers)" -o %t.$n.mlir || exit 1; \
// RUN:   for t in 1 $((n - 1)) $n $((n + 1)) $((7 * n + 3)) 37; do \
// RUN:     for sched in "--schedule deterministic" "--schedule random --seed $((100 * n + t))"; do \
// RUN:       tilus-run %t.$n.mlir --arg m=128 --arg n=128 --arg k=$((64 * t)) $sched > %t.out 2>&1 \
// RUN:         && grep "check c vs reference @matmul_ref: ok" %t.out > /dev/null \
// RUN:         && echo "stages=$n trips=$t $sched: ok" || { echo "FAILED stages=$n trips=$t $sched"; cat %t.out; exit 1; }; \
// RUN:     done; \
// RUN:   done; \
// RUN: done | FileCheck %s
// CHECK-NOT: FAILED
// CHECK-COUNT-72: stages={{[1-6]}} trips={{[0-9]+}} --schedule {{.*}}: ok
// CHECK-NOT: FAILED
