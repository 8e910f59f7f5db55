// Hopper matmul v7: split-K for shapes with few tiles (issue 17). Written by
// bench/gen_matmul_v7.py (NCH=1: 128-column tiles; MINK=16).
//
// v6 (examples/hopper_matmul_v6_tma_epilogue.mlir) gives each CTA 128 x 256 of a 256 x 256
// cluster tile, so a 1024 x 1024 C keeps 32 of 132 SMs busy however long K is. Here:
//
// * tiles are 128 x 128 (four times as many as v6's at BN = 128), and the work is `splits` x
//   `tiles` items, each a tile and a range of `kper` k-steps of 64: `splits` = the SM count
//   over the tile count, at most the k-steps over 16 (a shorter split spends more on the
//   partial sums' round trip than it saves), at least 1. `num_sms` blocks walk the items (w =
//   pid, pid + num_sms, ...; item w is split w / tiles of tile w mod tiles, so the first
//   splits of every tile come first). With as many tiles as SMs it is a persistent matmul
//   with v6's epilogue;
// * 12 warps: two consumer warpgroups that raise their registers to 232 (`setmaxnreg inc`:
//   the accumulators and the partial sums' round trip) and a producer warpgroup that lowers
//   its own to 40 (a block of 384 threads starts with 168 a thread);
// * the 4-stage ring carried across items, the `wait_group 1` releases (of the previous
//   stage, as in v4) and the TMA-store epilogue are v6's without the cluster (A [128, 64] and
//   B [128, 64] per stage, loaded by this CTA);
// * the partial sums meet in order: consumer warpgroup g of split s of tile t waits until
//   semaphore `sem[2 t + g]` holds s (`tilus.lock_semaphore`, one thread spinning with
//   acquire loads, then a warpgroup sync), adds the f32 partial sums of splits 0 .. s-1
//   from the workspace `ws` ([M, N] f32) to its accumulators, and either stores the result
//   back to `ws` and sets the semaphore to s + 1 (a sync first, so every thread's stores come
//   before the one release store), or, as the last split, writes C and sets it back to 0 for
//   the next launch. A block only waits for an item of a smaller index, which a block is
//   running or has run (the whole grid is resident: one block per SM), so the chain ends.
//
// Check: tilus-opt examples/hopper_matmul_v7_split_k.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// Two splits of each of 4 tiles (the defaults), three uneven splits (49 k-steps as 17, 17,
// 15), fewer blocks than tiles (no split), N not a multiple of 64 (direct stores), K = 0:
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --schedule random --seed 3 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg k=3136 --arg num_sms=16 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg num_sms=3 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg n=200 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg k=0 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok

// CHECK-LABEL: tilus.kernel @hopper_matmul_split_k
// CHECK:         threadgroup.warp_group warps(0, 4) {
// CHECK:             tilus.lock_semaphore
// CHECK:             tilus.release_semaphore
tilus.kernel @hopper_matmul_split_k(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32, %num_sms: i32, %ws: !tilus.ptr<f32>, %sem: !tilus.ptr<i32>)
    warps(12) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6, d7, d8) -> (d6)>)
    attributes {tilus.args = {m = 256, n = 256, k = 2048, num_sms = 8}, tilus.inputs = {sem = "zeros"}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %cS = arith.constant 4 : i32
  %cSm1 = arith.constant 3 : i32
  %c8 = arith.constant 8 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %cBN = arith.constant 128 : i32
  %cMINK = arith.constant 16 : i32
  %tx_bytes = arith.constant 32768 : i32
  %zero = arith.constant 0.0 : f32
  %pid = tilus.block_id x
  %nblocks = tilus.num_blocks x
  %iters = arith.ceildivsi %k, %c64 : i32
  %tiles_m = arith.ceildivsi %m, %c128 : i32
  %tiles_n = arith.ceildivsi %n, %cBN : i32
  %num_tiles = arith.muli %tiles_m, %tiles_n : i32
  // splits = clamp(blocks / tiles, 1, k-steps); kper = ceil(k-steps / splits) k-steps per
  // split; then as many splits as that takes (no empty split).
  %per_sm = arith.divui %nblocks, %num_tiles : i32
  %most = arith.divui %iters, %cMINK : i32
  %sp0 = arith.minsi %per_sm, %most : i32
  %sp1 = arith.maxsi %sp0, %c1 : i32
  %kper0 = arith.ceildivsi %iters, %sp1 : i32
  %kper = arith.maxsi %kper0, %c1 : i32
  %sp2 = arith.ceildivsi %iters, %kper : i32
  %splits = arith.maxsi %sp2, %c1 : i32
  %items = arith.muli %num_tiles, %splits : i32

  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gws = tilus.global_view %ws[%m, %n] : !tilus.ptr<f32> -> !tilus.global<?x?xf32>
  %tiles_m2 = arith.muli %tiles_m, %c2 : i32
  %num_sems = arith.muli %tiles_m2, %tiles_n : i32
  %gsem = tilus.global_view %sem[%num_sems] : !tilus.ptr<i32> -> !tilus.global<?xi32>
  %n_chunks = arith.floordivsi %n, %c64 : i32
  %gc3 = tilus.global_view %c[%m, %n_chunks] strides[%n] : !tilus.ptr<f16> -> !tilus.global<?x?x64xf16, strides = [?, 64, 1]>
  %n_rem = arith.remui %n, %c64 : i32
  %tma_ok = arith.cmpi eq, %n_rem, %c0 : i32
  %sa = tilus.shared_tensor : !tilus.shared<4x2x64x64xf16, swizzle = 128B>
  %sb = tilus.shared_tensor : !tilus.shared<4x1x128x64xf16, swizzle = 128B>
  %sc = tilus.shared_tensor : !tilus.shared<2x64x128xf16, swizzle = 128B>
  %full = mbarrier.alloc counts [1, 1, 1, 1] : !mbarrier.barriers<4>
  %empty = mbarrier.alloc counts [2, 2, 2, 2] : !mbarrier.barriers<4>

  // Producer: warpgroup [256, 384), which gives registers back (setmaxnreg dec 40); its first
  // warp walks every work item of this block and loads its k-steps.
  threadgroup.warp_group warps(8, 4) {
    threadgroup.setmaxnreg dec 40
    threadgroup.single_warp {
    %pphase0 = mbarrier.producer_initial_phase
    %pend:2 = scf.for %w = %pid to %items step %nblocks iter_args(%stage = %c0, %phase = %pphase0) -> (i32, i32) : i32 {
      %s_swap, %t = tilus.fast_divmod %w, %num_tiles
      %per_group = arith.muli %tiles_m, %c8 : i32
      %group, %in_group = tilus.fast_divmod %t, %per_group
      %first_n = arith.muli %group, %c8 : i32
      %left_n = arith.subi %tiles_n, %first_n : i32
      %width = arith.minsi %left_n, %c8 : i32
      %m_blk = arith.divui %in_group, %width : i32
      %n_in = arith.remui %in_group, %width : i32
      %n_blk = arith.addi %first_n, %n_in : i32
      %offset_m = arith.muli %m_blk, %c128 : i32
      %offset_n = arith.muli %n_blk, %cBN : i32
      %k_lo = arith.muli %s_swap, %kper : i32
      %k_end = arith.addi %k_lo, %kper : i32
      %k_hi = arith.minsi %k_end, %iters : i32
      %nk = arith.subi %k_hi, %k_lo : i32
      %row1 = arith.addi %offset_m, %c64 : i32
      %r:2 = scf.for %i = %c0 to %nk step %c1 iter_args(%st = %stage, %ph = %phase) -> (i32, i32) : i32 {
        // Both consumer warpgroups have released the stage.
        mbarrier.wait %empty[%st : i32], phase(%ph) : !mbarrier.barriers<4>
        %ki = arith.addi %k_lo, %i : i32
        %kk = arith.muli %ki, %c64 : i32
        %sa0 = tilus.slice_shared %sa[%st, %c0] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
        %sa1 = tilus.slice_shared %sa[%st, %c1] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
        %sb_0 = tilus.slice_shared %sb[%st, %c0] : !tilus.shared<4x1x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
        %b_row0 = arith.addi %offset_n, %c0 : i32
        threadgroup.single_thread {
          mbarrier.arrive_expect_tx %full[%st : i32], %tx_bytes : !mbarrier.barriers<4>
        }
        tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa0, %full[%st : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
        tma.global_to_shared %ga[%row1, %kk : i32, i32], %sa1, %full[%st : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
        tma.global_to_shared %gb[%b_row0, %kk : i32, i32], %sb_0, %full[%st : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
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
  }

  // Consumer 0: warpgroup [0, 128), rows [0, 64) of each tile.
  threadgroup.warp_group warps(0, 4) {
    threadgroup.setmaxnreg inc 232
    %cphase0 = mbarrier.consumer_initial_phase
    %sc_g = tilus.slice_shared %sc[%c0] : !tilus.shared<2x64x128xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, swizzle = 128B>
    %sc_g3 = tilus.reshape_shared %sc_g : !tilus.shared<64x128xf16, swizzle = 128B> -> !tilus.shared<64x2x64xf16, swizzle = 128B>
    %cend:2 = scf.for %w = %pid to %items step %nblocks iter_args(%stage = %c0, %phase = %cphase0) -> (i32, i32) : i32 {
      %s_swap, %t = tilus.fast_divmod %w, %num_tiles
      %per_group = arith.muli %tiles_m, %c8 : i32
      %group, %in_group = tilus.fast_divmod %t, %per_group
      %first_n = arith.muli %group, %c8 : i32
      %left_n = arith.subi %tiles_n, %first_n : i32
      %width = arith.minsi %left_n, %c8 : i32
      %m_blk = arith.divui %in_group, %width : i32
      %n_in = arith.remui %in_group, %width : i32
      %n_blk = arith.addi %first_n, %n_in : i32
      %offset_m = arith.muli %m_blk, %c128 : i32
      %offset_n = arith.muli %n_blk, %cBN : i32
      %k_lo = arith.muli %s_swap, %kper : i32
      %k_end = arith.addi %k_lo, %kper : i32
      %k_hi = arith.minsi %k_end, %iters : i32
      %nk = arith.subi %k_hi, %k_lo : i32
      %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
      %res:3 = scf.for %i = %c0 to %nk step %c1 iter_args(%a0 = %acc0, %st = %stage, %ph = %phase) -> (!tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32) : i32 {
        mbarrier.wait %full[%st : i32], phase(%ph) : !mbarrier.barriers<4>
        %sa_s = tilus.slice_shared %sa[%st, %c0] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
        %sb0 = tilus.slice_shared %sb[%st, %c0] : !tilus.shared<4x1x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
        %sb0t = tilus.permute_shared %sb0 [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
        wgmma.fence
        %a0n = wgmma.mma %sa_s, %sb0t, %a0 : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        wgmma.commit_group
        // The previous k-step's wgmmas have retired: release their stage.
        wgmma.wait_group 1
        %has_prev = arith.cmpi sge, %i, %c1 : i32
        %st_back = arith.addi %st, %cSm1 : i32
        %prev = arith.remui %st_back, %cS : i32
        scf.if %has_prev {
          threadgroup.single_thread {
            mbarrier.arrive %empty[%prev : i32] : !mbarrier.barriers<4>
          }
        }
        %s1 = arith.addi %st, %c1 : i32
        %wrap = arith.cmpi eq, %s1, %cS : i32
        %ns = arith.select %wrap, %c0, %s1 : i32
        %flip = arith.xori %ph, %c1 : i32
        %np = arith.select %wrap, %flip, %ph : i32
        scf.yield %a0n, %ns, %np : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32
      }
      // Drain: the last wgmmas retire and their stage is released.
      wgmma.wait_group 0
      %had = arith.cmpi sgt, %nk, %c0 : i32
      %last_back = arith.addi %res#1, %cSm1 : i32
      %last_st = arith.remui %last_back, %cS : i32
      scf.if %had {
        threadgroup.single_thread {
          mbarrier.arrive %empty[%last_st : i32] : !mbarrier.barriers<4>
        }
      }
      %row = arith.addi %offset_m, %c0 : i32
      %col0 = arith.addi %offset_n, %c0 : i32
      // Splits of a tile take turns on this warpgroup's semaphore (tile * 2 + 0): split s
      // waits for the value s, adds the partial sums of splits 0 .. s-1 from the workspace,
      // and hands on s + 1; the last split writes C and sets the semaphore back to 0 for the
      // next launch.
      %sem_i0 = arith.muli %t, %c2 : i32
      %sem_i = arith.addi %sem_i0, %c0 : i32
      %split = arith.cmpi sgt, %splits, %c1 : i32
      scf.if %split {
        threadgroup.single_thread {
          tilus.lock_semaphore %gsem[%sem_i], %s_swap : !tilus.global<?xi32>
        }
        threadgroup.sync
      }
      %first = arith.cmpi eq, %s_swap, %c0 : i32
      %sum:1 = scf.if %first -> (!tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>) {
        scf.yield %res#0 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
      } else {
        // One 128-column half at a time (the sync keeps a half's loads after the previous
        // half's adds, so 64 partial sums are live at once).
        %p0 = tilus.load_global %gws[%row, %col0] : !tilus.global<?x?xf32> -> !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        %q0 = tilus.add %res#0, %p0 : (!tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>) -> !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        scf.yield %q0 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
      }
      %s_next = arith.addi %s_swap, %c1 : i32
      %last = arith.cmpi eq, %s_next, %splits : i32
      scf.if %last {
        scf.if %tma_ok {
          %chunk0 = arith.divui %offset_n, %c64 : i32

          threadgroup.single_thread {
            tma.wait_group 0 read
          }
          threadgroup.sync
          %o0 = tilus.cast %sum#0 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
          tilus.store_shared %o0, %sc_g : !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x128xf16, swizzle = 128B>
          tma.fence_proxy_async shared
          threadgroup.sync
          threadgroup.single_thread {
            tma.shared_to_global %sc_g3, %gc3[%row, %chunk0, %c0 : i32, i32, i32] : !tilus.shared<64x2x64xf16, swizzle = 128B>, !tilus.global<?x?x64xf16, strides = [?, 64, 1]>
            tma.commit_group
          }
        } else {
          %out0 = tilus.cast %sum#0 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
          tilus.store_global %out0, %gc[%row, %col0] : !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
        }
        scf.if %split {
          threadgroup.single_thread {
            tilus.release_semaphore %gsem[%sem_i], %c0 : !tilus.global<?xi32>
          }
        }
      } else {
        tilus.store_global %sum#0, %gws[%row, %col0] : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf32>
        // Every thread's partial sums are written before one thread releases the next split.
        threadgroup.sync
        threadgroup.single_thread {
          tilus.release_semaphore %gsem[%sem_i], %s_next : !tilus.global<?xi32>
        }
      }
      scf.yield %res#1, %res#2 : i32, i32
    }
    threadgroup.single_thread {
      tma.wait_group 0
    }
  }

  // Consumer 1: warpgroup [128, 256), rows [64, 128) of each tile.
  threadgroup.warp_group warps(4, 4) {
    threadgroup.setmaxnreg inc 232
    %cphase0 = mbarrier.consumer_initial_phase
    %sc_g = tilus.slice_shared %sc[%c1] : !tilus.shared<2x64x128xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, swizzle = 128B>
    %sc_g3 = tilus.reshape_shared %sc_g : !tilus.shared<64x128xf16, swizzle = 128B> -> !tilus.shared<64x2x64xf16, swizzle = 128B>
    %cend:2 = scf.for %w = %pid to %items step %nblocks iter_args(%stage = %c0, %phase = %cphase0) -> (i32, i32) : i32 {
      %s_swap, %t = tilus.fast_divmod %w, %num_tiles
      %per_group = arith.muli %tiles_m, %c8 : i32
      %group, %in_group = tilus.fast_divmod %t, %per_group
      %first_n = arith.muli %group, %c8 : i32
      %left_n = arith.subi %tiles_n, %first_n : i32
      %width = arith.minsi %left_n, %c8 : i32
      %m_blk = arith.divui %in_group, %width : i32
      %n_in = arith.remui %in_group, %width : i32
      %n_blk = arith.addi %first_n, %n_in : i32
      %offset_m = arith.muli %m_blk, %c128 : i32
      %offset_n = arith.muli %n_blk, %cBN : i32
      %k_lo = arith.muli %s_swap, %kper : i32
      %k_end = arith.addi %k_lo, %kper : i32
      %k_hi = arith.minsi %k_end, %iters : i32
      %nk = arith.subi %k_hi, %k_lo : i32
      %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
      %res:3 = scf.for %i = %c0 to %nk step %c1 iter_args(%a0 = %acc0, %st = %stage, %ph = %phase) -> (!tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32) : i32 {
        mbarrier.wait %full[%st : i32], phase(%ph) : !mbarrier.barriers<4>
        %sa_s = tilus.slice_shared %sa[%st, %c1] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
        %sb0 = tilus.slice_shared %sb[%st, %c0] : !tilus.shared<4x1x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
        %sb0t = tilus.permute_shared %sb0 [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
        wgmma.fence
        %a0n = wgmma.mma %sa_s, %sb0t, %a0 : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        wgmma.commit_group
        // The previous k-step's wgmmas have retired: release their stage.
        wgmma.wait_group 1
        %has_prev = arith.cmpi sge, %i, %c1 : i32
        %st_back = arith.addi %st, %cSm1 : i32
        %prev = arith.remui %st_back, %cS : i32
        scf.if %has_prev {
          threadgroup.single_thread {
            mbarrier.arrive %empty[%prev : i32] : !mbarrier.barriers<4>
          }
        }
        %s1 = arith.addi %st, %c1 : i32
        %wrap = arith.cmpi eq, %s1, %cS : i32
        %ns = arith.select %wrap, %c0, %s1 : i32
        %flip = arith.xori %ph, %c1 : i32
        %np = arith.select %wrap, %flip, %ph : i32
        scf.yield %a0n, %ns, %np : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32
      }
      // Drain: the last wgmmas retire and their stage is released.
      wgmma.wait_group 0
      %had = arith.cmpi sgt, %nk, %c0 : i32
      %last_back = arith.addi %res#1, %cSm1 : i32
      %last_st = arith.remui %last_back, %cS : i32
      scf.if %had {
        threadgroup.single_thread {
          mbarrier.arrive %empty[%last_st : i32] : !mbarrier.barriers<4>
        }
      }
      %row = arith.addi %offset_m, %c64 : i32
      %col0 = arith.addi %offset_n, %c0 : i32
      // Splits of a tile take turns on this warpgroup's semaphore (tile * 2 + 1): split s
      // waits for the value s, adds the partial sums of splits 0 .. s-1 from the workspace,
      // and hands on s + 1; the last split writes C and sets the semaphore back to 0 for the
      // next launch.
      %sem_i0 = arith.muli %t, %c2 : i32
      %sem_i = arith.addi %sem_i0, %c1 : i32
      %split = arith.cmpi sgt, %splits, %c1 : i32
      scf.if %split {
        threadgroup.single_thread {
          tilus.lock_semaphore %gsem[%sem_i], %s_swap : !tilus.global<?xi32>
        }
        threadgroup.sync
      }
      %first = arith.cmpi eq, %s_swap, %c0 : i32
      %sum:1 = scf.if %first -> (!tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>) {
        scf.yield %res#0 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
      } else {
        // One 128-column half at a time (the sync keeps a half's loads after the previous
        // half's adds, so 64 partial sums are live at once).
        %p0 = tilus.load_global %gws[%row, %col0] : !tilus.global<?x?xf32> -> !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        %q0 = tilus.add %res#0, %p0 : (!tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>) -> !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        scf.yield %q0 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
      }
      %s_next = arith.addi %s_swap, %c1 : i32
      %last = arith.cmpi eq, %s_next, %splits : i32
      scf.if %last {
        scf.if %tma_ok {
          %chunk0 = arith.divui %offset_n, %c64 : i32

          threadgroup.single_thread {
            tma.wait_group 0 read
          }
          threadgroup.sync
          %o0 = tilus.cast %sum#0 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
          tilus.store_shared %o0, %sc_g : !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x128xf16, swizzle = 128B>
          tma.fence_proxy_async shared
          threadgroup.sync
          threadgroup.single_thread {
            tma.shared_to_global %sc_g3, %gc3[%row, %chunk0, %c0 : i32, i32, i32] : !tilus.shared<64x2x64xf16, swizzle = 128B>, !tilus.global<?x?x64xf16, strides = [?, 64, 1]>
            tma.commit_group
          }
        } else {
          %out0 = tilus.cast %sum#0 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
          tilus.store_global %out0, %gc[%row, %col0] : !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
        }
        scf.if %split {
          threadgroup.single_thread {
            tilus.release_semaphore %gsem[%sem_i], %c0 : !tilus.global<?xi32>
          }
        }
      } else {
        tilus.store_global %sum#0, %gws[%row, %col0] : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf32>
        // Every thread's partial sums are written before one thread releases the next split.
        threadgroup.sync
        threadgroup.single_thread {
          tilus.release_semaphore %gsem[%sem_i], %s_next : !tilus.global<?xi32>
        }
      }
      scf.yield %res#1, %res#2 : i32, i32
    }
    threadgroup.single_thread {
      tma.wait_group 0
    }
  }

  threadgroup.sync
  tilus.free_shared %sc : !tilus.shared<2x64x128xf16, swizzle = 128B>
  tilus.free_shared %sa : !tilus.shared<4x2x64x64xf16, swizzle = 128B>
  tilus.free_shared %sb : !tilus.shared<4x1x128x64xf16, swizzle = 128B>
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
