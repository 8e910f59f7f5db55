// Kernels for the interpreter's MMA tests (tilus-run/tests/interp_mma.rs).
// C[M, N] = A[M, K] . B[N, K]^T, f16 in, f32 accumulate and out, 128x128 tiles, bk = 64.

// Hopper: one warpgroup; per K step one thread announces 2 x 16 KiB and issues the two TMA
// loads, everyone waits, the warpgroup runs wgmma (async; retired by wait_group 0), and the
// block syncs before the next step overwrites the tiles.
tilus.kernel @wgmma_matmul(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f32>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 128, d4 ceildiv 128)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %tx = arith.constant 32768 : i32
  %zero = arith.constant 0.0 : f32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %om = arith.muli %bx, %c128 : i32
  %on = arith.muli %by, %c128 : i32
  %iters = arith.ceildivsi %k, %c64 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %sa = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %sb = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x128xf32>
  %res:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %phase = %c0) -> (!tilus.reg<128x128xf32>, i32) : i32 {
    %kk = arith.muli %i, %c64 : i32
    threadgroup.single_thread {
      mbarrier.arrive_expect_tx %bar[%c0 : i32], %tx : !mbarrier.barriers<1>
      tma.global_to_shared %ga[%om, %kk : i32, i32], %sa, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
      tma.global_to_shared %gb[%on, %kk : i32, i32], %sb, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
    }
    mbarrier.wait %bar[%c0 : i32], phase(%phase) : !mbarrier.barriers<1>
    %sbt = tilus.permute_shared %sb [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
    wgmma.fence
    %acc2 = wgmma.mma %sa, %sbt, %acc : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<128x128xf32>
    wgmma.commit_group
    wgmma.wait_group 0
    threadgroup.sync
    %np = arith.xori %phase, %c1 : i32
    scf.yield %acc2, %np : !tilus.reg<128x128xf32>, i32
  }
  tilus.store_global %res#0, %gc[%om, %on] : !tilus.reg<128x128xf32>, !tilus.global<?x?xf32>
  tilus.free_shared %sa : !tilus.shared<128x64xf16, swizzle = 128B>
  tilus.free_shared %sb : !tilus.shared<128x64xf16, swizzle = 128B>
}

// Blackwell: the accumulator lives in tensor memory. Per K step one thread loads both tiles
// with TMA (barrier 0); one warp issues tcgen05.mma (accumulating after the first step) and
// commits it to barrier 1; everyone waits for the MMA before the tiles are reused. Epilogue:
// all 128 threads load TMEM (lane = row), wait, store; then the columns are freed.
tilus.kernel @tcgen05_matmul(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f32>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 128, d4 ceildiv 128)>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %tx = arith.constant 32768 : i32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %om = arith.muli %bx, %c128 : i32
  %on = arith.muli %by, %c128 : i32
  %iters = arith.ceildivsi %k, %c64 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %sa = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %sb = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %bars = mbarrier.alloc counts [1, 1] : !mbarrier.barriers<2>
  %t = tcgen05.alloc : !tilus.tmem<128x128xf32>
  tcgen05.fence_before_thread_sync
  threadgroup.sync
  tcgen05.fence_after_thread_sync
  %last = scf.for %i = %c0 to %iters step %c1 iter_args(%phase = %c0) -> (i32) : i32 {
    %kk = arith.muli %i, %c64 : i32
    threadgroup.single_thread {
      mbarrier.arrive_expect_tx %bars[%c0 : i32], %tx : !mbarrier.barriers<2>
      tma.global_to_shared %ga[%om, %kk : i32, i32], %sa, %bars[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<2>
      tma.global_to_shared %gb[%on, %kk : i32, i32], %sb, %bars[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<2>
    }
    mbarrier.wait %bars[%c0 : i32], phase(%phase) : !mbarrier.barriers<2>
    threadgroup.single_warp {
      %sbt = tilus.permute_shared %sb [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
      %accum = arith.cmpi sgt, %i, %c0 : i32
      tcgen05.mma %sa, %sbt, %t, enable_input_d(%accum) : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.tmem<128x128xf32>
      tcgen05.commit %bars[%c1 : i32] : !mbarrier.barriers<2>
    }
    mbarrier.wait %bars[%c1 : i32], phase(%phase) : !mbarrier.barriers<2>
    %np = arith.xori %phase, %c1 : i32
    scf.yield %np : i32
  }
  tcgen05.fence_after_thread_sync
  %i0 = arith.constant 0 : index
  %i64 = arith.constant 64 : index
  %i128 = arith.constant 128 : index
  scf.for %j = %i0 to %i128 step %i64 {
    %slab = tcgen05.slice %t[%j] : !tilus.tmem<128x128xf32> -> !tilus.tmem<128x64xf32>
    %r = tcgen05.ld %slab : !tilus.tmem<128x64xf32> -> !tilus.reg<128x64xf32>
    tcgen05.wait_ld
    %jj = arith.index_cast %j : index to i32
    %col = arith.addi %on, %jj : i32
    tilus.store_global %r, %gc[%om, %col] : !tilus.reg<128x64xf32>, !tilus.global<?x?xf32>
  }
  tcgen05.fence_before_thread_sync
  threadgroup.sync
  tcgen05.dealloc %t : !tilus.tmem<128x128xf32>
  tilus.free_shared %sa : !tilus.shared<128x64xf16, swizzle = 128B>
  tilus.free_shared %sb : !tilus.shared<128x64xf16, swizzle = 128B>
}
