// Litmus: two copies signal two barriers; the threads wait only on the second one and then read
// the first copy's destination. Nothing orders the read after the first copy: a race on every
// schedule, although on many schedules the first copy (issued first) has finished by then.
// LITMUS: race
tilus.kernel @tma_wait_wrong_barrier(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %bytes = arith.constant 4096 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %s1 = tilus.shared_tensor : !tilus.shared<32x32xf32>
  %s2 = tilus.shared_tensor : !tilus.shared<32x32xf32>
  %bar = mbarrier.alloc counts [1, 1] : !mbarrier.barriers<2>
  threadgroup.single_thread {
    mbarrier.arrive_expect_tx %bar[%c0 : i32], %bytes : !mbarrier.barriers<2>
    tma.global_to_shared %gx[%c0, %c0 : i32, i32], %s1, %bar[%c0 : i32] : !tilus.global<64x32xf32>, !tilus.shared<32x32xf32>, !mbarrier.barriers<2>
    mbarrier.arrive_expect_tx %bar[%c1 : i32], %bytes : !mbarrier.barriers<2>
    tma.global_to_shared %gx[%c32, %c0 : i32, i32], %s2, %bar[%c1 : i32] : !tilus.global<64x32xf32>, !tilus.shared<32x32xf32>, !mbarrier.barriers<2>
  }
  mbarrier.wait %bar[%c1 : i32], phase(%c0) : !mbarrier.barriers<2>
  %v = tilus.load_shared %s1 : !tilus.shared<32x32xf32> -> !tilus.reg<32x32xf32>
  tilus.store_global %v, %gy[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<32x32xf32>
  mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<2>
  threadgroup.sync
  tilus.free_shared %s1 : !tilus.shared<32x32xf32>
  tilus.free_shared %s2 : !tilus.shared<32x32xf32>
}
