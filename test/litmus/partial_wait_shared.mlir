// Litmus: shared memory after a wait that only part of the group performs. Warp 0 waits for
// warp 1's 32 arrivals; warp 1 goes on at once through the allocation, a round trip of its part
// of the tile through shared memory (each thread reads back the elements it wrote, the same
// default layout), its part of the store and the free, and only then arrives. On the GPU the
// allocation and the free are resolved when compiling, so nobody waits there: y = 1.
// LITMUS: completes
// EXPECT: y = ones256.npy
tilus.kernel @partial_wait_shared(%y: !tilus.ptr<f32>) warps(2) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<256xf32>
  %bar = mbarrier.alloc counts [32] : !mbarrier.barriers<1>
  %t = tilus.register_tensor init(%one : f32) : !tilus.reg<256xf32>
  threadgroup.single_warp warp(0) {
    mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  }
  %s = tilus.shared_tensor : !tilus.shared<256xf32>
  tilus.store_shared %t, %s : !tilus.reg<256xf32>, !tilus.shared<256xf32>
  %v = tilus.load_shared %s : !tilus.shared<256xf32> -> !tilus.reg<256xf32>
  tilus.store_global %v, %gy[%c0] : !tilus.reg<256xf32>, !tilus.global<256xf32>
  tilus.free_shared %s : !tilus.shared<256xf32>
  threadgroup.single_warp warp(1) {
    mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
  }
}
