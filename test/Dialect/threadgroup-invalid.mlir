// Every threadgroup verifier rule, with its message.
// RUN: tilus-opt %s --split-input-file --verify-diagnostics

tilus.kernel @begin_negative() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.group' op expects begin >= 0, but found -32}}
  threadgroup.group threads(-32, 32) {
  }
}

// -----

tilus.kernel @empty_group() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.group' op expects at least one thread, but found num = 0}}
  threadgroup.group threads(0, 0) {
  }
}

// -----

tilus.kernel @past_the_parent() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.group' op expects begin + num <= 128 (the size of the enclosing group, the whole block: threads [0, 128) (128 threads)), but found 96 + 64 = 160}}
  threadgroup.group threads(96, 64) {
  }
}

// -----

// Nesting is relative to the parent group: [32, 96) holds 64 threads.
tilus.kernel @nested_past_the_parent() warps(4) blocks(affine_map<() -> (1)>) {
  threadgroup.group threads(32, 64) {
    // expected-error@+1 {{'threadgroup.group' op expects begin + num <= 64 (the size of the enclosing group, threads [32, 96) (64 threads)), but found 32 + 64 = 96}}
    threadgroup.group threads(32, 64) {
    }
  }
}

// -----

tilus.kernel @pinned_thread_outside() warps(1) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.single_thread' op expects a thread in [0, 32) (the enclosing group, the whole block: threads [0, 32) (32 threads)), but found 32}}
  threadgroup.single_thread thread(32) {
  }
}

// -----

tilus.kernel @warp_outside() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.single_warp' op expects warp 4 (threads [128, 160)) inside the enclosing group of 128 threads (the whole block: threads [0, 128) (128 threads))}}
  threadgroup.single_warp warp(4) {
  }
}

// -----

tilus.kernel @warp_group_outside() warps(5) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.warp_group' op expects 32 * (warp_begin + num_warps) <= 160 (the size of the enclosing group, the whole block: threads [0, 160) (160 threads)), but found 32 * (2 + 4) = 192}}
  threadgroup.warp_group warps(2, 4) {
  }
}

// -----

tilus.kernel @empty_warp_group() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.warp_group' op expects warp_begin >= 0 and num_warps >= 1, but found 0 and 0}}
  threadgroup.warp_group warps(0, 0) {
  }
}

// -----

// A named barrier counts whole warps: 64 threads starting at thread 16 span three warps.
tilus.kernel @sync_unaligned() warps(4) blocks(affine_map<() -> (1)>) {
  threadgroup.group threads(16, 64) {
    // expected-error@+1 {{'threadgroup.sync' op needs a group a barrier can count (a multiple of 32 threads starting at a warp boundary, or threads within one warp), but the enclosing group is threads [16, 80) (64 threads)}}
    threadgroup.sync
  }
}

// -----

tilus.kernel @sync_partial_warps() warps(4) blocks(affine_map<() -> (1)>) {
  threadgroup.group threads(0, 48) {
    // expected-error@+1 {{'threadgroup.sync' op needs a group a barrier can count (a multiple of 32 threads starting at a warp boundary, or threads within one warp), but the enclosing group is threads [0, 48) (48 threads)}}
    threadgroup.sync
  }
}

// -----

tilus.kernel @sync_across_a_warp_boundary() warps(4) blocks(affine_map<() -> (1)>) {
  threadgroup.group threads(24, 16) {
    // expected-error@+1 {{'threadgroup.sync' op needs a group a barrier can count (a multiple of 32 threads starting at a warp boundary, or threads within one warp), but the enclosing group is threads [24, 40) (16 threads)}}
    threadgroup.sync
  }
}

// -----

tilus.kernel @setmaxnreg_not_a_multiple_of_8() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.setmaxnreg' op expects a register count that is a multiple of 8 in [24, 256], but found 44}}
  threadgroup.setmaxnreg dec 44
}

// -----

tilus.kernel @setmaxnreg_too_few() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.setmaxnreg' op expects a register count that is a multiple of 8 in [24, 256], but found 16}}
  threadgroup.setmaxnreg dec 16
}

// -----

tilus.kernel @setmaxnreg_too_many() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{'threadgroup.setmaxnreg' op expects a register count that is a multiple of 8 in [24, 256], but found 264}}
  threadgroup.setmaxnreg inc 264
}

// -----

// The producer of a warp-specialized kernel is one warp; setmaxnreg needs its whole warpgroup.
tilus.kernel @setmaxnreg_one_warp() warps(5) blocks(affine_map<() -> (1)>) {
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.single_warp warp(4) {
    // expected-error@+1 {{'threadgroup.setmaxnreg' op must be issued by whole warpgroups (a multiple of 128 threads starting at a multiple of 128), but its group is threads [128, 160) (32 threads)}}
    threadgroup.setmaxnreg dec 40
  }
}

// -----

tilus.kernel @setmaxnreg_misaligned() warps(8) blocks(affine_map<() -> (1)>) {
  // expected-note@+1 {{the enclosing group is opened here}}
  threadgroup.warp_group warps(2, 4) {
    // expected-error@+1 {{'threadgroup.setmaxnreg' op must be issued by whole warpgroups (a multiple of 128 threads starting at a multiple of 128), but its group is threads [64, 192) (128 threads)}}
    threadgroup.setmaxnreg dec 40
  }
}

// -----

tilus.kernel @setmaxnreg_action() warps(4) blocks(affine_map<() -> (1)>) {
  // expected-error@+1 {{expected register action for 'action', one of: inc, dec, but found 'up'}}
  threadgroup.setmaxnreg up 40
}
