// Thread groups: the partitions of seeds 000 and 001 (Tilus's thread-group guide) and the
// warp-specialized block shapes of spec §1.2 / §9.
//
// A kernel body runs on all `32 * warps` threads (the root group). `threadgroup.group
// threads(b, n)` runs its region on threads [b, b + n) of the enclosing group; inside, thread
// ids (`tilus.thread_id`), register layouts and `threadgroup.sync` are relative to the new
// group. The shortcuts are `single_thread` (one thread; elected by the hardware unless
// `thread(i)` is given), `single_warp warp(w)` (= threads(32w, 32)) and `warp_group warps(b, n)`
// (= threads(32b, 32n)). The only rules are b >= 0 and b + n <= the parent's size: n does NOT
// have to divide the parent (seed 001's RST page says it must; Tilus's code and its
// warp-specialized kernels do not, spec §1.2 and §11.1). @hopper_v5_roles shows why:
// 128 + 128 + 32 threads in a 288-thread block.
//
// Check: tilus-opt examples/thread_groups.mlir
// RUN: tilus-opt %s | FileCheck %s
// RUN: tilus-opt %s --print-op-generic | tilus-opt | FileCheck %s
//
// Run on the CPU interpreter (@split_work is checked against @copy_ref):
// RUN: tilus-run %s --kernel split_work | FileCheck %s --check-prefix=SPLIT
// SPLIT: check dst vs reference @copy_ref: ok
// RUN: tilus-run %s --kernel nested | FileCheck %s --check-prefix=RAN
// RUN: tilus-run %s --kernel shortcuts | FileCheck %s --check-prefix=RAN
// RUN: tilus-run %s --kernel hopper_v3_roles | FileCheck %s --check-prefix=RAN
// RUN: tilus-run %s --kernel hopper_v5_roles | FileCheck %s --check-prefix=RAN
// RAN: steps:

// Seed 001, examples 1 and 2: 4 warps; warps 0 and 1 each load their own chunk, then the whole
// block synchronizes. Register tensors made inside a group are spread over its threads only,
// so these layouts span 32 threads, not 128.
// CHECK-LABEL: tilus.kernel @split_work
// CHECK:         threadgroup.group threads(0, 32) {
// CHECK-NEXT:      tilus.load_global {{.*}} -> !tilus.reg<16x16xf32, layout = spatial(8, 4) * local(2, 4)>
// CHECK:         threadgroup.group threads(32, 32) {
// CHECK:         threadgroup.sync
tilus.kernel @split_work(%src: !tilus.ptr<f32>, %dst: !tilus.ptr<f32>) warps(4)
    blocks(affine_map<(d0, d1) -> (1)>)
    attributes {tilus.inputs = {dst = "zeros"}, tilus.outputs = ["dst"], tilus.reference = "copy_ref"} {
  %c0 = arith.constant 0 : i32
  %c16 = arith.constant 16 : i32
  %g = tilus.global_view %src : !tilus.ptr<f32> -> !tilus.global<32x16xf32>
  %o = tilus.global_view %dst : !tilus.ptr<f32> -> !tilus.global<32x16xf32>
  // Only threads 0-31: rows [0, 16).
  threadgroup.group threads(0, 32) {
    %a = tilus.load_global %g[%c0, %c0] : !tilus.global<32x16xf32> -> !tilus.reg<16x16xf32, layout = spatial(8, 4) * local(2, 4)>
    tilus.store_global %a, %o[%c0, %c0] : !tilus.reg<16x16xf32, layout = spatial(8, 4) * local(2, 4)>, !tilus.global<32x16xf32>
  }
  // Only threads 32-63: rows [16, 32). Threads 64-127 skip both.
  threadgroup.group threads(32, 32) {
    %b = tilus.load_global %g[%c16, %c0] : !tilus.global<32x16xf32> -> !tilus.reg<16x16xf32, layout = spatial(8, 4) * local(2, 4)>
    tilus.store_global %b, %o[%c16, %c0] : !tilus.reg<16x16xf32, layout = spatial(8, 4) * local(2, 4)>, !tilus.global<32x16xf32>
  }
  // All 128 threads again: bar.sync 0.
  threadgroup.sync
}

// Seeds 000 and 001, nested groups and group-scoped sync: each level partitions its parent,
// and every `threadgroup.sync` waits for its own group only (a named barrier for threads
// [0, 64), bar.warp.sync with a 16-lane mask for the half warps, bar.sync 0 at the root).
// CHECK-LABEL: tilus.kernel @nested
// CHECK:         threadgroup.group threads(0, 64) {
// CHECK-NEXT:      threadgroup.group threads(0, 32) {
// CHECK-NEXT:        threadgroup.group threads(0, 16) {
// CHECK-NEXT:          %{{.*}} = tilus.thread_id
// CHECK-NEXT:          threadgroup.sync
// CHECK-NEXT:        }
// CHECK-NEXT:        threadgroup.group threads(16, 16) {
// CHECK-NEXT:          %{{.*}} = tilus.thread_id
// CHECK-NEXT:          threadgroup.sync
// CHECK-NEXT:        }
// CHECK-NEXT:        threadgroup.sync
// CHECK-NEXT:      }
// CHECK-NEXT:      threadgroup.group threads(32, 32) {
// CHECK-NEXT:        %{{.*}} = tilus.warp_id
// CHECK-NEXT:      }
// CHECK-NEXT:      threadgroup.sync
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.sync
tilus.kernel @nested() warps(4) blocks(affine_map<() -> (1)>) {
  threadgroup.group threads(0, 64) {
    threadgroup.group threads(0, 32) {
      // Absolute threads 0-15; thread_id is 0..15 here.
      threadgroup.group threads(0, 16) {
        %t = tilus.thread_id
        threadgroup.sync
      }
      // Absolute threads 16-31; thread_id is again 0..15.
      threadgroup.group threads(16, 16) {
        %t = tilus.thread_id
        threadgroup.sync
      }
      // Back to threads 0-31 (one warp: bar.warp.sync).
      threadgroup.sync
    }
    // Absolute threads 32-63.
    threadgroup.group threads(32, 32) {
      %w = tilus.warp_id
    }
    // Only threads 0-63 (a named barrier over 2 warps).
    threadgroup.sync
  }
  // The whole block.
  threadgroup.sync
}

// The shortcuts (seed 000, "Shortcuts"): one elected thread for a barrier arrival, a pinned
// thread, one warp, and a 128-thread warpgroup, in an 8-warp block.
// CHECK-LABEL: tilus.kernel @shortcuts
// CHECK:         threadgroup.single_thread {
// CHECK-NEXT:      mbarrier.arrive
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.single_thread thread(5) {
// CHECK:         threadgroup.single_warp warp(2) {
// CHECK:         threadgroup.warp_group warps(4, 4) {
// CHECK-NEXT:      tilus.register_tensor {{.*}} : !tilus.reg<64x64xf32, layout = spatial(16, 8) * local(4, 8)>
tilus.kernel @shortcuts() warps(8) blocks(affine_map<() -> (1)>) {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %bar = mbarrier.alloc counts [1] : !mbarrier.barriers<1>
  // Exactly one arrival (an arrive in the root group would be 256 arrivals).
  threadgroup.single_thread {
    mbarrier.arrive %bar[%c0 : i32] : !mbarrier.barriers<1>
  }
  // Thread 5 of the block, chosen explicitly.
  threadgroup.single_thread thread(5) {
    %t = tilus.thread_id
  }
  // Warp 2 = threads [64, 96); lane_id is the hardware lane, the same as thread_id here.
  threadgroup.single_warp warp(2) {
    %l = tilus.lane_id
    threadgroup.sync
  }
  // Warps 4-7 = threads [128, 256): a warpgroup (what wgmma needs), 128 threads for layouts.
  threadgroup.warp_group warps(4, 4) {
    %acc = tilus.register_tensor init(%zero : f32) : !tilus.reg<64x64xf32, layout = spatial(16, 8) * local(4, 8)>
    threadgroup.sync
  }
  %p = mbarrier.consumer_initial_phase
  mbarrier.wait %bar[%c0 : i32], phase(%p) : !mbarrier.barriers<1>
}

// Hopper v3/v4's roles (spec §9): 5 warps = 160 threads, a consumer warpgroup [0, 128) and a
// producer warp [128, 160). 128 does not divide 160.
// CHECK-LABEL: tilus.kernel @hopper_v3_roles
// CHECK-SAME:    warps(5)
// CHECK:         threadgroup.group threads(0, 128) {
// CHECK:         threadgroup.group threads(128, 32) {
// CHECK-NEXT:      threadgroup.single_thread {
tilus.kernel @hopper_v3_roles() warps(5) blocks(affine_map<() -> (1)>) {
  threadgroup.group threads(0, 128) {
    threadgroup.sync
  }
  threadgroup.group threads(128, 32) {
    threadgroup.single_thread {
    }
  }
}

// Hopper v5's roles (spec §9): 9 warps = 288 threads, two consumer warpgroups (threads 0-127
// and 128-255) and the producer warp at 256: 128 + 128 + 32, neither size divides 288. Each
// consumer group synchronizes on its own named barrier; the producer's elected thread does
// the expect-tx.
// CHECK-LABEL: tilus.kernel @hopper_v5_roles
// CHECK-SAME:    warps(9)
// CHECK:         threadgroup.warp_group warps(0, 4) {
// CHECK-NEXT:      %{{.*}} = tilus.warp_id
// CHECK-NEXT:      threadgroup.sync
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.warp_group warps(4, 4) {
// CHECK-NEXT:      %{{.*}} = tilus.warp_id
// CHECK-NEXT:      threadgroup.sync
// CHECK-NEXT:    }
// CHECK-NEXT:    threadgroup.single_warp warp(8) {
// CHECK-NEXT:      threadgroup.single_thread {
tilus.kernel @hopper_v5_roles() warps(9) blocks(affine_map<() -> (1)>) {
  // Consumer 0: threads [0, 128); warp_id 0..3.
  threadgroup.warp_group warps(0, 4) {
    %w = tilus.warp_id
    threadgroup.sync
  }
  // Consumer 1: threads [128, 256); warp_id is again 0..3 (relative to the group).
  threadgroup.warp_group warps(4, 4) {
    %w = tilus.warp_id
    threadgroup.sync
  }
  // Producer: threads [256, 288), one elected thread issues.
  threadgroup.single_warp warp(8) {
    threadgroup.single_thread {
    }
  }
  threadgroup.sync
}

// A naive reference for `tilus-run` (@split_work's `tilus.reference`): the whole block copies
// the 32x16 tile at once.
tilus.kernel @copy_ref(%src: !tilus.ptr<f32>, %dst: !tilus.ptr<f32>) warps(4)
    blocks(affine_map<(d0, d1) -> (1)>) {
  %c0 = arith.constant 0 : i32
  %g = tilus.global_view %src : !tilus.ptr<f32> -> !tilus.global<32x16xf32>
  %o = tilus.global_view %dst : !tilus.ptr<f32> -> !tilus.global<32x16xf32>
  %t = tilus.load_global %g[%c0, %c0] : !tilus.global<32x16xf32> -> !tilus.reg<32x16xf32>
  tilus.store_global %t, %o[%c0, %c0] : !tilus.reg<32x16xf32>, !tilus.global<32x16xf32>
}
