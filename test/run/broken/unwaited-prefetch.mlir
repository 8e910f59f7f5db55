// NOT AN ERROR: a TMA prefetch that is never waited for. The loop prefetches tile i + 1 while
// it sums tile i, unconditionally (as Blackwell matmul v2 prefetches past K), so the last
// iteration issues a copy of tile `iters`, past the end of x (TMA zero-fills it), that nobody
// waits for. The result is still right.
//
// The user should see a warning (exit status 0, the run's report on standard output, the
// outputs still checked against the reference) that names the outstanding work, one TMA copy
// (tma.global_to_shared) still in flight when the block finished, pointing at the copy in the
// loop (not at the prologue's copy, which is waited for).
//
// RUN: tilus-run %s --backend interp 2>&1 | FileCheck %s
// RUN: tilus-run %s --backend interp --diagnostic-format mlir 2>&1 | FileCheck %s --check-prefix=LOC
// RUN: tilus-run %s --backend interp 2>/dev/null | FileCheck %s --check-prefix=STDOUT
//
// CHECK:      ⚠ outstanding asynchronous work at exit: 1 TMA copy (tma.global_to_shared) issued here still in flight when the block finished (never waited for)
// CHECK:      │         tma.global_to_shared %gx[%nrow, %c0 : i32, i32], %nslot, %bars[%nstage : i32]
// CHECK-NEXT: ┬
// CHECK-NEXT: ╰── outstanding asynchronous work at exit
// CHECK-NOT:  error
//
// STDOUT:      schedule: deterministic
// STDOUT:      output y: f32[32, 64]
// STDOUT:      check y vs reference @sum_ref: ok

// y = sum over i < iters of the 32x64 f32 tiles x[32 i : 32 i + 32, :], double-buffered.
tilus.kernel @prefetch_sum(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>)
    attributes {tilus.args = {iters = 5 : i32}, tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"], tilus.reference = "sum_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c32 = arith.constant 32 : i32
  %bytes = arith.constant 8192 : i32
  %zero = arith.constant 0.0 : f32
  %rows = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%rows] : !tilus.ptr<f32> -> !tilus.global<?x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %buf = tilus.shared_tensor : !tilus.shared<2x32x64xf32>
  %bars = mbarrier.alloc counts [1, 1] : !mbarrier.barriers<2>
  // Prologue: tile 0 into stage 0.
  %slot0 = tilus.slice_shared %buf[%c0] : !tilus.shared<2x32x64xf32> -> !tilus.shared<32x64xf32>
  threadgroup.single_thread {
    mbarrier.arrive_expect_tx %bars[%c0 : i32], %bytes : !mbarrier.barriers<2>
    tma.global_to_shared %gx[%c0, %c0 : i32, i32], %slot0, %bars[%c0 : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<2>
  }
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x64xf32>
  %res = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0) -> (!tilus.reg<32x64xf32>) : i32 {
    // Prefetch tile i + 1 into the other stage (read, into registers, in iteration i - 1).
    %next = arith.addi %i, %c1 : i32
    %nstage = arith.remsi %next, %c2 : i32
    %nrow = arith.muli %next, %c32 : i32
    %nslot = tilus.slice_shared %buf[%nstage] : !tilus.shared<2x32x64xf32> -> !tilus.shared<32x64xf32>
    threadgroup.single_thread {
      mbarrier.arrive_expect_tx %bars[%nstage : i32], %bytes : !mbarrier.barriers<2>
      // NOT WAITED FOR in the last iteration.
      // LOC: .mlir:[[#@LINE+1]]:7: warning: outstanding asynchronous work at exit: 1 TMA copy (tma.global_to_shared) issued here still in flight when the block finished (never waited for)
      tma.global_to_shared %gx[%nrow, %c0 : i32, i32], %nslot, %bars[%nstage : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<2>
    }
    // Tile i: stage i % 2, which has completed i / 2 phases before this one.
    %stage = arith.remsi %i, %c2 : i32
    %round = arith.divsi %i, %c2 : i32
    %phase = arith.andi %round, %c1 : i32
    mbarrier.wait %bars[%stage : i32], phase(%phase) : !mbarrier.barriers<2>
    %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<2x32x64xf32> -> !tilus.shared<32x64xf32>
    %v = tilus.load_shared %slot : !tilus.shared<32x64xf32> -> !tilus.reg<32x64xf32>
    %acc2 = tilus.add %acc, %v : (!tilus.reg<32x64xf32>, !tilus.reg<32x64xf32>) -> !tilus.reg<32x64xf32>
    scf.yield %acc2 : !tilus.reg<32x64xf32>
  }
  tilus.store_global %res, %gy[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
}

// The same sum straight from global memory.
tilus.kernel @sum_ref(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(1) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %zero = arith.constant 0.0 : f32
  %rows = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%rows] : !tilus.ptr<f32> -> !tilus.global<?x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x64xf32>
  %acc = scf.for %i = %c0 to %iters step %c1 iter_args(%a = %acc0) -> (!tilus.reg<32x64xf32>) : i32 {
    %row = arith.muli %i, %c32 : i32
    %v = tilus.load_global %gx[%row, %c0] : !tilus.global<?x64xf32> -> !tilus.reg<32x64xf32>
    %s = tilus.add %a, %v : (!tilus.reg<32x64xf32>, !tilus.reg<32x64xf32>) -> !tilus.reg<32x64xf32>
    scf.yield %s : !tilus.reg<32x64xf32>
  }
  tilus.store_global %acc, %gy[%c0, %c0] : !tilus.reg<32x64xf32>, !tilus.global<32x64xf32>
}
