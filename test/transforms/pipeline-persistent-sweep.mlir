// The persistent sweep for pipeline (issue 15): pipeline{stages=N} on the persistent Hopper
// matmul (examples/hopper_matmul_v1_persistent.mlir, 128 x 256 tiles) for N = 1 .. 4 (five
// stages of 48 KiB do not fit in shared memory), each result accepted by verify-barriers and
// run by the interpreter against the naive reference on the deterministic schedule and a random
// one, with no deadlock or race (tilus-run exits non-zero on either) and C matching. The ring is
// carried across tiles, so the shapes vary what crosses a tile boundary:
//   tiles: 1 tile on 2 blocks (a block with no tile: its walk is empty), 4 tiles on 3 blocks
//          (not a multiple: block 0 walks 2 tiles, the others 1), 6 tiles on 2 blocks (3 each);
//   k steps per tile (K / 64): 1, N - 1 (fewer than the stages: the prologue and the refills
//          reach several tiles ahead; 0 for N = 1, a walk of no k steps) and N + 1.
// All of them are run-time values (kernel arguments).
//
// RUN: for n in 1 2 3 4; do \
// RUN:   tilus-opt %S/../../examples/hopper_matmul_v1_persistent.mlir --pass-pipeline="builtin.module(pipeline{stages=$n},verify-barriers)" -o %t.$n.mlir || exit 1; \
// RUN:   for shape in "m=128 n=256 s=2" "m=256 n=512 s=3" "m=384 n=512 s=2"; do \
// RUN:     set -- $shape; args="--arg $1 --arg $2 --arg num_sms=${3#s=}"; \
// RUN:     for t in 1 $((n - 1)) $((n + 1)); do \
// RUN:       for sched in "--schedule deterministic" "--schedule random --seed $((100 * n + t))"; do \
// RUN:         tilus-run %t.$n.mlir $args --arg k=$((64 * t)) $sched > %t.out 2>&1 \
// RUN:           && grep "check c vs reference @matmul_ref: ok" %t.out > /dev/null \
// RUN:           && echo "stages=$n $shape trips=$t $sched: ok" || { echo "FAILED stages=$n $shape trips=$t $sched"; cat %t.out; exit 1; }; \
// RUN:       done; \
// RUN:     done; \
// RUN:   done; \
// RUN: done | FileCheck %s
// CHECK-NOT: FAILED
// CHECK-COUNT-72: stages={{[1-4]}} m={{[0-9]+}} n={{[0-9]+}} s={{[0-9]}} trips={{[0-9]+}} --schedule {{.*}}: ok
// CHECK-NOT: FAILED
