// BROKEN: expect_tx with too many bytes. The producer announces 8196 bytes per stage on
// full[stage], but the TMA copy of a 32x64 f32 tile delivers 8192: 4 announced bytes never
// come, so the phase never completes although every arrival is in.
//
// The user should see a deadlock report whose consumer note (threads [32, 64), at its wait on
// full[0]) shows the barrier state "phase 0, pending arrivals 0 of 1, tx-count 4" (the one
// arrival is in, the tx-count is stuck) and says the byte count is too large (or a copy is missing).
// The producer is blocked at its wait on empty[0] (the consumer never released a stage).
//
// RUN: not tilus-run %s --backend interp 2>&1 | FileCheck %s
// RUN: not tilus-run %s --backend interp --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=LOC
// RUN: tilus-run %s --backend interp >/dev/null 2>&1; test $? -eq 1
// verify-barriers finds it statically:
// RUN: tilus-opt %s --verify-barriers --verify-diagnostics --no-output
//
// CHECK:      × deadlock: every live unit is blocked (2 units, no asynchronous work in flight)
// CHECK:      │       mbarrier.wait %empty[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
// CHECK-NEXT: ┬
// CHECK-NEXT: ╰── blocked here
// CHECK:      ☞ block (0, 0, 0): threads [0, 32) wait at mbarrier.wait for the phase of parity 0 of barrier 0 of the mbarrier.alloc at the note below (phase 0, pending arrivals 32 of 32, tx-count 0); 32 more arrivals are needed and no unit will make them
// CHECK:      ☞ the barriers were allocated here
// CHECK:      │   %empty = mbarrier.alloc counts [32, 32, 32] : !mbarrier.barriers<3>
// CHECK-NEXT: ┬
// CHECK:      ☞ block (0, 0, 0): threads [32, 64) wait at mbarrier.wait for the phase of parity 0 of barrier 0 of the mbarrier.alloc at the note below (phase 0, pending arrivals 0 of 1, tx-count 4); every arrival is in but 4 announced bytes never arrived: the expect_tx byte count is too large, or a copy is missing
// CHECK:      │       mbarrier.wait %full[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
// CHECK-NEXT: ┬
// CHECK:      ☞ the barriers were allocated here
// CHECK:      │   %full = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
// CHECK-NEXT: ┬
//
// The kernel: y = sum over i < iters of the 32x64 f32 tiles x[32 i : 32 i + 32, :] through a
// 3-stage ring (as @pipeline in test/run/pipeline.mlir). Warp 0 produces with TMA (one thread
// announces 8192 bytes on full[stage], the warp issues the copy), warp 1 consumes from shared
// memory and releases the stage with its 32 arrivals on empty[stage]; both flip their phase
// when the stage wraps to 0.

tilus.kernel @pipeline(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {iters = 7 : i32}, tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cS = arith.constant 3 : i32
  %c32 = arith.constant 32 : i32
  // BROKEN: a 32x64 f32 stage is 8192 bytes.
  %stage_bytes = arith.constant 8196 : i32
  %zero = arith.constant 0.0 : f32
  %rows = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%rows] : !tilus.ptr<f32> -> !tilus.global<?x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %buf = tilus.shared_tensor : !tilus.shared<3x32x64xf32>
  // LOC-DAG: .mlir:[[#@LINE+1]]:11: note: the barriers were allocated here
  %full = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
  // LOC-DAG: .mlir:[[#@LINE+1]]:12: note: the barriers were allocated here
  %empty = mbarrier.alloc counts [32, 32, 32] : !mbarrier.barriers<3>
  // Producer: warp 0.
  threadgroup.single_warp warp(0) {
    %p0 = mbarrier.producer_initial_phase
    %pend:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %p0) -> (i32, i32) : i32 {
      // LOC-DAG: .mlir:[[#@LINE+2]]:7: error: deadlock: every live unit is blocked
      // LOC-DAG: .mlir:[[#@LINE+1]]:7: note: block (0, 0, 0): threads [0, 32) wait at mbarrier.wait {{.*}}(phase 0, pending arrivals 32 of 32, tx-count 0)
      mbarrier.wait %empty[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
      %row = arith.muli %i, %c32 : i32
      %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
      threadgroup.single_thread {
        // expected-error@+1 {{too many transaction bytes: 8196 announced per phase of barriers#0[k mod 3], but the TMA copies signalling it bring 8192 (4 never arrive: the phase never completes)}}
        mbarrier.arrive_expect_tx %full[%stage : i32], %stage_bytes : !mbarrier.barriers<3>
      }
      // expected-note@+1 {{this copy brings 8192 bytes}}
      tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %full[%stage : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
      %s1 = arith.addi %stage, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %cS : i32
      %ns = arith.select %wrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %wrap, %flip, %phase : i32
      scf.yield %ns, %np : i32, i32
    }
  }
  // Consumer: warp 1.
  threadgroup.single_warp warp(1) {
    %q0 = mbarrier.consumer_initial_phase
    %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x64xf32>
    %cend:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %q0, %acc = %acc0) -> (i32, i32, !tilus.reg<32x64xf32>) : i32 {
      // LOC-DAG: .mlir:[[#@LINE+1]]:7: note: block (0, 0, 0): threads [32, 64) wait at mbarrier.wait for the phase of parity 0 of barrier 0 {{.*}}(phase 0, pending arrivals 0 of 1, tx-count 4); every arrival is in but 4 announced bytes never arrived: the expect_tx byte count is too large, or a copy is missing
      mbarrier.wait %full[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
      %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
      %v = tilus.load_shared %slot : !tilus.shared<32x64xf32> -> !tilus.reg<32x64xf32>
      mbarrier.arrive %empty[%stage : i32] : !mbarrier.barriers<3>
      %acc2 = tilus.add %acc, %v : (!tilus.reg<32x64xf32>, !tilus.reg<32x64xf32>) -> !tilus.reg<32x64xf32>
      %s1 = arith.addi %stage, %c1 : i32
      %cwrap = arith.cmpi eq, %s1, %cS : i32
      %ns = arith.select %cwrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %cwrap, %flip, %phase : i32
      scf.yield %ns, %np, %acc2 : i32, i32, !tilus.reg<32x64xf32>
    }
    tilus.store_global %cend#2, %gy[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
  }
  threadgroup.sync
  tilus.free_shared %buf : !tilus.shared<3x32x64xf32>
}
