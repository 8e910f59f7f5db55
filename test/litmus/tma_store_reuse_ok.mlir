// Litmus: two bulk-store groups from one thread, then tma.wait_group 1: the older store has
// read its source %s1, so after threadgroup.sync the block may overwrite it. The global result
// is rows 0..31 = 1 and rows 32..63 = 2 (the later write of 3 is never stored).
// LITMUS: completes
// EXPECT: y = ones_twos64x32.npy
tilus.kernel @tma_store_reuse_ok(%y: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %three = arith.constant 3.0 : f32
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<64x32xf32>
  %s1 = tilus.shared_tensor : !tilus.shared<32x32xf32>
  %s2 = tilus.shared_tensor : !tilus.shared<32x32xf32>
  %t1 = tilus.register_tensor init(%one : f32) : !tilus.reg<32x32xf32>
  %t2 = tilus.register_tensor init(%two : f32) : !tilus.reg<32x32xf32>
  %t3 = tilus.register_tensor init(%three : f32) : !tilus.reg<32x32xf32>
  tilus.store_shared %t1, %s1 : !tilus.reg<32x32xf32>, !tilus.shared<32x32xf32>
  tilus.store_shared %t2, %s2 : !tilus.reg<32x32xf32>, !tilus.shared<32x32xf32>
  tma.fence_proxy_async shared
  threadgroup.sync
  threadgroup.single_thread {
    tma.shared_to_global %s1, %gy[%c0, %c0 : i32, i32] : !tilus.shared<32x32xf32>, !tilus.global<64x32xf32>
    tma.commit_group
    tma.shared_to_global %s2, %gy[%c32, %c0 : i32, i32] : !tilus.shared<32x32xf32>, !tilus.global<64x32xf32>
    tma.commit_group
    tma.wait_group 1
  }
  threadgroup.sync
  tilus.store_shared %t3, %s1 : !tilus.reg<32x32xf32>, !tilus.shared<32x32xf32>
  threadgroup.single_thread {
    tma.wait_group 0
  }
  threadgroup.sync
  tilus.free_shared %s1 : !tilus.shared<32x32xf32>
  tilus.free_shared %s2 : !tilus.shared<32x32xf32>
}
