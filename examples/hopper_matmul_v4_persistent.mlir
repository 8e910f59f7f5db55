// Hopper matmul, persistent and warp specialized: the v3 kernel (a TMA producer warp, two
// consumer warpgroups, full/empty barrier ring, rasterized tiles) with a grid of one block per
// SM that walks the tiles (issue 17, step 1):
//
//   C[M, N] = A[M, K] . B[N, K]^T      f16 in, f32 accumulate, f16 out
//   bm = 128, bn = 256, bk = 64, S = 3 stages (48 KiB of shared memory per stage)
//
// * Persistent: the grid is `num_sms` blocks (a parameter: the host passes the SM count); block
//   b takes tiles b, b + num_sms, b + 2 num_sms, ... < num_tiles (computed in the kernel from M
//   and N), in the rasterized order of v3
//   (groups of 8 N-columns). The ring's (stage, phase) carry on from one tile to the next in the
//   outer loop's iter_args, so the producer fills the next tile's stages while the consumers run
//   the epilogue of the current one.
// * One wgmma in flight: each consumer commits the k-step's wgmma and waits with
//   `wgmma.wait_group 1`, so the wgmma of the previous k-step has retired and only then is its
//   stage, `(stage + S - 1) mod S`, released from the second k-step on (the form
//   verify-barriers proves: the released stage is never the one the wgmma in flight reads,
//   whichever stage the tile's k-loop starts at). After the loop `wait_group 0` retires the last
//   one and releases its stage.
// Barriers: full[S] (count 1, expect-tx of 49152 bytes per stage) and empty[S] (count 256: every
// thread of both consumer warpgroups arrives once per use of the stage).
//
// Check: tilus-opt examples/hopper_matmul_v4_persistent.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// The interpreter runs it with 3 blocks over 4 tiles (block 0 takes tiles 0 and 3) and checks C
// against the naive @matmul_ref at the end of the file:
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --schedule random --seed 3 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg k=64 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok

// CHECK-LABEL: tilus.kernel @hopper_matmul_persistent
// CHECK-SAME:    warps(9) blocks(#map)
// CHECK:         threadgroup.single_warp warp(8) {
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK:             scf.for
// CHECK:               mbarrier.wait
// CHECK:               mbarrier.arrive_expect_tx
// CHECK:         threadgroup.warp_group warps(0, 4) {
// CHECK:               wgmma.commit_group
// CHECK-NEXT:          wgmma.wait_group 1
// CHECK:               scf.if
// CHECK-NEXT:            mbarrier.arrive
// CHECK:           wgmma.wait_group 0
// CHECK:         threadgroup.warp_group warps(4, 4) {
tilus.kernel @hopper_matmul_persistent(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32, %num_sms: i32)
    warps(9) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6)>)
    attributes {tilus.args = {m = 256 : i32, n = 512 : i32, k = 320 : i32, num_sms = 3 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cS = arith.constant 3 : i32
  %cSm1 = arith.constant 2 : i32
  %c8 = arith.constant 8 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c256 = arith.constant 256 : i32
  %tx_bytes = arith.constant 49152 : i32
  %zero = arith.constant 0.0 : f32
  %pid = tilus.block_id x
  %nblocks = tilus.num_blocks x
  %iters = arith.ceildivsi %k, %c64 : i32
  // The tile count, known at run time (the grid is the SM count, not the tiles).
  %tiles_m = arith.ceildivsi %m, %c128 : i32
  %tiles_n = arith.ceildivsi %n, %c256 : i32
  %num_tiles = arith.muli %tiles_m, %tiles_n : i32

  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %sa = tilus.shared_tensor : !tilus.shared<3x2x64x64xf16, swizzle = 128B>
  %sb = tilus.shared_tensor : !tilus.shared<3x256x64xf16, swizzle = 128B>
  %full = mbarrier.alloc counts [1, 1, 1] : !mbarrier.barriers<3>
  %empty = mbarrier.alloc counts [256, 256, 256] : !mbarrier.barriers<3>

  // Producer: warp 8 (threads 256-287), every tile of this block, every k-step.
  threadgroup.single_warp warp(8) {
    %pphase0 = mbarrier.producer_initial_phase
    %pend:2 = scf.for %t = %pid to %num_tiles step %nblocks iter_args(%stage = %c0, %phase = %pphase0) -> (i32, i32) : i32 {
      %num_m = arith.ceildivsi %m, %c128 : i32
      %num_n = arith.ceildivsi %n, %c256 : i32
      %per_group = arith.muli %num_m, %c8 : i32
      %group, %in_group = tilus.fast_divmod %t, %per_group
      %first_n = arith.muli %group, %c8 : i32
      %left_n = arith.subi %num_n, %first_n : i32
      %width = arith.minsi %left_n, %c8 : i32
      %m_blk = arith.divui %in_group, %width : i32
      %n_in = arith.remui %in_group, %width : i32
      %n_blk = arith.addi %first_n, %n_in : i32
      %offset_m = arith.muli %m_blk, %c128 : i32
      %offset_n = arith.muli %n_blk, %c256 : i32
      %row1 = arith.addi %offset_m, %c64 : i32
      %r:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%st = %stage, %ph = %phase) -> (i32, i32) : i32 {
        // Wait until both consumer groups have released the stage (at once on the first round).
        mbarrier.wait %empty[%st : i32], phase(%ph) : !mbarrier.barriers<3>
        %kk = arith.muli %i, %c64 : i32
        %sa0 = tilus.slice_shared %sa[%st, %c0] : !tilus.shared<3x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
        %sa1 = tilus.slice_shared %sa[%st, %c1] : !tilus.shared<3x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
        %sb_s = tilus.slice_shared %sb[%st] : !tilus.shared<3x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
        threadgroup.single_thread {
          mbarrier.arrive_expect_tx %full[%st : i32], %tx_bytes : !mbarrier.barriers<3>
        }
        tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa0, %full[%st : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
        tma.global_to_shared %ga[%row1, %kk : i32, i32], %sa1, %full[%st : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
        tma.global_to_shared %gb[%offset_n, %kk : i32, i32], %sb_s, %full[%st : i32] : !tilus.global<?x?xf16>, !tilus.shared<256x64xf16, swizzle = 128B>, !mbarrier.barriers<3>
        %s1 = arith.addi %st, %c1 : i32
        %wrap = arith.cmpi eq, %s1, %cS : i32
        %ns = arith.select %wrap, %c0, %s1 : i32
        %flip = arith.xori %ph, %c1 : i32
        %np = arith.select %wrap, %flip, %ph : i32
        scf.yield %ns, %np : i32, i32
      }
      scf.yield %r#0, %r#1 : i32, i32
    }
  }

  // Consumer 0: warpgroup [0, 128), rows [0, 64) of each tile, A half 0.
  threadgroup.warp_group warps(0, 4) {
    %cphase0 = mbarrier.consumer_initial_phase
    %cend:2 = scf.for %t = %pid to %num_tiles step %nblocks iter_args(%stage = %c0, %phase = %cphase0) -> (i32, i32) : i32 {
      %num_m = arith.ceildivsi %m, %c128 : i32
      %num_n = arith.ceildivsi %n, %c256 : i32
      %per_group = arith.muli %num_m, %c8 : i32
      %group, %in_group = tilus.fast_divmod %t, %per_group
      %first_n = arith.muli %group, %c8 : i32
      %left_n = arith.subi %num_n, %first_n : i32
      %width = arith.minsi %left_n, %c8 : i32
      %m_blk = arith.divui %in_group, %width : i32
      %n_in = arith.remui %in_group, %width : i32
      %n_blk = arith.addi %first_n, %n_in : i32
      %offset_m = arith.muli %m_blk, %c128 : i32
      %offset_n = arith.muli %n_blk, %c256 : i32
      %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
      %res:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %st = %stage, %ph = %phase) -> (!tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32) : i32 {
        // Wait until the stage is full (the TMA bytes have landed).
        mbarrier.wait %full[%st : i32], phase(%ph) : !mbarrier.barriers<3>
        %sa_s = tilus.slice_shared %sa[%st, %c0] : !tilus.shared<3x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
        %sb_s = tilus.slice_shared %sb[%st] : !tilus.shared<3x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
        %sbt_s = tilus.permute_shared %sb_s [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
        wgmma.fence
        %acc2 = wgmma.mma %sa_s, %sbt_s, %acc : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        wgmma.commit_group
        // Keep this wgmma in flight; the one before it has retired, so its stage is free.
        wgmma.wait_group 1
        %has_prev = arith.cmpi sge, %i, %c1 : i32
        %st_back = arith.addi %st, %cSm1 : i32
        %prev = arith.remui %st_back, %cS : i32
        scf.if %has_prev {
          mbarrier.arrive %empty[%prev : i32] : !mbarrier.barriers<3>
        }
        %s1 = arith.addi %st, %c1 : i32
        %wrap = arith.cmpi eq, %s1, %cS : i32
        %ns = arith.select %wrap, %c0, %s1 : i32
        %flip = arith.xori %ph, %c1 : i32
        %np = arith.select %wrap, %flip, %ph : i32
        scf.yield %acc2, %ns, %np : !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32
      }
      // Drain: the last wgmma retires, its stage is released.
      wgmma.wait_group 0
      %had = arith.cmpi sgt, %iters, %c0 : i32
      %last_back = arith.addi %res#1, %cSm1 : i32
      %last = arith.remui %last_back, %cS : i32
      scf.if %had {
        mbarrier.arrive %empty[%last : i32] : !mbarrier.barriers<3>
      }
      // Epilogue (the producer is already loading the next tile's stages).
      %row = arith.addi %offset_m, %c0 : i32
      %out = tilus.cast %res#0 : !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x256xf16, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
      tilus.store_global %out, %gc[%row, %offset_n] : !tilus.reg<64x256xf16, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
      scf.yield %res#1, %res#2 : i32, i32
    }
  }

  // Consumer 1: warpgroup [128, 256), rows [64, 128) of each tile, A half 1.
  threadgroup.warp_group warps(4, 4) {
    %cphase0 = mbarrier.consumer_initial_phase
    %cend:2 = scf.for %t = %pid to %num_tiles step %nblocks iter_args(%stage = %c0, %phase = %cphase0) -> (i32, i32) : i32 {
      %num_m = arith.ceildivsi %m, %c128 : i32
      %num_n = arith.ceildivsi %n, %c256 : i32
      %per_group = arith.muli %num_m, %c8 : i32
      %group, %in_group = tilus.fast_divmod %t, %per_group
      %first_n = arith.muli %group, %c8 : i32
      %left_n = arith.subi %num_n, %first_n : i32
      %width = arith.minsi %left_n, %c8 : i32
      %m_blk = arith.divui %in_group, %width : i32
      %n_in = arith.remui %in_group, %width : i32
      %n_blk = arith.addi %first_n, %n_in : i32
      %offset_m = arith.muli %m_blk, %c128 : i32
      %offset_n = arith.muli %n_blk, %c256 : i32
      %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
      %res:3 = scf.for %i = %c0 to %iters step %c1 iter_args(%acc = %acc0, %st = %stage, %ph = %phase) -> (!tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32) : i32 {
        // Wait until the stage is full (the TMA bytes have landed).
        mbarrier.wait %full[%st : i32], phase(%ph) : !mbarrier.barriers<3>
        %sa_s = tilus.slice_shared %sa[%st, %c1] : !tilus.shared<3x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
        %sb_s = tilus.slice_shared %sb[%st] : !tilus.shared<3x256x64xf16, swizzle = 128B> -> !tilus.shared<256x64xf16, swizzle = 128B>
        %sbt_s = tilus.permute_shared %sb_s [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
        wgmma.fence
        %acc2 = wgmma.mma %sa_s, %sbt_s, %acc : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
        wgmma.commit_group
        // Keep this wgmma in flight; the one before it has retired, so its stage is free.
        wgmma.wait_group 1
        %has_prev = arith.cmpi sge, %i, %c1 : i32
        %st_back = arith.addi %st, %cSm1 : i32
        %prev = arith.remui %st_back, %cS : i32
        scf.if %has_prev {
          mbarrier.arrive %empty[%prev : i32] : !mbarrier.barriers<3>
        }
        %s1 = arith.addi %st, %c1 : i32
        %wrap = arith.cmpi eq, %s1, %cS : i32
        %ns = arith.select %wrap, %c0, %s1 : i32
        %flip = arith.xori %ph, %c1 : i32
        %np = arith.select %wrap, %flip, %ph : i32
        scf.yield %acc2, %ns, %np : !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32, i32
      }
      // Drain: the last wgmma retires, its stage is released.
      wgmma.wait_group 0
      %had = arith.cmpi sgt, %iters, %c0 : i32
      %last_back = arith.addi %res#1, %cSm1 : i32
      %last = arith.remui %last_back, %cS : i32
      scf.if %had {
        mbarrier.arrive %empty[%last : i32] : !mbarrier.barriers<3>
      }
      // Epilogue (the producer is already loading the next tile's stages).
      %row = arith.addi %offset_m, %c64 : i32
      %out = tilus.cast %res#0 : !tilus.reg<64x256xf32, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x256xf16, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
      tilus.store_global %out, %gc[%row, %offset_n] : !tilus.reg<64x256xf16, layout = column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
      scf.yield %res#1, %res#2 : i32, i32
    }
  }

  threadgroup.sync
  tilus.free_shared %sa : !tilus.shared<3x2x64x64xf16, swizzle = 128B>
  tilus.free_shared %sb : !tilus.shared<3x256x64xf16, swizzle = 128B>
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
