// Litmus: a wait on the parity of the current phase of a barrier nobody arrives on never
// returns: phase 0 has not completed.
// LITMUS: deadlock
tilus.kernel @parity_current_phase() warps(1) blocks(affine_map<() -> (1)>) {
  %c0 = arith.constant 0 : i32
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  mbarrier.wait %bar[%c0 : i32], phase(%c0) : !mbarrier.barriers<1>
}
