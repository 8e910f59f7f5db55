// Litmus: two wgmma groups, then wgmma.wait_group 1, which retires the older group: its
// accumulator (%acc1) is readable; wgmma.wait_group 0 retires the other before exit.
// C = A . B^T, checked against the naive @matmul_ref.
// LITMUS: completes
tilus.kernel @wgmma_wait_older_ok(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (1)>)
    attributes {tilus.args = {m = 128 : i32, n = 128 : i32, k = 64 : i32}, tilus.outputs = ["c"], tilus.reference = "matmul_ref"} {
  %c0 = arith.constant 0 : i32
  %tx_bytes = arith.constant 32768 : i32
  %zero = arith.constant 0.0 : f32
  %ga = tilus.global_view %a[%m, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gb = tilus.global_view %b[%n, %k] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %gc = tilus.global_view %c[%m, %n] : !tilus.ptr<f16> -> !tilus.global<?x?xf16>
  %sa = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %sb = tilus.shared_tensor : !tilus.shared<128x64xf16, swizzle = 128B>
  %sbt = tilus.permute_shared %sb [1, 0] : !tilus.shared<128x64xf16, swizzle = 128B> -> !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  threadgroup.single_thread {
    mbarrier.arrive_expect_tx %bar[%c0 : i32], %tx_bytes : !mbarrier.barriers<1>
    tma.global_to_shared %ga[%c0, %c0 : i32, i32], %sa, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
    tma.global_to_shared %gb[%c0, %c0 : i32, i32], %sb, %bar[%c0 : i32] : !tilus.global<?x?xf16>, !tilus.shared<128x64xf16, swizzle = 128B>, !mbarrier.barriers<1>
  }
  mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  %acc0 = tilus.register_tensor init(%zero : f32) : !tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
  wgmma.fence
  %acc1 = wgmma.mma %sa, %sbt, %acc0 : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
  wgmma.commit_group
  %acc2 = wgmma.mma %sa, %sbt, %acc0 : !tilus.shared<128x64xf16, swizzle = 128B>, !tilus.shared<64x128xf16, strides = [1, 64], swizzle = 128B>, !tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
  wgmma.commit_group
  wgmma.wait_group 1
  %out = tilus.cast %acc1 : !tilus.reg<128x128xf32, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)> to !tilus.reg<128x128xf16, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>
  tilus.store_global %out, %gc[%c0, %c0] : !tilus.reg<128x128xf16, layout = local(2, 1) * column_spatial(4, 1) * column_local(2, 16) * spatial(8, 4) * local(1, 2)>, !tilus.global<?x?xf16>
  wgmma.wait_group 0
  threadgroup.sync
  tilus.free_shared %sa : !tilus.shared<128x64xf16, swizzle = 128B>
  tilus.free_shared %sb : !tilus.shared<128x64xf16, swizzle = 128B>
}

// The naive reference: plain global loads and tilus.dot, no shared memory or MMA protocol.
tilus.kernel @matmul_ref(%a: !tilus.ptr<f16>, %b: !tilus.ptr<f16>, %c: !tilus.ptr<f16>, %m: i32, %n: i32, %k: i32)
    warps(4) blocks(affine_map<(d0, d1, d2, d3, d4, d5) -> (d3 ceildiv 64, d4 ceildiv 64)>) {
  %c0 = arith.constant 0 : i32
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
  %ra = tilus.load_global %ga[%om, %c0] : !tilus.global<?x?xf16> -> !tilus.reg<64x64xf16>
  %rb = tilus.load_global %gbt[%c0, %on] : !tilus.global<?x?xf16, strides = [1, ?]> -> !tilus.reg<64x64xf16>
  %d = tilus.dot %ra, %rb, %acc0 : (!tilus.reg<64x64xf16>, !tilus.reg<64x64xf16>, !tilus.reg<64x64xf32>) -> !tilus.reg<64x64xf32>
  %out = tilus.cast %d : !tilus.reg<64x64xf32> to !tilus.reg<64x64xf16>
  tilus.store_global %out, %gc[%om, %on] : !tilus.reg<64x64xf16>, !tilus.global<?x?xf16>
}
