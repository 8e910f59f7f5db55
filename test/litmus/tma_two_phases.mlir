// Litmus: tma_wrong_parity corrected. Round 0 waits for phase 0 (parity 0), round 1 for
// phase 1 (parity 1), so each read sees its own copy: y = x[0:32] + x[32:64], and with
// x[i, j] = 32 i + j that is y[i, j] = 64 i + 2 j + 1024.
// LITMUS: completes
// EXPECT: y = pair_sum32x32.npy
tilus.kernel @tma_two_phases(%x: !tilus.ptr<f32>, %y: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.inputs = {x = "iota64x32.npy", y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %bytes = arith.constant 4096 : i32
  %gx = tilus.global_view %x : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32x32xf32>
  %s = tilus.shared_tensor : !tilus.shared<32x32xf32>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  threadgroup.single_thread {
    mbarrier.arrive_expect_tx %bar[%c0 : i32], %bytes : !mbarrier.barriers<1>
    tma.global_to_shared %gx[%c0, %c0 : i32, i32], %s, %bar[%c0 : i32] : !tilus.global<64x32xf32>, !tilus.shared<32x32xf32>, !mbarrier.barriers<1>
  }
  mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  %v0 = tilus.load_shared %s : !tilus.shared<32x32xf32> -> !tilus.reg<32x32xf32>
  threadgroup.sync
  threadgroup.single_thread {
    mbarrier.arrive_expect_tx %bar[%c0 : i32], %bytes : !mbarrier.barriers<1>
    tma.global_to_shared %gx[%c32, %c0 : i32, i32], %s, %bar[%c0 : i32] : !tilus.global<64x32xf32>, !tilus.shared<32x32xf32>, !mbarrier.barriers<1>
  }
  mbarrier.wait %bar[%c0 : i32], phase(%c1) : !mbarrier.barriers<1>
  %v1 = tilus.load_shared %s : !tilus.shared<32x32xf32> -> !tilus.reg<32x32xf32>
  %sum = tilus.add %v0, %v1 : (!tilus.reg<32x32xf32>, !tilus.reg<32x32xf32>) -> !tilus.reg<32x32xf32>
  tilus.store_global %sum, %gy[%c0, %c0] : !tilus.reg<32x32xf32>, !tilus.global<32x32xf32>
  threadgroup.sync
  tilus.free_shared %s : !tilus.shared<32x32xf32>
}
