// verify-barriers accepts every litmus kernel that completes on the GPU and the interpreter:
// sequential phases of one barrier in straight-line code (a wait, or an arrive that alone
// completes a phase, separates them), a second wait's parity counted from the first, and a
// read ordered after a TMA fill through a hand-off barrier. The racy or hanging litmus kernels
// it rejects are in the checks below.
// RUN: tilus-opt %S/../litmus/tma_two_phases.mlir --verify-barriers -o /dev/null
// RUN: tilus-opt %S/../litmus/parity_preceding_phase.mlir --verify-barriers -o /dev/null
// RUN: tilus-opt %S/../litmus/parity_missed_phase.mlir --verify-barriers -o /dev/null
// RUN: tilus-opt %S/../litmus/tma_handoff.mlir --verify-barriers -o /dev/null
// RUN: tilus-opt %S/../litmus/wgmma_wait_older_ok.mlir --verify-barriers -o /dev/null
// RUN: tilus-opt %S/../litmus/tma_store_reuse_ok.mlir --verify-barriers -o /dev/null
// RUN: tilus-opt %S/../litmus/partial_wait_store.mlir --verify-barriers -o /dev/null
// RUN: tilus-opt %S/../litmus/partial_wait_shared.mlir --verify-barriers -o /dev/null
// RUN: not tilus-opt %S/../litmus/over_arrival.mlir --verify-barriers -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVER
// OVER: over-arrives: 32 arrivals per phase on a barrier of count 1
// RUN: not tilus-opt %S/../litmus/parity_current_phase.mlir --verify-barriers -o /dev/null 2>&1 | FileCheck %s --check-prefix=HANG
// HANG: this wait never returns
// RUN: not tilus-opt %S/../litmus/tma_read_without_wait.mlir --verify-barriers -o /dev/null 2>&1 | FileCheck %s --check-prefix=RACE
// RACE: reads shared memory that a TMA copy fills without waiting
