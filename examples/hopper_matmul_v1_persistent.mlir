// Hopper matmul v1, persistent: the unpipelined input of the persistent pipeline (issue 15).
//
//   C[M, N] = A[M, K] . B[N, K]^T      f16 in, f32 accumulate, f16 out
//   bm = 128, bn = 256, bk = 64 (v4's tile)
//
// v1's one-stage k loop (examples/hopper_matmul_v1_wgmma.mlir: one barrier, one elected thread
// announcing the bytes, issuing both TMA copies and waiting, then the 128 threads of the block
// run the wgmma protocol) nested in v4's persistent tile loop
// (examples/hopper_matmul_v4_persistent.mlir: a grid of `num_sms` blocks; block b takes tiles
// b, b + W, ... < num_tiles, W the fewest blocks that need no more rounds than all of them, in
// the rasterized order of groups of 8 N-columns, the tile count known at run time). The
// barrier's phase is carried by both loops: it flips on every k step, and the next tile's first
// wait continues from where the previous tile left it. The epilogue (convert, store) follows the
// k loop in each tile.
//
// Nothing overlaps here: every k step waits for its own copy, and the copies of the next tile
// wait for the epilogue. `pipeline{stages=N}` turns the k loop into an N-stage ring carried
// across tiles and `warp-specialize{consumer-warpgroups=K}` splits it into a producer that
// runs ahead into the next tile and K consumer warpgroups (docs/guide/pipelining.md, "A
// persistent kernel"); with K = 2 the result has v4's shape.
//
// Check: tilus-opt examples/hopper_matmul_v1_persistent.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// The interpreter runs it with 3 blocks over 4 tiles (2 rounds: blocks 0 and 1 take tiles 0, 2
// and 1, 3; block 2 none), with 5 blocks over 4 tiles (one round, block 4 idle), and with
// one k step, and checks C against the naive @matmul_ref at the end of the file:
// RUN: tilus-run %s | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --schedule random --seed 5 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg num_sms=5 | FileCheck %s --check-prefix=INTERP
// RUN: tilus-run %s --arg k=64 | FileCheck %s --check-prefix=INTERP
// INTERP: check c vs reference @matmul_ref: ok

// CHECK-LABEL: tilus.kernel @hopper_matmul_v1_persistent
// CHECK-SAME:    warps(4) blocks(#map)
// CHECK:         %[[BAR:.*]] = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PH:.*]] = %{{.*}}) -> (i32) : i32 {
// CHECK:           tilus.fast_divmod
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[PH]])
// CHECK-NEXT:        threadgroup.single_thread {
// CHECK-NEXT:          mbarrier.arrive_expect_tx %[[BAR]]
// CHECK-NEXT:          tma.global_to_shared
// CHECK-NEXT:          tma.global_to_shared
// CHECK-NEXT:          mbarrier.wait %[[BAR]]
// CHECK-NEXT:        }
// CHECK-NEXT:        threadgroup.sync
// CHECK:             wgmma.mma
// CHECK-NEXT:        wgmma.commit_group
// CHECK-NEXT:        wgmma.wait_group 0
// CHECK-NEXT:        threadgroup.sync
// CHECK:           tilus.store_global
// CHECK:           scf.yield
tilus.kernel @hopper_matmul_v1_persistent(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32, %num_sms: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d6)>)
    attributes {tilus.args = {m = 256 : i32, n = 512 : i32, k = 320 : i32, num_sms = 3 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %c256 = arith.constant 256 : i32
  %tx_bytes = arith.constant 49152 : i32
  %zero = arith.constant 0.0 : f32
  %pid = tilus.block_id x
  %nblocks = tilus.num_blocks x
  // The tile count, known at run time (the grid is the SM count, not the tiles).
  %tiles_m = arith.ceildivsi %m, %c128 : i32
  %tiles_n = arith.ceildivsi %n, %c256 : i32
  %num_tiles = arith.muli %tiles_m, %tiles_n : i32
  // Balanced rounds: the fewest blocks that still finish in the same number of rounds take the
  // tiles (512 tiles on 132 SMs: 4 rounds either way, so 128 blocks take 4 tiles each instead
  // of 116 taking 4 and 16 taking 3); the other blocks run no tile.
  %rounds0 = arith.ceildivsi %num_tiles, %nblocks : i32
  %rounds = arith.maxsi %rounds0, %c1 : i32
  %workers0 = arith.ceildivsi %num_tiles, %rounds : i32
  %workers = arith.maxsi %workers0, %c1 : i32
  %active = arith.cmpi slt, %pid, %workers : i32
  %my_end = arith.select %active, %num_tiles, %c0 : i32

  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %sa = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %sb = tilus.shared_tensor : !tilus.shared<256x64xf16, swizzle = 128B>
  %sbt = tilus.permute_shared %sb [1, 0] : !tilus.shared<256x64xf16, swizzle = 128B> -> !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %phase0 = mbarrier.consumer_initial_phase
  %end = scf.for %t = %pid to %my_end step %workers iter_args(%phase = %phase0) -> (i32) : i32 {
    // Tile t in the rasterized order: groups of 8 N-columns, M fastest inside a group.
    %per_group = arith.muli %tiles_m, %c8 : i32
    %group, %in_group = tilus.fast_divmod %t, %per_group
    %first_n = arith.muli %group, %c8 : i32
    %left_n = arith.subi %tiles_n, %first_n : i32
    %width = arith.minsi %left_n, %c8 : i32
    %m_blk = arith.divui %in_group, %width : i32
    %n_in = arith.remui %in_group, %width : i32
    %n_blk = arith.addi %first_n, %n_in : i32
    %offset_m = arith.muli %m_blk, %c128 : i32
    %offset_n = arith.muli %n_blk, %c256 : i32
    // wgmma accumulates (scale-d = 1), so each tile's accumulator starts at zero.
    %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x256xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
    %res:2 = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %acc0, %ph = %phase) -> (!tilus.reg<128x256xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32) : i32 {
      threadgroup.single_thread {
        mbarrier.arrive_expect_tx %bar[%c0 : i32], %tx_bytes : !mbarrier.barriers<1>
        tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
        tma.global_to_shared %gb[%offset_n, %kk : i32, i32], %sb, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<256x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
        mbarrier.wait %bar[%c0 : i32], phase(%ph) : !mbarrier.barriers<1>
      }
      threadgroup.sync
      // The 128 threads of the block are the warpgroup: two m64n256k16 rows per k16 step.
      wgmma.fence
      %acc2 = wgmma.mma %sa, %sbt, %acc : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x256xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<128x256xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
      wgmma.commit_group
      wgmma.wait_group 0
      // The MMA has read the tiles; the next TMA (this tile's or the next one's) may overwrite them.
      threadgroup.sync
      %next = arith.xori %ph, %c1 : i32
      scf.yield %acc2, %next : !tilus.reg<128x256xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, i32
    }
    // Epilogue: convert in place (same layout) and store straight from the fragment.
    %out = tilus.cast %res#0 : !tilus.reg<128x256xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)> to !tilus.reg<128x256xf16, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>
    tilus.store_global %out, %gc[%offset_m, %offset_n] : !tilus.reg<128x256xf16, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 32) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
    scf.yield %res#1 : i32
  }
  tilus.free_shared %sa : !tilus.shared<128x64xf16, swizzle = 128B>
  tilus.free_shared %sb : !tilus.shared<256x64xf16, swizzle = 128B>
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
