// Litmus: happens-before through a second barrier. Warp 0 waits for the copy and then arrives
// (32 arrivals) on a hand-off barrier; warp 1 waits only on the hand-off and reads the copy's
// destination. The copy's completion is ordered before warp 0's arrival, which is ordered
// before warp 1's read, so there is no race: y = x.
// LITMUS: completes
// EXPECT: y = iota32x32.npy
tilus.kernel @tma_handoff(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>) warps(2) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.inputs = {x = "iota32x32.npy", y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %bytes = arith.constant 4096 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %s = tilus.shared_tensor : !tilus.shared<32x32xf32>
  %full = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  %handoff = mbarrier.alloc counts [32] : !mbarrier.barriers<1>
  threadgroup.single_warp warp(0) {
    threadgroup.single_thread {
      mbarrier.arrive_expect_tx %full[%c0 : i32], %bytes : !mbarrier.barriers<1>
      tma.global_to_shared %gx[%c0, %c0 : i32, i32], %s, %full[%c0 : i32] : !tilus.global<32x32xf32>, !tilus.shared<32x32xf32>, !mbarrier.barriers<1>
    }
    mbarrier.wait %full[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
    mbarrier.arrive %handoff[%c0 : i32] : !mbarrier.barriers<1>
  }
  threadgroup.single_warp warp(1) {
    mbarrier.wait %handoff[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
    %v = tilus.load_shared %s : !tilus.shared<32x32xf32> -> !tilus.reg<32x32xf32>
    tilus.store_global %v, %gy[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<32x32xf32>
  }
  threadgroup.sync
  tilus.free_shared %s : !tilus.shared<32x32xf32>
}
