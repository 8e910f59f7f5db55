// Blackwell matmul with tcgen05 and tensor memory, warp specialized inside 4 warps
// (spec §9, Blackwell v3; epilogue as in Blackwell v0, fences as spec §7.5 asks).
//
//   C[M, N] = A[M, K] . B[N, K]^T      f16 in, f32 accumulate (in TMEM), f16 out
//   bm = 128, bn = 256, bk = 64, S = 4 stages; 2-D grid (M ceildiv 128, N ceildiv 256)
//
// * Tensor memory: the whole block allocates the [128, 256] f32 accumulator (`tcgen05.alloc`,
//   256 of the 512 32-bit columns; lane = row). Allocation is made visible with the fence
//   pair around a block sync: fence_before_thread_sync, sync, fence_after_thread_sync.
// * Warp 0, the TMA producer: per stage wait empty[s] (producer phase starts at 1), one thread
//   announces 128 x 64 x 2 + 256 x 64 x 2 = 49152 bytes on full[s], the warp issues both copies.
// * Warp 1, the MMA issuer: wait full[s] (consumer phase starts at 0), `tcgen05.mma` from the
//   two shared tiles into TMEM (enable_input_d is false on the first K step, which zeroes the
//   accumulator), then `tcgen05.commit` to empty[s]: the hardware arrives on the barrier once
//   the MMA has finished reading the stage. full and empty both count 1 arrival. After the loop
//   the warp commits to a flush barrier and waits for its phase 0: every MMA is complete.
// * Epilogue, all 4 warps: for each 32-column slab, `tcgen05.slice` -> `tcgen05.ld` (thread t
//   reads TMEM lane t, so warp w reads lanes [32w, 32w + 32), its lane quarter) ->
//   `tcgen05.wait_ld` -> `tilus.cast` to f16 -> `tilus.store_global`.
// * Teardown: fence_before_thread_sync, sync, `tcgen05.dealloc`.
// Stage/phase advance in scf.for iter_args as in the Hopper pipelines (spec §4.3).
//
// Check: tilus-opt examples/blackwell_matmul_tcgen05.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter and compare C with the naive @matmul_ref at the end of the file:
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --schedule random --seed 1 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok

// CHECK-LABEL: tilus.kernel @blackwell_matmul
// CHECK-SAME:    warps(4)
// CHECK:         %[[FULL:.*]] = mbarrier.alloc counts [1, 1, 1, 1] : !mbarrier.barriers<4>
// CHECK-NEXT:    %[[EMPTY:.*]] = mbarrier.alloc counts [1, 1, 1, 1] : !mbarrier.barriers<4>
// CHECK-NEXT:    %[[FLUSH:.*]] = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
// CHECK-NEXT:    %[[T:.*]] = tcgen05.alloc : !tilus.tmem<128x256xf32>
// CHECK-NEXT:    tcgen05.relinquish_alloc_permit
// CHECK-NEXT:    tcgen05.fence_before_thread_sync
// CHECK-NEXT:    threadgroup.sync
// CHECK-NEXT:    tcgen05.fence_after_thread_sync
// CHECK-NEXT:    threadgroup.single_warp {
// CHECK:             mbarrier.wait %[[EMPTY]]
// CHECK:             threadgroup.single_thread {
// CHECK-NEXT:          mbarrier.arrive_expect_tx %[[FULL]]
// CHECK-NEXT:        }
// CHECK-NEXT:        tma.global_to_shared
// CHECK-NEXT:        tma.global_to_shared
// CHECK:         threadgroup.single_warp warp(1) {
// CHECK:             mbarrier.wait %[[FULL]][%[[S:.*]] : i32]
// CHECK:             tcgen05.mma %{{.*}}, %{{.*}}, %[[T]], enable_input_d(%{{.*}}) : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.tmem<128x256xf32>
// CHECK-NEXT:        tcgen05.commit %[[EMPTY]][%[[S]] : i32] : !mbarrier.barriers<4>
// CHECK:           tcgen05.commit %[[FLUSH]]
// CHECK-NEXT:      mbarrier.wait %[[FLUSH]]
// CHECK-NEXT:      tcgen05.fence_before_thread_sync
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.sync
// CHECK-NEXT:    tcgen05.fence_after_thread_sync
// CHECK:         scf.for
// CHECK-NEXT:      %[[E:.*]] = tcgen05.slice %[[T]][%{{.*}}] : !tilus.tmem<128x256xf32> -> !tilus.tmem<128x32xf32>
// CHECK-NEXT:      %[[R:.*]] = tcgen05.ld %[[E]] : !tilus.tmem<128x32xf32> -> !tilus.reg<128x32xf32, layout = local(1, 32) * spatial(128, 1)>
// CHECK-NEXT:      tcgen05.wait_ld
// CHECK-NEXT:      tilus.cast %[[R]]
// CHECK:           tilus.store_global
// CHECK:         tcgen05.fence_before_thread_sync
// CHECK-NEXT:    threadgroup.sync
// CHECK-NEXT:    tcgen05.dealloc %[[T]] : !tilus.tmem<128x256xf32>
tilus.kernel @blackwell_matmul(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 128, d4 ceildiv 256)>)
    attributes {tilus.args = {m = 128 : i32, n = 256 : i32, k = 320 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cS = arith.constant 4 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c256 = arith.constant 256 : i32
  %tx_bytes = arith.constant 49152 : i32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %offset_m = arith.muli %bx, %c128 : i32
  %offset_n = arith.muli %by, %c256 : i32
  %iters = arith.ceildivsi %k, %c64 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %sa = tilus.shared_tensor : !tilus.shared<4x128x64xf16, swizzle = 128B>
  %sb = tilus.shared_tensor : !tilus.shared<4x256x64xf16, swizzle = 128B>
  %full = mbarrier.alloc counts [1, 1, 1, 1] : !mbarrier.barriers<4>
  %empty = mbarrier.alloc counts [1, 1, 1, 1] : !mbarrier.barriers<4>
  %flush = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  // The accumulator in tensor memory: 128 lanes x 256 f32 columns. The first warp of the
  // (whole-block) group executes the allocation.
  %t = tcgen05.alloc : !tilus.tmem<128x256xf32>
  tcgen05.relinquish_alloc_permit
  tcgen05.fence_before_thread_sync
  threadgroup.sync
  tcgen05.fence_after_thread_sync

  // Warp 0: TMA producer.
  threadgroup.single_warp {
    %pphase0 = mbarrier.producer_initial_phase
    %pend:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %pphase0) -> (i32, i32) : i32 {
      mbarrier.wait %empty[%stage : i32], phase(%phase) : !mbarrier.barriers<4>
      %kk = arith.muli %i, %c64 : i32
      %sa_s = tilus.slice_shared %sa[%stage] : !tilus.shared<4x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
      %sb_s = tilus.slice_shared %sb[%stage] : !tilus.shared<4x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
      threadgroup.single_thread {
        mbarrier.arrive_expect_tx %full[%stage : i32], %tx_bytes : !mbarrier.barriers<4>
      }
      tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa_s, %full[%stage : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
      tma.global_to_shared %gb[%offset_n, %kk : i32, i32], %sb_s, %full[%stage : i32] : !tilus.global<?x?xf16>, !tilus.shared<256x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
      %s1 = arith.addi %stage, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %cS : i32
      %ns = arith.select %wrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %wrap, %flip, %phase : i32
      scf.yield %ns, %np : i32, i32
    }
  }

  // Warp 1: MMA issuer (the leader lane issues; the ops need exactly one aligned warp).
  threadgroup.single_warp warp(1) {
    %cphase0 = mbarrier.consumer_initial_phase
    %cend:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %cphase0) -> (i32, i32) : i32 {
      mbarrier.wait %full[%stage : i32], phase(%phase) : !mbarrier.barriers<4>
      %sa_s = tilus.slice_shared %sa[%stage] : !tilus.shared<4x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
      %sb_s = tilus.slice_shared %sb[%stage] : !tilus.shared<4x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
      %sbt_s = tilus.permute_shared %sb_s [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
      // d = a . b + (i > 0 ? d : 0)
      %accumulate = arith.cmpi sgt, %i, %c0 : i32
      tcgen05.mma %sa_s, %sbt_s, %t, enable_input_d(%accumulate) : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.tmem<128x256xf32>
      // empty[stage] gets its one arrival when this MMA has read the stage.
      tcgen05.commit %empty[%stage : i32] : !mbarrier.barriers<4>
      %s1 = arith.addi %stage, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %cS : i32
      %ns = arith.select %wrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %wrap, %flip, %phase : i32
      scf.yield %ns, %np : i32, i32
    }
    // Drain: one more commit arrives when every MMA issued above has completed.
    // Its first (and only) phase has parity 0, the consumer's initial phase.
    tcgen05.commit %flush[%c0 : i32] : !mbarrier.barriers<1>
    mbarrier.wait %flush[%c0 : i32], phase(%cphase0) : !mbarrier.barriers<1>
    tcgen05.fence_before_thread_sync
  }
  threadgroup.sync
  tcgen05.fence_after_thread_sync

  // Epilogue: 8 slabs of 32 columns, TMEM -> registers -> f16 -> global.
  %i0 = arith.constant 0 : index
  %i32 = arith.constant 32 : index
  %i256 = arith.constant 256 : index
  scf.for %j = %i0 to %i256 step %i32 {
    %slab = tcgen05.slice %t[%j] : !tilus.tmem<128x256xf32> -> !tilus.tmem<128x32xf32>
    %r = tcgen05.ld %slab : !tilus.tmem<128x32xf32> -> !tilus.reg<128x32xf32, layout = spatial(128, 1) * local(1, 32)>
    tcgen05.wait_ld
    %h = tilus.cast %r : !tilus.reg<128x32xf32, layout = spatial(128, 1) * local(1, 32)> to !tilus.reg<128x32xf16, layout = spatial(128, 1) * local(1, 32)>
    %jj = arith.index_cast %j : index to i32
    %col = arith.addi %offset_n, %jj : i32
    tilus.store_global %h, %gc[%offset_m, %col] : !tilus.reg<128x32xf16, layout = spatial(128, 1) * local(1, 32)>, !tilus.global<?x?xf16>
  }

  // Every tcgen05.ld is complete before the columns are freed.
  tcgen05.fence_before_thread_sync
  threadgroup.sync
  tcgen05.dealloc %t : !tilus.tmem<128x256xf32>
  tilus.free_shared %sa : !tilus.shared<4x128x64xf16, swizzle = 128B>
  tilus.free_shared %sb : !tilus.shared<4x256x64xf16, swizzle = 128B>
}

// A naive reference for `tilus-run` (its `tilus.reference`): plain global loads, with B [N, K]
// read through a transposed view [K, N] of strides [1, K], and `tilus.dot`; no shared memory,
// TMA, barriers or MMA protocol. `tilus-run` runs it on copies of the same inputs and compares C.
tilus.kernel @matmul_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 64, d4 ceildiv 64)>) {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant 0.0 : f32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %om = arith.muli %bx, %c64 : i32
  %on = arith.muli %by, %c64 : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gbt = tilus.global_view %b[%k, %n] strides[%k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16, strides = [1, ?]>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32>
  %acc = scf.for %kk = %c0 to %k step %c32 iter_args(%acc_i = %acc0) -> (!tilus.reg<64x64xf32>) : i32 {
    %ra = tilus.load_global %ga[%om, %kk] : !tilus.global<?x?xf16> -> !tilus.reg<64x32xf16>
    %rb = tilus.load_global %gbt[%kk, %on] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<32x64xf16>
    %d = tilus.dot %ra, %rb, %acc_i : (!tilus.reg<64x32xf16>, !tilus.reg<32x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
    scf.yield %d : !tilus.reg<64x64xf32>
  }
  %out = tilus.cast %acc : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  tilus.store_global %out, %gc[%om, %on] : !tilus.reg<64x64xf16>, !tilus.global<?x?xf16>
}
