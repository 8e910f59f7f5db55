// BROKEN: a missing arrive. The producer warp fills a stage of a 2-stage ring but never
// arrives on full[stage], so the consumer's first wait on full[0] can never complete; the
// producer then runs out of free stages (nobody releases them) and the third warp waits at the
// closing threadgroup.sync for the other two.
//
// The user should see a deadlock report (exit status 1, nothing hangs) that names every
// blocked unit with its threads and the op it waits at: the producer (threads [0, 32)) at its
// wait on empty[0], the consumer (threads [32, 64)) at its wait on full[0] with the barrier
// state "phase 0, pending arrivals 32 of 32, tx-count 0" (not one arrival came in), and warp 2
// (threads [64, 96)) at the threadgroup.sync; each barrier note points at its mbarrier.alloc.
//
// RUN: not tilus-run %s --backend interp 2>&1 | FileCheck %s
// RUN: not tilus-run %s --backend interp --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=LOC
// RUN: tilus-run %s --backend interp >/dev/null 2>&1; test $? -eq 1
// The random schedule finds the same deadlock.
// RUN: not tilus-run %s --backend interp --schedule random --seed 11 2>&1 | FileCheck %s --check-prefix=RANDOM
// verify-barriers finds it statically:
// RUN: tilus-opt %s --verify-barriers --verify-diagnostics --no-output
//
// CHECK:      × deadlock: every live unit is blocked (3 units, no asynchronous work in flight)
// CHECK:      │       mbarrier.wait %empty[%stage : i32], phase(%phase) : !mbarrier.barriers<2>
// CHECK-NEXT: ┬
// CHECK-NEXT: ╰── blocked here
// The producer: stage 0 comes back only when the consumer releases it.
// CHECK:      ☞ block (0, 0, 0): threads [0, 32) wait at mbarrier.wait for the phase of parity 0 of barrier 0 of the mbarrier.alloc at the note below (phase 0, pending arrivals 32 of 32, tx-count 0); 32 more arrivals are needed and no unit will make them
// CHECK:      │       mbarrier.wait %empty[%stage : i32], phase(%phase) : !mbarrier.barriers<2>
// CHECK:      ☞ the barriers were allocated here
// CHECK:      │   %empty = mbarrier.alloc counts [32, 32] : !mbarrier.barriers<2>
// CHECK-NEXT: ┬
// The consumer: full[0] has not seen a single arrival.
// CHECK:      ☞ block (0, 0, 0): threads [32, 64) wait at mbarrier.wait for the phase of parity 0 of barrier 0 of the mbarrier.alloc at the note below (phase 0, pending arrivals 32 of 32, tx-count 0); 32 more arrivals are needed and no unit will make them
// CHECK:      │       mbarrier.wait %full[%stage : i32], phase(%phase) : !mbarrier.barriers<2>
// CHECK-NEXT: ┬
// CHECK:      ☞ the barriers were allocated here
// CHECK:      │   %full = mbarrier.alloc counts [32, 32] : !mbarrier.barriers<2>
// CHECK-NEXT: ┬
// The epilogue warp.
// CHECK:      ☞ block (0, 0, 0): threads [64, 96) wait at threadgroup.sync for threads [0, 96) to arrive
// CHECK:      │   threadgroup.sync
// CHECK-NEXT: ┬
//
// RANDOM: × deadlock: every live unit is blocked (3 units, no asynchronous work in flight)
// RANDOM-DAG: threads [0, 32) wait at mbarrier.wait for the phase of parity 0 of barrier 0 {{.*}}(phase 0, pending arrivals 32 of 32, tx-count 0)
// RANDOM-DAG: threads [32, 64) wait at mbarrier.wait for the phase of parity 0 of barrier 0 {{.*}}(phase 0, pending arrivals 32 of 32, tx-count 0)
// RANDOM-DAG: threads [64, 96) wait at threadgroup.sync

tilus.kernel @producer_consumer(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(3) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {iters = 7 : i32}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant 0.0 : f32
  %len = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%len] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %buf = tilus.shared_tensor : !tilus.shared<2x32xf32>
  // expected-note@+2 {{barriers#0 is allocated here with counts [32, 32]; an arrive on it is missing from a round}}
  // LOC-DAG: .mlir:[[#@LINE+1]]:11: note: the barriers were allocated here
  %full = mbarrier.alloc counts [32, 32] : !mbarrier.barriers<2>
  // LOC-DAG: .mlir:[[#@LINE+1]]:12: note: the barriers were allocated here
  %empty = mbarrier.alloc counts [32, 32] : !mbarrier.barriers<2>

  // Producer: warp 0.
  threadgroup.single_warp {
    %pphase0 = mbarrier.producer_initial_phase
    %pend:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %pphase0) -> (i32, i32) : i32 {
      // LOC-DAG: .mlir:[[#@LINE+2]]:7: error: deadlock: every live unit is blocked (3 units, no asynchronous work in flight)
      // LOC-DAG: .mlir:[[#@LINE+1]]:7: note: block (0, 0, 0): threads [0, 32) wait at mbarrier.wait for the phase of parity 0 of barrier 0 {{.*}}(phase 0, pending arrivals 32 of 32, tx-count 0)
      mbarrier.wait %empty[%stage : i32], phase(%phase) : !mbarrier.barriers<2>
      %off = arith.muli %i, %c32 : i32
      %v = tilus.load_global %gx[%off] : !tilus.global<?xf32> -> !tilus.reg<32xf32, layout = spatial(32)>
      %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<2x32xf32> -> !tilus.shared<32xf32>
      tilus.store_shared %v, %slot : !tilus.reg<32xf32, layout = spatial(32)>, !tilus.shared<32xf32>
      // BROKEN: `mbarrier.arrive %full[%stage : i32] : !mbarrier.barriers<2>` belongs here.
      %s1 = arith.addi %stage, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %c2 : i32
      %ns = arith.select %wrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %wrap, %flip, %phase : i32
      scf.yield %ns, %np : i32, i32
    }
  }

  // Consumer: warp 1.
  threadgroup.single_warp warp(1) {
    %cphase0 = mbarrier.consumer_initial_phase
    %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32xf32, layout = spatial(32)>
    %cend:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %cphase0, %acc = %acc0) -> (i32, i32, !tilus.reg<32xf32, layout = spatial(32)>) : i32 {
      // expected-error@+2 {{this wait never returns when the loop runs 1 iteration: iteration 0 waits for phase 0 (parity 0) of barriers#0[0], but the arrivals complete only 0 phases of it}}
      // LOC-DAG: .mlir:[[#@LINE+1]]:7: note: block (0, 0, 0): threads [32, 64) wait at mbarrier.wait for the phase of parity 0 of barrier 0 {{.*}}(phase 0, pending arrivals 32 of 32, tx-count 0)
      mbarrier.wait %full[%stage : i32], phase(%phase) : !mbarrier.barriers<2>
      %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<2x32xf32> -> !tilus.shared<32xf32>
      %v = tilus.load_shared %slot : !tilus.shared<32xf32> -> !tilus.reg<32xf32, layout = spatial(32)>
      mbarrier.arrive %empty[%stage : i32] : !mbarrier.barriers<2>
      %acc2 = tilus.add %acc, %v : (!tilus.reg<32xf32, layout = spatial(32)>, !tilus.reg<32xf32, layout = spatial(32)>) -> !tilus.reg<32xf32, layout = spatial(32)>
      %s1 = arith.addi %stage, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %c2 : i32
      %ns = arith.select %wrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %wrap, %flip, %phase : i32
      scf.yield %ns, %np, %acc2 : i32, i32, !tilus.reg<32xf32, layout = spatial(32)>
    }
    tilus.store_global %cend#2, %gy[%c0] : !tilus.reg<32xf32, layout = spatial(32)>, !tilus.global<32xf32>
  }

  // Warp 2 (an epilogue warp) and both roles meet here before the ring is released.
  // LOC-DAG: .mlir:[[#@LINE+1]]:3: note: block (0, 0, 0): threads [64, 96) wait at threadgroup.sync for threads [0, 96) to arrive
  threadgroup.sync
  tilus.free_shared %buf : !tilus.shared<2x32xf32>
}
