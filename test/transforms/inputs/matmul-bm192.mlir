// The Hopper matmul v1 (examples/hopper_matmul_v1_wgmma.mlir) with a 192 x 64 tile: one
// warpgroup, one TMA stage, wgmma m64n64 x 3 rows of instructions. 192 rows split into 1, 2 or 3
// consumer warpgroups of a multiple of 64 rows (wgmma's M) only for K = 1 and 3, so the
// warp-specialize tests use it for K = 3 (and v1, 128 rows, for K = 2). The tile is small to
// keep the interpreter sweeps fast: tx bytes = (192 + 64) x 64 x 2 = 32768.
//
// RUN: tilus-run %s | FileCheck %s
// RUN: tilus-run %s --arg m=384 --arg n=192 --arg k=320 --schedule random --seed 2 | FileCheck %s
// CHECK: check c vs reference @matmul_ref: ok

tilus.kernel @matmul_bm192(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 192, d4 ceildiv 64)>)
    attributes {tilus.args = {m = 192 : i32, n = 128 : i32, k = 192 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %c64n = arith.constant 64 : i32
  %c192 = arith.constant 192 : i32
  %tx_bytes = arith.constant 32768 : i32
  %zero = arith.constant 0.0 : f32
  %bx = tilus.block_id x
  %by = tilus.block_id y
  %offset_m = arith.muli %bx, %c192 : i32
  %offset_n = arith.muli %by, %c64n : i32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %sa = tilus.shared_tensor : !tilus.shared<192x64xf16, swizzle = 128B>
  %sb = tilus.shared_tensor : !tilus.shared<64x64xf16, swizzle = 128B>
  %sbt = tilus.permute_shared %sb [1, 0] : !tilus.shared<64x64xf16, swizzle = 128B> -> !tilus.shared<64x64xf16, strides = [1, 64], swizzle = 128B>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<192x64xf32, layout = local(3, 1) * column_spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
  %phase0 = mbarrier.consumer_initial_phase
  %res:2 = scf.for %kk = %c0 to %k step %c64 iter_args(%acc = %acc0, %phase = %phase0) -> (!tilus.reg<192x64xf32, layout = local(3, 1) * column_spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>, i32) : i32 {
    threadgroup.single_thread {
      mbarrier.arrive_expect_tx %bar[%c0 : i32], %tx_bytes : !mbarrier.barriers<1>
      tma.global_to_shared %ga[%offset_m, %kk : i32, i32], %sa, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<192x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
      tma.global_to_shared %gb[%offset_n, %kk : i32, i32], %sb, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<64x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
      mbarrier.wait %bar[%c0 : i32], phase(%phase) : !mbarrier.barriers<1>
    }
    threadgroup.sync
    wgmma.fence
    %acc2 = wgmma.mma %sa, %sbt, %acc : !tilus.shared<192x64xf16, swizzle = 128B>, !tilus.shared<64x64xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<192x64xf32, layout = local(3, 1) * column_spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
    wgmma.commit_group
    wgmma.wait_group 0
    threadgroup.sync
    %next = arith.xori %phase, %c1 : i32
    scf.yield %acc2, %next : !tilus.reg<192x64xf32, layout = local(3, 1) * column_spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>, i32
  }
  %out = tilus.cast %res#0 : !tilus.reg<192x64xf32, layout = local(3, 1) * column_spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)> to !tilus.reg<192x64xf16, layout = local(3, 1) * column_spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>
  tilus.store_global %out, %gc[%offset_m, %offset_n] : !tilus.reg<192x64xf16, layout = local(3, 1) * column_spatial(4, 1) * column_local(2, 8) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
  tilus.free_shared %sa : !tilus.shared<192x64xf16, swizzle = 128B>
  tilus.free_shared %sb : !tilus.shared<64x64xf16, swizzle = 128B>
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
