// Litmus: a wait on the parity of the phase just before the current one returns at once.
// Two single-thread arrivals complete phases 0 and 1 of a one-arrival barrier (the current
// phase is 2, parity 0); every thread then waits for parity 1. PTX `mbarrier.try_wait.parity`
// succeeds when the phase of that parity has completed, i.e. it tests the current or the
// immediately preceding phase, so the wait returns although these threads never waited before.
// LITMUS: completes
// EXPECT: y = ones32.npy
tilus.kernel @parity_preceding_phase(%y: !tilus.ptr<f32>) warps(1) blocks(affine_map<(d0) -> (1)>)
    attributes {tilus.inputs = {y = "zeros"}, tilus.outputs = ["y"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %one = arith.constant 1.0 : f32
  %gy = tilus.global_view %y : !tilus.ptr<f32> -> !tilus.global<32xf32>
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  threadgroup.single_thread {
    mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
    mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
  }
  threadgroup.sync
  mbarrier.wait %bar[%c0 : i32], phase(%c1) : !mbarrier.barriers<1>
  %t = tilus.register_tensor init(%one : f32) : !tilus.reg<32xf32>
  tilus.store_global %t, %gy[%c0] : !tilus.reg<32xf32>, !tilus.global<32xf32>
}
