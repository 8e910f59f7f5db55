// The persistent sweep for warp-specialize (issue 15): pipeline{stages=N} then warp-specialize
// on the persistent Hopper matmul (examples/hopper_matmul_v1_persistent.mlir), for N = 1 .. 4,
// K = 1, 2 consumer warpgroups, with releases after `wgmma.wait_group 0` and (N >= 2) with one
// MMA in flight (mma-in-flight=1: previous-stage releases, the last one after the k loop): 22
// kernels, each accepted by verify-barriers and run by the interpreter against the naive
// reference on the deterministic schedule and a random one, with no deadlock or race and C
// matching. The producer runs ahead across tiles, so the shapes vary what it runs into:
//   tiles: 1 tile on 2 blocks (a block with no tile: producer and consumers skip the tile loop),
//          4 tiles on 3 blocks (not a multiple), 6 tiles on 2 blocks (3 tiles each);
//   k steps per tile (K / 64): 1, N - 1 (fewer than the stages: the producer fills stages of
//          the next tiles before the consumers finish this one; 0 for N = 1) and N + 1.
//
// RUN: for g in 1 2; do \
// RUN:   for f in 0 1; do \
// RUN:     for n in 1 2 3 4; do \
// RUN:       if [ $f = 1 ] && [ $n = 1 ]; then continue; fi; \
// RUN:       tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline="builtin.module(pipeline{stages=$n},warp-specialize{consumer-warpgroups=$g mma-in-flight=$f},verify-barriers)" -o %t.$g.$n.$f.mlir || exit 1; \
// RUN:       for shape in "m=128 n=256 s=2" "m=256 n=512 s=3" "m=384 n=512 s=2"; do \
// RUN:         set -- $shape; args="--arg $1 --arg $2 --arg num_sms=${3#s=}"; \
// RUN:         for t in 1 $((n - 1)) $((n + 1)); do \
// RUN:           for sched in "--schedule deterministic" "--schedule random --seed $((1000 * f + 100 * n + 10 * g + t))"; do \
// RUN:             tilus-run %t.$g.$n.$f.mlir $args --arg k=$((64 * t)) $sched > %t.out 2>&1 \
// RUN:               && grep "check c vs reference @matmul_ref: ok" %t.out > /dev/null \
// RUN:               && echo "groups=$g stages=$n in-flight=$f $shape trips=$t $sched: ok" || { echo "FAILED groups=$g stages=$n in-flight=$f $shape trips=$t $sched"; cat %t.out; exit 1; }; \
// RUN:           done; \
// RUN:         done; \
// RUN:       done; \
// RUN:     done; \
// RUN:   done; \
// RUN: done | FileCheck %s
// CHECK-NOT: FAILED
// CHECK-COUNT-72: groups=1 stages={{[1-4]}} in-flight=0 {{.*}}: ok
// CHECK-COUNT-54: groups=1 stages={{[2-4]}} in-flight=1 {{.*}}: ok
// CHECK-COUNT-72: groups=2 stages={{[1-4]}} in-flight=0 {{.*}}: ok
// CHECK-COUNT-54: groups=2 stages={{[2-4]}} in-flight=1 {{.*}}: ok
// CHECK-NOT: FAILED
