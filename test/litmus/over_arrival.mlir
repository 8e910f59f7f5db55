// Litmus: all 32 threads of the warp arrive on a barrier that expects one arrival per phase
// (the arrive is not wrapped in threadgroup.single_thread).
// LITMUS: over-arrival
tilus.kernel @over_arrival() warps(1) blocks(affine_map<() -> (1)>) {
  %c0 = arith.constant 0 : i32
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
}
