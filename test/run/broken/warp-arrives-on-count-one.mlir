// BROKEN: the producer warp of the warp-specialized Hopper matmul
// (examples/hopper_matmul_v3_warp_specialized.mlir) announces the stage's bytes at warp
// scope instead of from one elected thread: all 32 lanes arrive on full[stage], whose count
// is 1.
//
// verify-barriers reports the over-arrival (32 arrivals per phase on a count-1 barrier) at the
// arrive, with a note at the mbarrier.alloc:
// RUN: tilus-opt %s --verify-barriers --verify-diagnostics --no-output
//
// The interpreter stops at the same op: arrivals beyond the expected count.
// RUN: not tilus-run %s --backend interp 2>&1 | FileCheck %s --check-prefix=INTERP
// INTERP: arrivals beyond the expected count

tilus.kernel @hopper_matmul_ws(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32, %num_tiles: i32)
    warps(9) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6)>)
    attributes {tilus.args = {m = 256 : i32, n = 256 : i32, k = 320 : i32, num_tiles = 2 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cS = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c256 = arith.constant 256 : i32
  %tx_bytes = arith.constant 49152 : i32
  %zero = arith.constant 0.0 : f32

  // Rasterized tile coordinates from the 1-D block id.
  %pid = tilus.block_id x
  %num_m = arith.ceildivsi %m, %c128 : i32
  %num_n = arith.ceildivsi %n, %c256 : i32
  %per_group = arith.muli %num_m, %c8 : i32
  %group, %in_group = tilus.fast_divmod %pid, %per_group
  %first_n = arith.muli %group, %c8 : i32
  %left_n = arith.subi %num_n, %first_n : i32
  %width = arith.minsi %left_n, %c8 : i32
  %m_blk = arith.divui %in_group, %width : i32
  %n_in = arith.remui %in_group, %width : i32
  %n_blk = arith.addi %first_n, %n_in : i32
  %offset_m = arith.muli %m_blk, %c128 : i32
  %offset_n = arith.muli %n_blk, %c256 : i32
  %iters = arith.ceildivsi %k, %c64 : i32

  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %sa = tilus.shared_tensor : !tilus.shared<4x2x64x64xf16, swizzle = 128B>
  %sb = tilus.shared_tensor : !tilus.shared<4x256x64xf16, swizzle = 128B>
  // expected-note@+1 {{barriers#0 is allocated here with counts [1, 1, 1, 1]}}
  %full = mbarrier.alloc counts [1, 1, 1, 1] : !mbarrier.barriers<4>
  %empty = mbarrier.alloc counts [256, 256, 256, 256] : !mbarrier.barriers<4>

  // Producer: warp 8 (threads 256-287).
  threadgroup.single_warp warp(8) {
    %pphase0 = mbarrier.producer_initial_phase
    %pend:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%stage = %c0, %phase = %pphase0) -> (i32, i32) : i32 {
      // Wait until both consumer groups have released the stage (at once on the first round).
      mbarrier.wait %empty[%stage : i32], phase(%phase) : !mbarrier.barriers<4>
      %kk = arith.muli %i, %c64 : i32
      %row1 = arith.addi %offset_m, %c64 : i32
      %sa0 = tilus.slice_shared %sa[%stage, %c0] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
      %sa1 = tilus.slice_shared %sa[%stage, %c1] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
      %sb_s = tilus.slice_shared %sb[%stage] : !tilus.shared<4x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
      // expected-error@+3 {{barriers#0[0] over-arrives: 32 arrivals per phase on a barrier of count 1: every thread of the group executing this arrive arrives, and that group is threads [256, 288) (32 threads)}}
      // One announcement of all three boxes, by one thread ...
      // BROKEN: 32 threads announce, each one arrival, on a barrier of count 1.
      mbarrier.arrive_expect_tx %full[%stage : i32], %tx_bytes : !mbarrier.barriers<4>
      // ... and the copies issued at warp scope (the leader lane issues).
      tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa0, %full[%stage : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
      tma.global_to_shared %ga[%row1, %kk : i32, i32], %sa1, %full[%stage : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
      tma.global_to_shared %gb[%offset_n, %kk : i32, i32], %sb_s, %full[%stage : i32] : !tilus.global<?x?xf16>, !tilus.shared<256x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
      %s1 = arith.addi %stage, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %cS : i32
      %ns = arith.select %wrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %wrap, %flip, %phase : i32
      scf.yield %ns, %np : i32, i32
    }
  }

  // Consumer 0: warpgroup [0, 128), rows [0, 64) of the tile, A half 0.
  threadgroup.warp_group warps(0, 4) {
    %cphase0 = mbarrier.consumer_initial_phase
    %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
    %res:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %stage = %c0, %phase = %cphase0) -> (!tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32) : i32 {
      // Wait until the stage is full (the TMA bytes have landed).
      mbarrier.wait %full[%stage : i32], phase(%phase) : !mbarrier.barriers<4>
      %sa_s = tilus.slice_shared %sa[%stage, %c0] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
      %sb_s = tilus.slice_shared %sb[%stage] : !tilus.shared<4x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
      %sbt_s = tilus.permute_shared %sb_s [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
      wgmma.fence
      %acc2 = wgmma.mma %sa_s, %sbt_s, %acc : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
      wgmma.commit_group
      wgmma.wait_group 0
      // This group is done reading the stage: 128 of the 256 arrivals empty[stage] expects.
      mbarrier.arrive %empty[%stage : i32] : !mbarrier.barriers<4>
      %s1 = arith.addi %stage, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %cS : i32
      %ns = arith.select %wrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %wrap, %flip, %phase : i32
      scf.yield %acc2, %ns, %np : !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32
    }
    // Epilogue: this group's 64 rows of the 128 x 256 tile.
    %row = arith.addi %offset_m, %c0 : i32
    %out = tilus.cast %res#0 : !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x256xf16, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
    tilus.store_global %out, %gc[%row, %offset_n] : !tilus.reg<64x256xf16, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
  }

  // Consumer 1: warpgroup [128, 256), rows [64, 128) of the tile, A half 1.
  threadgroup.warp_group warps(4, 4) {
    %cphase0 = mbarrier.consumer_initial_phase
    %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
    %res:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %stage = %c0, %phase = %cphase0) -> (!tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32) : i32 {
      // Wait until the stage is full (the TMA bytes have landed).
      mbarrier.wait %full[%stage : i32], phase(%phase) : !mbarrier.barriers<4>
      %sa_s = tilus.slice_shared %sa[%stage, %c1] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
      %sb_s = tilus.slice_shared %sb[%stage] : !tilus.shared<4x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
      %sbt_s = tilus.permute_shared %sb_s [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
      wgmma.fence
      %acc2 = wgmma.mma %sa_s, %sbt_s, %acc : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
      wgmma.commit_group
      wgmma.wait_group 0
      // This group is done reading the stage: 128 of the 256 arrivals empty[stage] expects.
      mbarrier.arrive %empty[%stage : i32] : !mbarrier.barriers<4>
      %s1 = arith.addi %stage, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %cS : i32
      %ns = arith.select %wrap, %c0, %s1 : i32
      %flip = arith.xori %phase, %c1 : i32
      %np = arith.select %wrap, %flip, %phase : i32
      scf.yield %acc2, %ns, %np : !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32
    }
    // Epilogue: this group's 64 rows of the 128 x 256 tile.
    %row = arith.addi %offset_m, %c64 : i32
    %out = tilus.cast %res#0 : !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x256xf16, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
    tilus.store_global %out, %gc[%row, %offset_n] : !tilus.reg<64x256xf16, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
  }

  threadgroup.sync
  tilus.free_shared %sa : !tilus.shared<4x2x64x64xf16, swizzle = 128B>
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
