// verify-barriers on broken variants of a 3-stage TMA ring (the kernel of
// test/transforms/verify-barriers.mlir): each error is at the op, with the barrier, slot,
// phase and what is missing, and the interpreter's verdict on the same kernel agrees.
// RUN: tilus-opt %s --split-input-file --verify-barriers --verify-diagnostics --no-output
//
// The refill stops one tile early: fine for up to 3 iterations, stuck from 4 on. The check
// finds the smallest trip count that hangs; the interpreter hangs on it.
// RUN: not tilus-run %s --kernel refill_guard_short --arg iters=4 2>&1 | FileCheck %s --check-prefix=GUARD
// RUN: tilus-run %s --kernel refill_guard_short --arg iters=3 | FileCheck %s --check-prefix=GUARD-OK
// GUARD: deadlock: every live unit is blocked
// GUARD-OK: output y: f32[32, 64]
//
// RUN: not tilus-run %s --kernel phase_flips_every_iteration 2>&1 | FileCheck %s --check-prefix=FLIP
// FLIP: deadlock: every live unit is blocked
//
// RUN: not tilus-run %s --kernel consumer_starts_at_parity_1 2>&1 | FileCheck %s --check-prefix=INIT
// INIT: tilus.load_shared reads shared memory [0, 8192) that an unfinished TMA copy (tma.global_to_shared) writes
//
// RUN: not tilus-run %s --kernel copy_without_announcement 2>&1 | FileCheck %s --check-prefix=NOTX
// NOTX: deadlock: every live unit is blocked

tilus.kernel @refill_guard_short(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {iters = 7 : i32}, tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cS = arith.constant 3 : i32
  %c32 = arith.constant 32 : i32
  %bytes = arith.constant 8192 : i32
  %zero = arith.constant 0.0 : f32
  %rows = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%rows] : !tilus.ptr<f32> -> !tilus.global<?x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %buf = tilus.shared_tensor : !tilus.shared<3x32x64xf32>
  // expected-note@+1 {{barriers#0 is allocated here with counts [1, 1, 1]; an arrive on it is missing from a round}}
  %bars = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
  %npre = arith.minsi %iters, %cS : i32
  threadgroup.single_thread {
    scf.for %s = %c0 to %npre step %c1 : i32 {
      %row = arith.muli %s, %c32 : i32
      %slot = tilus.slice_shared %buf[%s] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
      mbarrier.arrive_expect_tx %bars[%s : i32], %bytes : !mbarrier.barriers<3>
      tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %bars[%s : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
    }
  }
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x64xf32>
  %p0 = mbarrier.consumer_initial_phase
  %res:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %stage = %c0, %phase = %p0) -> (!tilus.reg<32x64xf32>, i32, i32) : i32 {
    // expected-error@+1 {{this wait never returns when the loop runs 4 iterations: iteration 3 waits for phase 1 (parity 1) of barriers#0[0], but the arrivals complete only 1 phase of it}}
    mbarrier.wait %bars[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
    %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
    %v = tilus.load_shared %slot : !tilus.shared<32x64xf32> -> !tilus.reg<32x64xf32>
    %acc2 = tilus.add %acc, %v : (!tilus.reg<32x64xf32>, !tilus.reg<32x64xf32>) -> !tilus.reg<32x64xf32>
    threadgroup.sync
    %c4 = arith.constant 4 : i32
    // BROKEN: tile i + 3 is loaded only while i + 4 < iters: the last tile never arrives.
    %j = arith.addi %i, %c4 : i32
    %jj = arith.addi %i, %cS : i32
    %more = arith.cmpi slt, %j, %iters : i32
    threadgroup.single_thread {
      scf.if %more {
        %row = arith.muli %jj, %c32 : i32
        mbarrier.arrive_expect_tx %bars[%stage : i32], %bytes : !mbarrier.barriers<3>
        tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %bars[%stage : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
      }
    }
    %s1 = arith.addi %stage, %c1 : i32
    %wrap = arith.cmpi eq, %s1, %cS : i32
    %ns = arith.select %wrap, %c0, %s1 : i32
    %flip = arith.xori %phase, %c1 : i32
    %np = arith.select %wrap, %flip, %phase : i32
    scf.yield %acc2, %ns, %np : !tilus.reg<32x64xf32>, i32, i32
  }
  tilus.store_global %res#0, %gy[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
  tilus.free_shared %buf : !tilus.shared<3x32x64xf32>
}

// -----

tilus.kernel @phase_flips_every_iteration(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {iters = 7 : i32}, tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cS = arith.constant 3 : i32
  %c32 = arith.constant 32 : i32
  %bytes = arith.constant 8192 : i32
  %zero = arith.constant 0.0 : f32
  %rows = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%rows] : !tilus.ptr<f32> -> !tilus.global<?x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %buf = tilus.shared_tensor : !tilus.shared<3x32x64xf32>
  %bars = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
  %npre = arith.minsi %iters, %cS : i32
  threadgroup.single_thread {
    scf.for %s = %c0 to %npre step %c1 : i32 {
      %row = arith.muli %s, %c32 : i32
      %slot = tilus.slice_shared %buf[%s] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
      mbarrier.arrive_expect_tx %bars[%s : i32], %bytes : !mbarrier.barriers<3>
      tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %bars[%s : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
    }
  }
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x64xf32>
  %p0 = mbarrier.consumer_initial_phase
  %res:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %stage = %c0, %phase = %p0) -> (!tilus.reg<32x64xf32>, i32, i32) : i32 {
    // expected-error@+1 {{the phase of this wait on barriers#0[k mod 3] flips every iteration but the stage wraps every 3 iterations: its parities stop matching the slot's phases (some waits return before the fill, others never)}}
    mbarrier.wait %bars[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
    %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
    %v = tilus.load_shared %slot : !tilus.shared<32x64xf32> -> !tilus.reg<32x64xf32>
    %acc2 = tilus.add %acc, %v : (!tilus.reg<32x64xf32>, !tilus.reg<32x64xf32>) -> !tilus.reg<32x64xf32>
    threadgroup.sync
    %j = arith.addi %i, %cS : i32
    %more = arith.cmpi slt, %j, %iters : i32
    threadgroup.single_thread {
      scf.if %more {
        %row = arith.muli %j, %c32 : i32
        mbarrier.arrive_expect_tx %bars[%stage : i32], %bytes : !mbarrier.barriers<3>
        tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %bars[%stage : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
      }
    }
    %s1 = arith.addi %stage, %c1 : i32
    %wrap = arith.cmpi eq, %s1, %cS : i32
    %ns = arith.select %wrap, %c0, %s1 : i32
    %flip = arith.xori %phase, %c1 : i32
    // BROKEN: the phase flips every iteration instead of when the stage wraps.
    %np = arith.xori %phase, %c1 : i32
    scf.yield %acc2, %ns, %np : !tilus.reg<32x64xf32>, i32, i32
  }
  tilus.store_global %res#0, %gy[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
  tilus.free_shared %buf : !tilus.shared<3x32x64xf32>
}

// -----

tilus.kernel @consumer_starts_at_parity_1(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {iters = 7 : i32}, tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cS = arith.constant 3 : i32
  %c32 = arith.constant 32 : i32
  %bytes = arith.constant 8192 : i32
  %zero = arith.constant 0.0 : f32
  %rows = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%rows] : !tilus.ptr<f32> -> !tilus.global<?x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %buf = tilus.shared_tensor : !tilus.shared<3x32x64xf32>
  %bars = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
  %npre = arith.minsi %iters, %cS : i32
  threadgroup.single_thread {
    scf.for %s = %c0 to %npre step %c1 : i32 {
      %row = arith.muli %s, %c32 : i32
      %slot = tilus.slice_shared %buf[%s] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
      mbarrier.arrive_expect_tx %bars[%s : i32], %bytes : !mbarrier.barriers<3>
      tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %bars[%s : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
    }
  }
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x64xf32>
  // BROKEN: a consumer must start at consumer_initial_phase.
  %p0 = mbarrier.producer_initial_phase
  %res:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %stage = %c0, %phase = %p0) -> (!tilus.reg<32x64xf32>, i32, i32) : i32 {
    // expected-error@+1 {{wrong initial phase: this wait on barriers#0[0] is for parity 1, which a fresh barrier has already completed, so it returns at once and the read below sees barriers#0[0]'s stage before it was filled}}
    mbarrier.wait %bars[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
    %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
    // expected-note@+1 {{this read of shared memory is not ordered after any fill}}
    %v = tilus.load_shared %slot : !tilus.shared<32x64xf32> -> !tilus.reg<32x64xf32>
    %acc2 = tilus.add %acc, %v : (!tilus.reg<32x64xf32>, !tilus.reg<32x64xf32>) -> !tilus.reg<32x64xf32>
    threadgroup.sync
    %j = arith.addi %i, %cS : i32
    %more = arith.cmpi slt, %j, %iters : i32
    threadgroup.single_thread {
      scf.if %more {
        %row = arith.muli %j, %c32 : i32
        mbarrier.arrive_expect_tx %bars[%stage : i32], %bytes : !mbarrier.barriers<3>
        tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %bars[%stage : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
      }
    }
    %s1 = arith.addi %stage, %c1 : i32
    %wrap = arith.cmpi eq, %s1, %cS : i32
    %ns = arith.select %wrap, %c0, %s1 : i32
    %flip = arith.xori %phase, %c1 : i32
    %np = arith.select %wrap, %flip, %phase : i32
    scf.yield %acc2, %ns, %np : !tilus.reg<32x64xf32>, i32, i32
  }
  tilus.store_global %res#0, %gy[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
  tilus.free_shared %buf : !tilus.shared<3x32x64xf32>
}

// -----

tilus.kernel @copy_without_announcement(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {iters = 7 : i32}, tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cS = arith.constant 3 : i32
  %c32 = arith.constant 32 : i32
  %bytes = arith.constant 8192 : i32
  %zero = arith.constant 0.0 : f32
  %rows = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%rows] : !tilus.ptr<f32> -> !tilus.global<?x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %buf = tilus.shared_tensor : !tilus.shared<3x32x64xf32>
  // expected-note@+1 {{barriers#0 is allocated here with counts [1, 1, 1]}}
  %bars = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
  %npre = arith.minsi %iters, %cS : i32
  threadgroup.single_thread {
    scf.for %s = %c0 to %npre step %c1 : i32 {
      %row = arith.muli %s, %c32 : i32
      %slot = tilus.slice_shared %buf[%s] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
      // expected-error@+2 {{this copy signals barriers#0[k], but nothing arrives on that barrier slot in the same iteration: the transaction bytes complete a phase nobody announced}}
      // BROKEN: the prologue copies without announcing the bytes (no arrive on the barrier).
      tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %bars[%s : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
    }
  }
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x64xf32>
  %p0 = mbarrier.consumer_initial_phase
  %res:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %stage = %c0, %phase = %p0) -> (!tilus.reg<32x64xf32>, i32, i32) : i32 {
    mbarrier.wait %bars[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
    %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
    %v = tilus.load_shared %slot : !tilus.shared<32x64xf32> -> !tilus.reg<32x64xf32>
    %acc2 = tilus.add %acc, %v : (!tilus.reg<32x64xf32>, !tilus.reg<32x64xf32>) -> !tilus.reg<32x64xf32>
    threadgroup.sync
    %j = arith.addi %i, %cS : i32
    %more = arith.cmpi slt, %j, %iters : i32
    threadgroup.single_thread {
      scf.if %more {
        %row = arith.muli %j, %c32 : i32
        mbarrier.arrive_expect_tx %bars[%stage : i32], %bytes : !mbarrier.barriers<3>
        tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %bars[%stage : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
      }
    }
    %s1 = arith.addi %stage, %c1 : i32
    %wrap = arith.cmpi eq, %s1, %cS : i32
    %ns = arith.select %wrap, %c0, %s1 : i32
    %flip = arith.xori %phase, %c1 : i32
    %np = arith.select %wrap, %flip, %phase : i32
    scf.yield %acc2, %ns, %np : !tilus.reg<32x64xf32>, i32, i32
  }
  tilus.store_global %res#0, %gy[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
  tilus.free_shared %buf : !tilus.shared<3x32x64xf32>
}
