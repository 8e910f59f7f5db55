// mbarriers with phases: seed 003's two usage patterns, and the ring-buffer idiom of spec §4.3.
//
// An mbarrier counts arrivals (and, for TMA, transaction bytes); when a phase's count is
// reached the barrier flips its phase bit and reloads the count. `mbarrier.wait ...,
// phase(p)` returns once the phase with parity p has completed, so a waiter keeps its own
// parity and flips it after every completed wait. Arrive ops run on EVERY thread of the
// executing group (a 32-thread group arriving is 32 arrivals; spec §4.2, §11.2), so counts
// are sized to the arriving group, or the arrival is wrapped in `threadgroup.single_thread`.
//
// @same_thread_loop: seed 003's "same-thread arrive and wait" loop. Every iteration all 128
// threads arrive (the barrier was allocated without counts, so it expects the allocating
// group's 128 arrivals) and then wait on the current parity, which flips in the loop's
// iter_args: 0, 1, 0, ...
//
// @producer_consumer: seed 003's "separate producer and consumer warps", with a 2-stage ring.
// `full[s]` says "stage s holds data" (the producer warp's 32 threads arrive), `empty[s]` says
// "stage s may be overwritten" (the consumer warp's 32 threads arrive). The producer starts
// from `mbarrier.producer_initial_phase` (1: waiting for parity 1 on a fresh barrier returns
// at once, so every slot starts free) and the consumer from `consumer_initial_phase` (0: it
// blocks until the first fill). Each side advances stage = (stage + 1) % 2 and flips its
// phase when the stage wraps to 0 (spec §4.3), carried in scf.for iter_args. (Seed 003's
// snippet has one barrier of count 1 and 32 arriving threads; here counts match the arrivals.)
//
// Check: tilus-opt examples/mbarrier_loop.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter; @producer_consumer is checked against @producer_consumer_ref,
// also under a random schedule:
// RUN: tilus-run %s --kernel same_thread_loop | FileCheck %s --check-prefix=LOOP
// LOOP: steps:
// RUN: tilus-run %s --kernel producer_consumer | FileCheck %s --check-prefix=PC
// RUN: tilus-run %s --kernel producer_consumer --schedule random --seed 3 | FileCheck %s --check-prefix=PC
// PC: check y vs reference @producer_consumer_ref: ok

// CHECK-LABEL: tilus.kernel @same_thread_loop
// CHECK:         %[[BAR:.*]] = mbarrier.alloc : !mbarrier.barriers<1>
// CHECK:         %[[P0:.*]] = mbarrier.consumer_initial_phase
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PH:.*]] = %[[P0]]) -> (i32)  : i32 {
// CHECK-NEXT:      mbarrier.arrive %[[BAR]][%{{.*}} : i32] : !mbarrier.barriers<1>
// CHECK-NEXT:      mbarrier.wait %[[BAR]][%{{.*}} : i32], phase(%[[PH]]) : !mbarrier.barriers<1>
// CHECK-NEXT:      %[[NEXT:.*]] = arith.xori %[[PH]], %{{.*}} : i32
// CHECK-NEXT:      scf.yield %[[NEXT]] : i32
tilus.kernel @same_thread_loop(%iters: i32) warps(4) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.args = {iters = 5 : i32}} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // No counts: the barrier expects one arrival per thread of the allocating group (128).
  %bar = mbarrier.alloc : !mbarrier.barriers<1>
  %phase0 = mbarrier.consumer_initial_phase
  %last = scf.for %i = %c0 to %iters step %c1 iter_args(%phase = %phase0) -> (i32) : i32 {
    // ... this iteration's work; then signal it (a tcgen05.commit would arrive the same way).
    mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
    // Blocks until all 128 arrivals of this phase are in; the barrier is then in the next phase.
    mbarrier.wait %bar[%c0 : i32], phase(%phase) : !mbarrier.barriers<1>
    %next = arith.xori %phase, %c1 : i32
    scf.yield %next : i32
  }
}

// CHECK-LABEL: tilus.kernel @producer_consumer
// CHECK:         %[[FULL:.*]] = mbarrier.alloc counts [32, 32] : !mbarrier.barriers<2>
// CHECK-NEXT:    %[[EMPTY:.*]] = mbarrier.alloc counts [32, 32] : !mbarrier.barriers<2>
// CHECK:         threadgroup.single_warp {
// CHECK-NEXT:      %[[PP:.*]] = mbarrier.producer_initial_phase
// CHECK-NEXT:      scf.for {{.*}} iter_args(%[[PS:.*]] = %{{.*}}, %[[PPH:.*]] = %[[PP]]) -> (i32, i32)  : i32 {
// CHECK-NEXT:        mbarrier.wait %[[EMPTY]][%[[PS]] : i32], phase(%[[PPH]]) : !mbarrier.barriers<2>
// CHECK:             tilus.store_shared
// CHECK-NEXT:        mbarrier.arrive %[[FULL]][%[[PS]] : i32] : !mbarrier.barriers<2>
// CHECK:         threadgroup.single_warp warp(1) {
// CHECK-NEXT:      %[[CP:.*]] = mbarrier.consumer_initial_phase
// CHECK:           scf.for {{.*}} iter_args(%[[CS:.*]] = %{{.*}}, %[[CPH:.*]] = %[[CP]], %{{.*}} = %{{.*}}) -> (i32, i32, !tilus.reg<32xf32, layout = spatial(32)>)  : i32 {
// CHECK-NEXT:        mbarrier.wait %[[FULL]][%[[CS]] : i32], phase(%[[CPH]]) : !mbarrier.barriers<2>
// CHECK:             tilus.load_shared
// CHECK-NEXT:        mbarrier.arrive %[[EMPTY]][%[[CS]] : i32] : !mbarrier.barriers<2>
tilus.kernel @producer_consumer(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {iters = 7 : i32}, tilus.outputs = ["y"], tilus.reference = "producer_consumer_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant 0.0 : f32
  %len = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%len] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32xf32>
  // Two stages of 32 floats, and per stage a "full" and an "empty" barrier. Each expects the
  // 32 arrivals of one warp.
  %buf = tilus.shared_tensor : !tilus.shared<2x32xf32>
  %full = mbarrier.alloc counts [32, 32] : !mbarrier.barriers<2>
  %empty = mbarrier.alloc counts [32, 32] : !mbarrier.barriers<2>

  // Producer: warp 0 (threads 0-31).
  threadgroup.single_warp {
    %pphase0 = mbarrier.producer_initial_phase
    %pend:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %pphase0) -> (i32, i32) : i32 {
      // Wait until the consumer has freed this stage (returns at once the first time round).
      mbarrier.wait %empty[%stage : i32], phase(%phase) : !mbarrier.barriers<2>
      %off = arith.muli %i, %c32 : i32
      %v = tilus.load_global %gx[%off] : !tilus.global<?xf32> -> !tilus.reg<32xf32, layout = spatial(32)>
      %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<2x32xf32> -> !tilus.shared<32xf32>
      tilus.store_shared %v, %slot : !tilus.reg<32xf32, layout = spatial(32)>, !tilus.shared<32xf32>
      // 32 arrivals (release: each thread's store is visible to whoever observes the phase).
      mbarrier.arrive %full[%stage : i32] : !mbarrier.barriers<2>
      // Advance: stage = (stage + 1) % 2, phase ^= 1 when the stage wraps.
      %s1 = arith.addi %stage, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %c2 : i32
      %ns = arith.select %wrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %wrap, %flip, %phase : i32
      scf.yield %ns, %np : i32, i32
    }
  }

  // Consumer: warp 1 (threads 32-63).
  threadgroup.single_warp warp(1) {
    %cphase0 = mbarrier.consumer_initial_phase
    %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32xf32, layout = spatial(32)>
    %cend:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %cphase0, %acc = %acc0) -> (i32, i32, !tilus.reg<32xf32, layout = spatial(32)>) : i32 {
      // Wait until the producer has filled this stage.
      mbarrier.wait %full[%stage : i32], phase(%phase) : !mbarrier.barriers<2>
      %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<2x32xf32> -> !tilus.shared<32xf32>
      %v = tilus.load_shared %slot : !tilus.shared<32xf32> -> !tilus.reg<32xf32, layout = spatial(32)>
      // The data is in registers: hand the stage back to the producer.
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
  // Both roles are done with the ring before it is released.
  threadgroup.sync
  tilus.free_shared %buf : !tilus.shared<2x32xf32>
}

// A naive reference for `tilus-run` (@producer_consumer's `tilus.reference`): one warp sums the
// 32-float chunks straight from global memory, without the shared ring or barriers.
tilus.kernel @producer_consumer_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant 0.0 : f32
  %len = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%len] : !tilus.ptr<f32> -> !tilus.global<?xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32xf32>
  %acc = scf.for %i = %c0 to %iters step %c1 iter_args(%a = %acc0) -> (!tilus.reg<32xf32>) : i32 {
    %off = arith.muli %i, %c32 : i32
    %v = tilus.load_global %gx[%off] : !tilus.global<?xf32> -> !tilus.reg<32xf32>
    %s = tilus.add %a, %v : (!tilus.reg<32xf32>, !tilus.reg<32xf32>) -> !tilus.reg<32xf32>
    scf.yield %s : !tilus.reg<32xf32>
  }
  tilus.store_global %acc, %gy[%c0] : !tilus.reg<32xf32>, !tilus.global<32xf32>
}
