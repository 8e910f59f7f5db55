// Litmus: a register tile of per-thread values. Every thread puts its own thread_id in the
// tile; the layout spatial(128) gives element i to thread i, so y[i] = i (on the GPU each
// thread holds one register with its id and stores it).
// LITMUS: completes
// EXPECT: y = iota128_i32.npy
tilus.kernel @per_thread_tile(%y: !tilus.ptr<i32>) warps(4) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %gy = tilus.global_view %y : !tilus.ptr<i32> -> !tilus.global<128xi32>
  %tid = tilus.thread_id
  %t = tilus.register_tensor init(%tid : i32) : !tilus.reg<128xi32, layout = spatial(128)>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<128xi32, layout = spatial(128)>, !tilus.global<128xi32>
}
