// Litmus: the byte count announced with expect_tx (8192) is larger than the copy delivers
// (a 32x32 f32 tile, 4096 bytes): the phase never completes and the wait never returns.
// LITMUS: deadlock
tilus.kernel @expect_tx_too_large(%x: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %bytes = arith.constant 8192 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %s = tilus.shared_tensor : !tilus.shared<32x32xf32>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  threadgroup.single_thread {
    mbarrier.arrive_expect_tx %bar[%c0 : i32], %bytes : !mbarrier.barriers<1>
    tma.global_to_shared %gx[%c0, %c0 : i32, i32], %s, %bar[%c0 : i32] : !tilus.global<32x32xf32>, !tilus.shared<32x32xf32>, !mbarrier.barriers<1>
  }
  mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  tilus.free_shared %s : !tilus.shared<32x32xf32>
}
