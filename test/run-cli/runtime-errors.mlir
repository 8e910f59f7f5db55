// Runtime errors (deadlocks, out-of-bounds accesses, runaway loops) are rendered with the
// source spans the interpreter reports; status 1 and nothing on standard output.
//
// A barrier that expects 64 arrivals gets only the 32 of one warp, which then waits forever.
// RUN: not tilus-run %s --kernel stuck 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// RUN: tilus-run %s --kernel stuck 2>/dev/null; test $? -eq 1
// RUN: not tilus-run %s --kernel stuck 2>/dev/null | FileCheck %s --allow-empty --check-prefix=NOTHING
// DEADLOCK:      × deadlock: {{.*}}
// DEADLOCK:      mbarrier.wait %bar[%c0 : i32], phase(%phase) : !mbarrier.barriers<1>
// DEADLOCK:      pending arrivals 32 of 64
// NOTHING-NOT: {{.}}
//
// The one-line form.
// RUN: not tilus-run %s --kernel stuck --diagnostic-format=mlir 2>&1 | FileCheck %s --check-prefix=MLIR
// MLIR: runtime-errors.mlir:{{[0-9]+}}:5: error: deadlock: every live unit is blocked
//
// A random schedule finds the same deadlock.
// RUN: not tilus-run %s --kernel stuck --schedule random --seed 5 2>&1 | FileCheck %s --check-prefix=DEADLOCK
//
// --max-steps stops a kernel that runs too long.
// RUN: not tilus-run %s --kernel spin --max-steps 100 2>&1 | FileCheck %s --check-prefix=STEPS
// STEPS: × the run exceeded the step limit (100 steps)

tilus.kernel @stuck() warps(2) blocks(affine_map<() -> (1)>) {
  %c0 = arith.constant 0 : i32
  %bar = mbarrier.alloc counts [64] : !mbarrier.barriers<1>
  %phase = mbarrier.consumer_initial_phase
  threadgroup.single_warp {
    mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
    mbarrier.wait %bar[%c0 : i32], phase(%phase) : !mbarrier.barriers<1>
  }
}

tilus.kernel @spin(%n: i32) warps(1) blocks(affine_map<(d0) -> (1)>) attributes {tilus.args = {n = 1000000 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    %x = arith.addi %i, %c1 : i32
  }
}
