// Litmus: a store after a wait that only part of the group performs. Warp 0 waits for warp
// 1's 32 arrivals; warp 1 does not wait: it stores its part of the tile (elements 128..255 of
// the default layout spatial(64) * local(4)) and then arrives. On the GPU both warps store and
// the kernel completes with y = 1 everywhere.
// LITMUS: completes
// EXPECT: y = ones256.npy
tilus.kernel @partial_wait_store(%y: !tilus.ptr<f32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %bar = mbarrier.alloc counts [32] : !mbarrier.barriers<1>
  %t = tilus.register_tensor init(%one : f32) : !tilus.reg<256xf32>
  threadgroup.single_warp warp(0) {
    mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  }
  tilus.store_global %t, %gy[%c0] : !tilus.reg<256xf32>, !tilus.global<256xf32>
  threadgroup.single_warp warp(1) {
    mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
  }
}
