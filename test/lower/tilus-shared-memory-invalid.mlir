// A kernel whose allocations together do not fit: the verifier reports it at the allocation
// that crosses 227 KiB, before plan-shared-memory runs (the pass keeps its own check for IR
// that passes build).
// RUN: tilus-opt %s --split-input-file --verify-diagnostics --plan-shared-memory --no-output

// expected-note@+1 {{in this kernel}}
tilus.kernel @too_big() warps(4) blocks(affine_map<() -> (1)>) {
  %a = tilus.shared_tensor : !tilus.shared<40000xf32>
  // expected-error@+1 {{'tilus.shared_tensor' op expects the block's shared memory to fit in 232448 bytes, but this allocation of 160000 bytes (aligned to 128) ends at byte 320000}}
  %b = tilus.shared_tensor : !tilus.shared<40000xf32>
}
