// Litmus: reading a TMA destination without waiting on the barrier the copy signals. A race on
// every schedule: whether the copy has finished when the threads read is luck.
// LITMUS: race
tilus.kernel @tma_read_without_wait(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %bytes = arith.constant 4096 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %s = tilus.shared_tensor : !tilus.shared<32x32xf32>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  threadgroup.single_thread {
    mbarrier.arrive_expect_tx %bar[%c0 : i32], %bytes : !mbarrier.barriers<1>
    tma.global_to_shared %gx[%c0, %c0 : i32, i32], %s, %bar[%c0 : i32] : !tilus.global<32x32xf32>, !tilus.shared<32x32xf32>, !mbarrier.barriers<1>
  }
  threadgroup.sync
  %v = tilus.load_shared %s : !tilus.shared<32x32xf32> -> !tilus.reg<32x32xf32>
  tilus.store_global %v, %gy[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<32x32xf32>
  mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  tilus.free_shared %s : !tilus.shared<32x32xf32>
}
