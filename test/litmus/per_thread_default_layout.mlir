// Litmus: per-thread values in a tile without a layout. The lowering's default layout for
// 512 i32 over 128 threads is spatial(128) * local(4): thread t holds elements 4t .. 4t+3,
// so every one of them holds t and y[i] = i / 4.
// LITMUS: completes
// EXPECT: y = quarter512_i32.npy
tilus.kernel @per_thread_default_layout(%y: !tilus.ptr<i32>) warps(4) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<512xi32>
  %tid = tilus.thread_id
  %t = tilus.register_tensor init(%tid : i32) : !tilus.reg<512xi32>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<512xi32>, !tilus.global<512xi32>
}
