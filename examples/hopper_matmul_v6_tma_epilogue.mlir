// Hopper matmul v6: v5 (persistent, warp specialized, 2-CTA clusters with B multicast;
// examples/hopper_matmul_v5_cluster.mlir) with the epilogue through shared memory and TMA
// stores (issue 17). Written by bench/gen_matmul_v6.py from v5.
//
// In v5 each consumer warpgroup ends a tile with 64 st.global.b32 per thread straight from
// the wgmma accumulator; with 132 CTAs ending their tiles together those stores fill the
// memory pipeline and the warpgroup waits for them before the next tile's first wgmma. With
// the stores left out v5 ran at 1.01x cuBLAS at 4096^3 instead of 0.90x (docs/perf.md). Here:
//
// * each consumer warpgroup owns a 16 KiB buffer `sc[g]` ([64, 128] f16, 128B swizzle) and
//   sends its 64 x 256 of C through it in two halves: wait until the copy engine has read the
//   buffer (`tma.wait_group 0 read` by the thread that issued the last store, then a
//   warpgroup sync), cast and `tilus.store_shared` the half, `tma.fence_proxy_async shared`
//   (make the generic-proxy writes visible to the copy engine), sync, and one thread issues
//   `tma.shared_to_global` and `tma.commit_group`. The warpgroup then goes on to the next
//   tile; the copy finishes in the background;
// * the copy's box is [64, 2, 64]: the buffer viewed as [64, 2, 64] (`tilus.reshape_shared`,
//   same bytes) against C viewed as [M, N / 64, 64] with strides [N, 64, 1], since a 128B
//   swizzled box row may hold at most 64 f16. That view is C only when N is a multiple of 64
//   (and TMA needs N * 2 to be a multiple of 16); other N take v5's direct stores;
// * before the warpgroup leaves, its issuing thread waits for all its stores to complete.
//
// Shared memory: 4 stages x 48 KiB + 2 x 16 KiB = 224 KiB of the 227 KiB a block may use.
//
// Check: tilus-opt examples/hopper_matmul_v6_tma_epilogue.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --schedule random --seed 5 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg k=64 --arg num_sms=2 | FileCheck %s --check-prefix=INTERP
// N not a multiple of 64: the direct stores.
// RUN: tilus-run %s --arg n=200 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok

// CHECK-LABEL: tilus.kernel @hopper_matmul_tma_epilogue
// CHECK-SAME:    cluster(2, 1, 1)
// CHECK:         threadgroup.warp_group warps(0, 4) {
// CHECK:             tilus.store_shared
// CHECK-NEXT:        tma.fence_proxy_async shared
// CHECK-NEXT:        threadgroup.sync
// CHECK-NEXT:        threadgroup.single_thread {
// CHECK-NEXT:          tma.shared_to_global
// CHECK-NEXT:          tma.commit_group
tilus.kernel @hopper_matmul_tma_epilogue(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32, %num_sms: i32)
    warps(9) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6)>) cluster(2, 1, 1)
    attributes {tilus.args = {m = 512, n = 512, k = 320, num_sms = 4}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %cm1 = arith.constant -1 : i32
  %cS = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c256 = arith.constant 256 : i32
  %tx_bytes = arith.constant 49152 : i32
  %both = arith.constant 3 : i32
  %zero = arith.constant 0.0 : f32
  %pid = tilus.block_id x
  %nblocks = tilus.num_blocks x
  %rank = arith.remui %pid, %c2 : i32
  %cid = arith.divui %pid, %c2 : i32
  %nclusters = arith.divui %nblocks, %c2 : i32
  %my_rows = arith.muli %rank, %c128 : i32
  %iters = arith.ceildivsi %k, %c64 : i32
  %tiles_m = arith.ceildivsi %m, %c256 : i32
  %tiles_n = arith.ceildivsi %n, %c256 : i32
  %num_tiles = arith.muli %tiles_m, %tiles_n : i32

  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %sa = tilus.shared_tensor : !tilus.shared<4x2x64x64xf16, swizzle = 128B>
  %sb = tilus.shared_tensor : !tilus.shared<4x2x128x64xf16, swizzle = 128B>
  // One 16 KiB epilogue buffer per consumer warpgroup, and C as [M, N / 64, 64].
  %sc = tilus.shared_tensor : !tilus.shared<2x64x128xf16, swizzle = 128B>
  %n_chunks = arith.floordivsi %n, %c64 : i32
  %gc3 = tilus.global_view %c[%m, %n_chunks] strides[%n] : !tilus.ptr<f16> -> !tilus.global<?x?x64xf16, strides = [?, 64, 1]>
  %n_rem = arith.remui %n, %c64 : i32
  %tma_ok = arith.cmpi eq, %n_rem, %c0 : i32
  %full = mbarrier.alloc counts [1, 1, 1, 1] : !mbarrier.barriers<4>
  %empty = mbarrier.alloc counts [4, 4, 4, 4] : !mbarrier.barriers<4>

  // Producer: warp 8 of each CTA.
  threadgroup.single_warp warp(8) {
    %pphase0 = mbarrier.producer_initial_phase
    %pend:2 = scf.for %t = %cid to %num_tiles step %nclusters iter_args(%stage = %c0, %phase = %pphase0) -> (i32, i32) : i32 {
      %num_m = arith.ceildivsi %m, %c256 : i32
      %num_n = arith.ceildivsi %n, %c256 : i32
      %per_group = arith.muli %num_m, %c8 : i32
      %group, %in_group = tilus.fast_divmod %t, %per_group
      %first_n = arith.muli %group, %c8 : i32
      %left_n = arith.subi %num_n, %first_n : i32
      %width = arith.minsi %left_n, %c8 : i32
      %m_blk = arith.divui %in_group, %width : i32
      %n_in = arith.remui %in_group, %width : i32
      %n_blk = arith.addi %first_n, %n_in : i32
      %m_pair = arith.muli %m_blk, %c256 : i32
      %offset_m = arith.addi %m_pair, %my_rows : i32
      %offset_n = arith.muli %n_blk, %c256 : i32
      %row1 = arith.addi %offset_m, %c64 : i32
      %b_rows = arith.addi %offset_n, %my_rows : i32
      %r:2 = scf.for %i = %c0 to %iters step %c1 iter_args(%st = %stage, %ph = %phase) -> (i32, i32) : i32 {
        // Both CTAs' consumers have released the stage (this producer writes into both).
        mbarrier.wait %empty[%st : i32], phase(%ph) : !mbarrier.barriers<4>
        %kk = arith.muli %i, %c64 : i32
        %sa0 = tilus.slice_shared %sa[%st, %c0] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
        %sa1 = tilus.slice_shared %sa[%st, %c1] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
        %sb_mine = tilus.slice_shared %sb[%st, %rank] : !tilus.shared<4x2x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
        // 16 KiB of A from this CTA, 16 KiB of B from each CTA of the pair.
        threadgroup.single_thread {
          mbarrier.arrive_expect_tx %full[%st : i32], %tx_bytes : !mbarrier.barriers<4>
        }
        tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa0, %full[%st : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
        tma.global_to_shared %ga[%row1, %kk : i32, i32], %sa1, %full[%st : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
        tma.global_to_shared %gb[%b_rows, %kk : i32, i32], %sb_mine, %full[%st : i32] multicast(%both) : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<4>
        %s1 = arith.addi %st, %c1 : i32
        %wrap = arith.cmpi eq, %s1, %cS : i32
        %ns = arith.select %wrap, %c0, %s1 : i32
        %flip = arith.xori %ph, %c1 : i32
        %np = arith.select %wrap, %flip, %ph : i32
        scf.yield %ns, %np : i32, i32
      }
      scf.yield %r#0, %r#1 : i32, i32
    }
    // Drain: every stage released by both CTAs' consumers, so no peer arrives on this CTA's
    // barriers after it exits.
    %tail:2 = scf.for %j = %c0 to %cS step %c1 iter_args(%st = %pend#0, %ph = %pend#1) -> (i32, i32) : i32 {
      mbarrier.wait %empty[%st : i32], phase(%ph) : !mbarrier.barriers<4>
      %s1 = arith.addi %st, %c1 : i32
      %wrap = arith.cmpi eq, %s1, %cS : i32
      %ns = arith.select %wrap, %c0, %s1 : i32
      %flip = arith.xori %ph, %c1 : i32
      %np = arith.select %wrap, %flip, %ph : i32
      scf.yield %ns, %np : i32, i32
    }
  }

  // Consumer 0: warpgroup [0, 128), rows [0, 64) of this CTA's 128.
  threadgroup.warp_group warps(0, 4) {
    %cphase0 = mbarrier.consumer_initial_phase
    %cend:2 = scf.for %t = %cid to %num_tiles step %nclusters iter_args(%stage = %c0, %phase = %cphase0) -> (i32, i32) : i32 {
      %num_m = arith.ceildivsi %m, %c256 : i32
      %num_n = arith.ceildivsi %n, %c256 : i32
      %per_group = arith.muli %num_m, %c8 : i32
      %group, %in_group = tilus.fast_divmod %t, %per_group
      %first_n = arith.muli %group, %c8 : i32
      %left_n = arith.subi %num_n, %first_n : i32
      %width = arith.minsi %left_n, %c8 : i32
      %m_blk = arith.divui %in_group, %width : i32
      %n_in = arith.remui %in_group, %width : i32
      %n_blk = arith.addi %first_n, %n_in : i32
      %m_pair = arith.muli %m_blk, %c256 : i32
      %offset_m = arith.addi %m_pair, %my_rows : i32
      %offset_n = arith.muli %n_blk, %c256 : i32
      %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
      %res:5 = scf.for %i = %c0 to %iters step %c1 iter_args(%lo = %acc0, %hi = %acc0, %st = %stage, %ph = %phase, %prev = %cm1) -> (!tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32, i32) : i32 {
        mbarrier.wait %full[%st : i32], phase(%ph) : !mbarrier.barriers<4>
        %sa_s = tilus.slice_shared %sa[%st, %c0] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
        %sb0 = tilus.slice_shared %sb[%st, %c0] : !tilus.shared<4x2x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
        %sb1 = tilus.slice_shared %sb[%st, %c1] : !tilus.shared<4x2x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
        %sb0t = tilus.permute_shared %sb0 [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
        %sb1t = tilus.permute_shared %sb1 [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
        wgmma.fence
        %lo2 = wgmma.mma %sa_s, %sb0t, %lo : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        %hi2 = wgmma.mma %sa_s, %sb1t, %hi : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        wgmma.commit_group
        // The previous k-step's wgmmas have retired: release their stage in both CTAs (the
        // peer's producer multicasts its half of B into this CTA's copy of the stage).
        wgmma.wait_group 1
        %has_prev = arith.cmpi sge, %prev, %c0 : i32
        scf.if %has_prev {
          threadgroup.single_thread {
            mbarrier.arrive_expect_tx_remote %empty[%prev : i32], %c0, rank(%c0) scope(cta) : !mbarrier.barriers<4>
            mbarrier.arrive_expect_tx_remote %empty[%prev : i32], %c0, rank(%c1) scope(cta) : !mbarrier.barriers<4>
          }
        }
        %s1 = arith.addi %st, %c1 : i32
        %wrap = arith.cmpi eq, %s1, %cS : i32
        %ns = arith.select %wrap, %c0, %s1 : i32
        %flip = arith.xori %ph, %c1 : i32
        %np = arith.select %wrap, %flip, %ph : i32
        scf.yield %lo2, %hi2, %ns, %np, %st : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32, i32
      }
      wgmma.wait_group 0
      %had = arith.cmpi sge, %res#4, %c0 : i32
      scf.if %had {
        threadgroup.single_thread {
          mbarrier.arrive_expect_tx_remote %empty[%res#4 : i32], %c0, rank(%c0) scope(cta) : !mbarrier.barriers<4>
          mbarrier.arrive_expect_tx_remote %empty[%res#4 : i32], %c0, rank(%c1) scope(cta) : !mbarrier.barriers<4>
        }
      }
      %row = arith.addi %offset_m, %c0 : i32
      %col1 = arith.addi %offset_n, %c128 : i32
      scf.if %tma_ok {
        // Through this warpgroup's buffer, one 64 x 128 half at a time.
        %sc_g = tilus.slice_shared %sc[%c0] : !tilus.shared<2x64x128xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, swizzle = 128B>
        %sc_g3 = tilus.reshape_shared %sc_g : !tilus.shared<64x128xf16, swizzle = 128B> -> !tilus.shared<64x2x64xf16, swizzle = 128B>
        %chunk0 = arith.divui %offset_n, %c64 : i32
        %chunk1 = arith.addi %chunk0, %c2 : i32
        threadgroup.single_thread {
          tma.wait_group 0 read
        }
        threadgroup.sync
        %o0 = tilus.cast %res#0 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        tilus.store_shared %o0, %sc_g : !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x128xf16, swizzle = 128B>
        tma.fence_proxy_async shared
        threadgroup.sync
        threadgroup.single_thread {
          tma.shared_to_global %sc_g3, %gc3[%row, %chunk0, %c0 : i32, i32, i32] : !tilus.shared<64x2x64xf16, swizzle = 128B>, !tilus.global<?x?x64xf16, strides = [?, 64, 1]>
          tma.commit_group
        }
        threadgroup.single_thread {
          tma.wait_group 0 read
        }
        threadgroup.sync
        %o1 = tilus.cast %res#1 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        tilus.store_shared %o1, %sc_g : !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x128xf16, swizzle = 128B>
        tma.fence_proxy_async shared
        threadgroup.sync
        threadgroup.single_thread {
          tma.shared_to_global %sc_g3, %gc3[%row, %chunk1, %c0 : i32, i32, i32] : !tilus.shared<64x2x64xf16, swizzle = 128B>, !tilus.global<?x?x64xf16, strides = [?, 64, 1]>
          tma.commit_group
        }
      } else {
        %out0 = tilus.cast %res#0 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        tilus.store_global %out0, %gc[%row, %offset_n] : !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
        %out1 = tilus.cast %res#1 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        tilus.store_global %out1, %gc[%row, %col1] : !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
      }
      scf.yield %res#2, %res#3 : i32, i32
    }
    threadgroup.single_thread {
      tma.wait_group 0
    }
  }

  // Consumer 1: warpgroup [128, 256), rows [64, 128) of this CTA's 128.
  threadgroup.warp_group warps(4, 4) {
    %cphase0 = mbarrier.consumer_initial_phase
    %cend:2 = scf.for %t = %cid to %num_tiles step %nclusters iter_args(%stage = %c0, %phase = %cphase0) -> (i32, i32) : i32 {
      %num_m = arith.ceildivsi %m, %c256 : i32
      %num_n = arith.ceildivsi %n, %c256 : i32
      %per_group = arith.muli %num_m, %c8 : i32
      %group, %in_group = tilus.fast_divmod %t, %per_group
      %first_n = arith.muli %group, %c8 : i32
      %left_n = arith.subi %num_n, %first_n : i32
      %width = arith.minsi %left_n, %c8 : i32
      %m_blk = arith.divui %in_group, %width : i32
      %n_in = arith.remui %in_group, %width : i32
      %n_blk = arith.addi %first_n, %n_in : i32
      %m_pair = arith.muli %m_blk, %c256 : i32
      %offset_m = arith.addi %m_pair, %my_rows : i32
      %offset_n = arith.muli %n_blk, %c256 : i32
      %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
      %res:5 = scf.for %i = %c0 to %iters step %c1 iter_args(%lo = %acc0, %hi = %acc0, %st = %stage, %ph = %phase, %prev = %cm1) -> (!tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32, i32) : i32 {
        mbarrier.wait %full[%st : i32], phase(%ph) : !mbarrier.barriers<4>
        %sa_s = tilus.slice_shared %sa[%st, %c1] : !tilus.shared<4x2x64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, swizzle = 128B>
        %sb0 = tilus.slice_shared %sb[%st, %c0] : !tilus.shared<4x2x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
        %sb1 = tilus.slice_shared %sb[%st, %c1] : !tilus.shared<4x2x128x64xf16, swizzle = 128B> -> !tilus.shared<128x64xf16, swizzle = 128B>
        %sb0t = tilus.permute_shared %sb0 [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
        %sb1t = tilus.permute_shared %sb1 [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
        wgmma.fence
        %lo2 = wgmma.mma %sa_s, %sb0t, %lo : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        %hi2 = wgmma.mma %sa_s, %sb1t, %hi : !tilus.shared<64x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        wgmma.commit_group
        // The previous k-step's wgmmas have retired: release their stage in both CTAs (the
        // peer's producer multicasts its half of B into this CTA's copy of the stage).
        wgmma.wait_group 1
        %has_prev = arith.cmpi sge, %prev, %c0 : i32
        scf.if %has_prev {
          threadgroup.single_thread {
            mbarrier.arrive_expect_tx_remote %empty[%prev : i32], %c0, rank(%c0) scope(cta) : !mbarrier.barriers<4>
            mbarrier.arrive_expect_tx_remote %empty[%prev : i32], %c0, rank(%c1) scope(cta) : !mbarrier.barriers<4>
          }
        }
        %s1 = arith.addi %st, %c1 : i32
        %wrap = arith.cmpi eq, %s1, %cS : i32
        %ns = arith.select %wrap, %c0, %s1 : i32
        %flip = arith.xori %ph, %c1 : i32
        %np = arith.select %wrap, %flip, %ph : i32
        scf.yield %lo2, %hi2, %ns, %np, %st : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, i32, i32, i32
      }
      wgmma.wait_group 0
      %had = arith.cmpi sge, %res#4, %c0 : i32
      scf.if %had {
        threadgroup.single_thread {
          mbarrier.arrive_expect_tx_remote %empty[%res#4 : i32], %c0, rank(%c0) scope(cta) : !mbarrier.barriers<4>
          mbarrier.arrive_expect_tx_remote %empty[%res#4 : i32], %c0, rank(%c1) scope(cta) : !mbarrier.barriers<4>
        }
      }
      %row = arith.addi %offset_m, %c64 : i32
      %col1 = arith.addi %offset_n, %c128 : i32
      scf.if %tma_ok {
        // Through this warpgroup's buffer, one 64 x 128 half at a time.
        %sc_g = tilus.slice_shared %sc[%c1] : !tilus.shared<2x64x128xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, swizzle = 128B>
        %sc_g3 = tilus.reshape_shared %sc_g : !tilus.shared<64x128xf16, swizzle = 128B> -> !tilus.shared<64x2x64xf16, swizzle = 128B>
        %chunk0 = arith.divui %offset_n, %c64 : i32
        %chunk1 = arith.addi %chunk0, %c2 : i32
        threadgroup.single_thread {
          tma.wait_group 0 read
        }
        threadgroup.sync
        %o0 = tilus.cast %res#0 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        tilus.store_shared %o0, %sc_g : !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x128xf16, swizzle = 128B>
        tma.fence_proxy_async shared
        threadgroup.sync
        threadgroup.single_thread {
          tma.shared_to_global %sc_g3, %gc3[%row, %chunk0, %c0 : i32, i32, i32] : !tilus.shared<64x2x64xf16, swizzle = 128B>, !tilus.global<?x?x64xf16, strides = [?, 64, 1]>
          tma.commit_group
        }
        threadgroup.single_thread {
          tma.wait_group 0 read
        }
        threadgroup.sync
        %o1 = tilus.cast %res#1 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        tilus.store_shared %o1, %sc_g : !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.shared<64x128xf16, swizzle = 128B>
        tma.fence_proxy_async shared
        threadgroup.sync
        threadgroup.single_thread {
          tma.shared_to_global %sc_g3, %gc3[%row, %chunk1, %c0 : i32, i32, i32] : !tilus.shared<64x2x64xf16, swizzle = 128B>, !tilus.global<?x?x64xf16, strides = [?, 64, 1]>
          tma.commit_group
        }
      } else {
        %out0 = tilus.cast %res#0 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        tilus.store_global %out0, %gc[%row, %offset_n] : !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
        %out1 = tilus.cast %res#1 : !tilus.reg<64x128xf32, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
        tilus.store_global %out1, %gc[%row, %col1] : !tilus.reg<64x128xf16, layout = column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
      }
      scf.yield %res#2, %res#3 : i32, i32
    }
    threadgroup.single_thread {
      tma.wait_group 0
    }
  }

  threadgroup.sync
  tilus.free_shared %sa : !tilus.shared<4x2x64x64xf16, swizzle = 128B>
  tilus.free_shared %sc : !tilus.shared<2x64x128xf16, swizzle = 128B>
  tilus.free_shared %sb : !tilus.shared<4x2x128x64xf16, swizzle = 128B>
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
