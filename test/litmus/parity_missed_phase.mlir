// Litmus: a waiter that skips a phase. The warp waits for phase 0 (parity 0), then the barrier
// completes phases 1 and 2 before the warp waits for parity 0 again: the wait returns for
// phase 2, and phase 1 was never observed. The parity cannot tell the phases apart, and a
// kernel may mean it, so the run completes with a warning that says so.
// LITMUS: completes, warning: possible missed phase
// EXPECT: y = ones32.npy
tilus.kernel @parity_missed_phase(%y: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %one = arith.constant 1.0 : f32
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  threadgroup.single_thread {
    mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
  }
  threadgroup.sync
  mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  threadgroup.sync
  threadgroup.single_thread {
    mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
    mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
  }
  threadgroup.sync
  mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
  %t = tilus.register_tensor init(%one : f32) : !tilus.reg<32xf32>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<32xf32>, !tilus.global<32xf32>
}
