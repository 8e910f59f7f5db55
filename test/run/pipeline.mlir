// Kernels for the interpreter's TMA / mbarrier tests (tilus-run/tests/interp_pipeline.rs).
// The tests also derive broken variants of @pipeline by editing single lines of this file.

// y = 2 * x, one 64x64 f16 tile per block: TMA load into a 128B-swizzled tile (one thread
// announces the bytes and issues), every thread waits, scales through registers, stores
// into a second shared tile, fences, and one warp TMA-stores it. Edge tiles hang over the
// matrix: the load zero-fills them (and still counts the full box), the store skips them.
tilus.kernel @tma_copy(%x: !tilus.ptr<f16>, %y: !tilus.ptr<f16>, %m: i32, %n: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3) -> (d2 ceildiv 64, d3 ceildiv 64)>) {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %tx = arith.constant 8192 : i32
  %two = arith.constant 2.0 : f16
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %r = arith.muli %bx, %c64 : i32
  %c = arith.muli %by, %c64 : i32
  %gx = tilus.global_view %x[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gy = tilus.global_view %y[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %s = tilus.shared_tensor : !tilus.shared<64x64xf16, swizzle = 128B>
  %s2 = tilus.shared_tensor : !tilus.shared<64x64xf16>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  threadgroup.single_thread {
    mbarrier.arrive_expect_tx %bar[%c0 : i32], %tx : !mbarrier.barriers<1>
    tma.global_to_shared %gx[%r, %c : i32, i32], %s, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
  }
  mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  %t = tilus.load_shared %s : !tilus.shared<64x64xf16, swizzle = 128B> -> !tilus.reg<64x64xf16>
  %k = tilus.register_tensor init(%two : f16) : !tilus.reg<1x1xf16>
  %t2 = tilus.mul %t, %k : (!tilus.reg<64x64xf16>, !tilus.reg<1x1xf16>) -> !tilus.reg<64x64xf16>
  tilus.store_shared %t2, %s2 : !tilus.reg<64x64xf16>, !tilus.shared<64x64xf16>
  tma.fence_proxy_async shared
  threadgroup.sync
  threadgroup.single_warp {
    tma.shared_to_global %s2, %gy[%r, %c : i32, i32] : !tilus.shared<64x64xf16>, !tilus.global<?x?xf16>
    tma.commit_group
    tma.wait_group 0
  }
  threadgroup.sync
  tilus.free_shared %s : !tilus.shared<64x64xf16, swizzle = 128B>
  tilus.free_shared %s2 : !tilus.shared<64x64xf16>
}

// y = sum over i of the 32x64 f32 tiles x[32 i : 32 i + 32, :], through a 3-stage ring:
// warp 0 produces with TMA (one thread announces the bytes of full[stage], the warp issues),
// warp 1 consumes from shared memory and releases the stage with 32 arrivals on
// empty[stage]. Phases start at producer_initial_phase / consumer_initial_phase and flip when
// the stage wraps.
tilus.kernel @pipeline(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>, %iters: i32)
    warps(2) blocks(affine_map<(d0, d1, d2) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cS = arith.constant 3 : i32
  %c32 = arith.constant 32 : i32
  %stage_bytes = arith.constant 8192 : i32
  %zero = arith.constant 0.0 : f32
  %rows = arith.muli %iters, %c32 : i32
  %gx = tilus.global_view %x[%rows] : !tilus.ptr<f32> -> !tilus.global<?x64xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %buf = tilus.shared_tensor : !tilus.shared<3x32x64xf32>
  %full = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
  %empty = mbarrier.alloc counts [32, 32, 32] : !mbarrier.barriers<3>
  threadgroup.single_warp warp(0) {
    %p0 = mbarrier.producer_initial_phase
    %pend:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %p0) -> (i32, i32) : i32 {
      mbarrier.wait %empty[%stage : i32], phase(%phase) : !mbarrier.barriers<3>
      %row = arith.muli %i, %c32 : i32
      %slot = tilus.slice_shared %buf[%stage] : !tilus.shared<3x32x64xf32> -> !tilus.shared<32x64xf32>
      threadgroup.single_thread {
        mbarrier.arrive_expect_tx %full[%stage : i32], %stage_bytes : !mbarrier.barriers<3>
      }
      tma.global_to_shared %gx[%row, %c0 : i32, i32], %slot, %full[%stage : i32] : !tilus.global<?x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<3>
      %s1 = arith.addi %stage, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %cS : i32
      %ns = arith.select %wrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %wrap, %flip, %phase : i32
      scf.yield %ns, %np : i32, i32
    }
  }
  threadgroup.single_warp warp(1) {
    %q0 = mbarrier.consumer_initial_phase
    %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<32x64xf32>
    %cend:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %q0, %acc = %acc0) -> (i32, i32, !tilus.reg<32x64xf32>) : i32 {
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

// Every thread of the block arrives on a barrier that expects one arrival.
tilus.kernel @over_arrive() warps(4) blocks(affine_map<() -> (1)>) {
  %c0 = arith.constant 0 : i32
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
}

// A speculative TMA load that nobody waits for (as Blackwell v2 prefetches past K): a
// warning, not an error.
tilus.kernel @unwaited_prefetch(%x: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %bytes = arith.constant 8192 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x64xf32>
  %s = tilus.shared_tensor : !tilus.shared<32x64xf32>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  threadgroup.single_thread {
    mbarrier.arrive_expect_tx %bar[%c0 : i32], %bytes : !mbarrier.barriers<1>
    tma.global_to_shared %gx[%c0, %c0 : i32, i32], %s, %bar[%c0 : i32] : !tilus.global<32x64xf32>, !tilus.shared<32x64xf32>, !mbarrier.barriers<1>
  }
}
