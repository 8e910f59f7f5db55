// plan-shared-memory reports a kernel whose allocations together do not fit.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --plan-shared-memory --no-output

// expected-error@+1 {{the kernel needs 320000 bytes of shared memory, more than the 232448 an sm_90 block may have}}
tilus.kernel @too_big() warps(4) blocks(affine_map<() -> (1)>) {
  %a = tilus.shared_tensor : !tilus.shared<40000xf32>
  %b = tilus.shared_tensor : !tilus.shared<40000xf32>
}
