// verify-barriers on a persistent kernel whose k-loop starts its (stage, phase) ring where the
// previous tile's k-loop left it (examples/hopper_matmul_v4_persistent.mlir). The consumers keep
// one wgmma in flight and release `(stage + S - 1) mod S` from the second k-step on: the check
// compares that stage with the one the in-flight wgmma reads as offsets of the same ring (whose
// start is unknown but, by induction over both loops, inside [0, S)), and accepts it.
// RUN: tilus-opt %S/../../examples/hopper_matmul_v4_persistent.mlir --verify-barriers -o /dev/null
//
// Broken: the current stage released after `wait_group 1` (the stage its wgmma still reads).
// The check rejects it at both consumers, and the interpreter runs into the consequence.
// RUN: sed -e 's/mbarrier.arrive %%empty\[%%prev : i32\]/mbarrier.arrive %%empty[%%st : i32]/' %S/../../examples/hopper_matmul_v4_persistent.mlir > %t.mlir
// RUN: not tilus-opt %t.mlir --verify-barriers -o /dev/null --diagnostic-format mlir 2>&1 | FileCheck %s
// CHECK-COUNT-2: error: this releases a stage while a wgmma.mma may still be reading it: 1 MMA group is not retired by wgmma.wait_group
// RUN: not tilus-run %t.mlir 2>&1 | FileCheck %s --check-prefix=INTERP
// INTERP: deadlock
