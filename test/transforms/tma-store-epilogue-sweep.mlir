// The sweep for tma-store-epilogue (issue 15): the persistent Hopper matmul
// (examples/hopper_matmul_v1_persistent.mlir) through pipeline{stages=N}, warp-specialize
// {consumer-warpgroups=K mma-in-flight=F} and tma-store-epilogue, for N = 1 .. 3 (four 48 KiB
// stages leave no room for the buffers), K = 1, 2 and F = 0, 1 (F = 1 needs N >= 2): 10
// kernels, each accepted by verify-barriers and run by the interpreter against the naive
// reference on the deterministic schedule and a random one, with no deadlock or race (the
// interpreter reports a buffer rewritten or freed while a TMA store still reads it) and C
// matching. Each consumer warpgroup sends one tile after another through its buffer, so the
// shapes vary how many stores a group issues and what the producer runs into:
//   tiles: 1 tile on 2 blocks (a block with no tile issues no store and still waits),
//          4 tiles on 3 blocks, 6 tiles on 2 blocks (3 stores through one buffer);
//          N = 200 (not a multiple of 64: every tile takes the direct store);
//   k steps per tile (K / 64): 1, N - 1 (0 for N = 1: the accumulator's zeros are stored) and
//          N + 1.
// With two consumer warpgroups the pass also overlaps the epilogue with the next tile's first
// k-step (each group carries its previous 64 x 256 f16 tile); one warpgroup's 128 x 256 tile is
// too large to carry, so K = 1 covers the epilogue without the overlap.
//
// RUN: for g in 1 2; do \
// RUN:   for f in 0 1; do \
// RUN:     for n in 1 2 3; do \
// RUN:       if [ $f = 1 ] && [ $n = 1 ]; then continue; fi; \
// RUN:       tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline="builtin.module(pipeline{stages=$n},warp-specialize{consumer-warpgroups=$g mma-in-flight=$f},tma-store-epilogue,verify-barriers)" -o %t.$g.$n.$f.mlir || exit 1; \
// RUN:       grep -c "tma.shared_to_global" %t.$g.$n.$f.mlir | grep -qx $((g == 1 ? 4 : 12)) || { echo "FAILED groups=$g stages=$n in-flight=$f: not 4 TMA stores (one warpgroup) or 6 a group (two: box 0 in three places with the overlap)"; exit 1; }; \
// RUN:       for shape in "m=128 n=256 s=2" "m=256 n=512 s=3" "m=384 n=512 s=2" "m=256 n=200 s=2"; do \
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
// CHECK-COUNT-72: groups=1 stages={{[1-3]}} in-flight=0 {{.*}}: ok
// CHECK-COUNT-48: groups=1 stages={{[2-3]}} in-flight=1 {{.*}}: ok
// CHECK-COUNT-72: groups=2 stages={{[1-3]}} in-flight=0 {{.*}}: ok
// CHECK-COUNT-48: groups=2 stages={{[2-3]}} in-flight=1 {{.*}}: ok
// CHECK-NOT: FAILED
