// The sweep of issue 15 for warp-specialize: pipeline{stages=N} then warp-specialize (a
// producer warpgroup with setmaxnreg and K consumer warpgroups splitting the tile's rows) for
// N = 1 .. 6 and K = 1 .. 3, each result proved by verify-barriers and run by the interpreter
// against the naive reference on trip counts (K / 64) of 1, N - 1, N, N + 1, 7N + 3 and 37 (all
// of them run-time values: K is a kernel argument), on the deterministic schedule and a random
// one, with no deadlock or race (tilus-run exits non-zero on either) and C matching the
// reference. K = 1, 2 specialize the Hopper matmul v1 (examples/hopper_matmul_v1_wgmma.mlir,
// a 128 x 128 tile); K = 3 needs rows that split into three multiples of 64, so it specializes
// inputs/matmul-bm192.mlir (a 192 x 64 tile). One block keeps it fast.
//
// RUN: for g in 1 2 3; do \
// RUN:   if [ $g = 3 ]; then in=%S/inputs/matmul-bm192.mlir; shape="--arg m=192 --arg n=64"; \
// RUN:   else in=%S/../../examples/hopper_matmul_v1_wgmma.mlir; shape="--arg m=128 --arg n=128"; fi; \
// RUN:   for n in 1 2 3 4 5 6; do \
// RUN:     tilus-opt $in --pass-pipeline="builtin.module(pipeline{stages=$n},warp-specialize{consumer-warpgroups=$g},verify-barriers)" -o %t.$g.$n.mlir || exit 1; \
// RUN:     for t in 1 $((n - 1)) $n $((n + 1)) $((7 * n + 3)) 37; do \
// RUN:       for sched in "--schedule deterministic" "--schedule random --seed $((100 * n + 10 * g + t))"; do \
// RUN:         tilus-run %t.$g.$n.mlir $shape --arg k=$((64 * t)) $sched > %t.out 2>&1 \
// RUN:           && grep "check c vs reference @matmul_ref: ok" %t.out > /dev/null \
// RUN:           && echo "groups=$g stages=$n trips=$t $sched: ok" || { echo "FAILED groups=$g stages=$n trips=$t $sched"; cat %t.out; exit 1; }; \
// RUN:       done; \
// RUN:     done; \
// RUN:   done; \
// RUN: done | FileCheck %s
// CHECK-NOT: FAILED
// CHECK-COUNT-72: groups=1 stages={{[1-6]}} trips={{[0-9]+}} --schedule {{.*}}: ok
// CHECK-COUNT-72: groups=2 stages={{[1-6]}} trips={{[0-9]+}} --schedule {{.*}}: ok
// CHECK-COUNT-72: groups=3 stages={{[1-6]}} trips={{[0-9]+}} --schedule {{.*}}: ok
// CHECK-NOT: FAILED
