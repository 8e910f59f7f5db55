// lower-tilus-kernel: tilus.kernel becomes ptx.entry; ids become special registers, relative
// to the enclosing thread group; fast_divmod becomes divui/remui.
// RUN: tilus-opt %s --lower-tilus-kernel | FileCheck %s

// CHECK-LABEL: ptx.entry @ids(%arg0: i64, %arg1: i32, %arg2: f32)
// CHECK-SAME:    maxntid = 128 : i64, reqnctapercluster = 2 : i64, target = "sm_90a"
// CHECK-SAME:    tilus.blocks = #map, tilus.cluster = array<i64: 2, 1, 1>, tilus.threads = 128 : i64, tilus.warps = 4 : i64
// CHECK:         ptx.special ctaid.x : i32
// CHECK-NEXT:    ptx.special nctaid.y : i32
// CHECK-NEXT:    %[[T:.*]] = ptx.special tid.x : i32
// CHECK-NEXT:    %[[T2:.*]] = ptx.special tid.x : i32
// CHECK-NEXT:    %[[C5:.*]] = arith.constant 5 : i32
// CHECK-NEXT:    arith.shrui %[[T2]], %[[C5]] : i32
// CHECK-NEXT:    ptx.special laneid : i32
// CHECK-NEXT:    arith.divui %[[T]], %arg1 : i32
// CHECK-NEXT:    arith.remui %[[T]], %arg1 : i32
// Inside threads(64, 64), thread_id is tid.x - 64.
// CHECK:         threadgroup.group threads(64, 64) {
// CHECK-NEXT:      %[[G:.*]] = ptx.special tid.x : i32
// CHECK-NEXT:      %[[M:.*]] = arith.constant -64 : i32
// CHECK-NEXT:      arith.addi %[[G]], %[[M]] : i32
// CHECK:         }
// CHECK-NEXT:    ptx.ret
// CHECK-NOT:   tilus.kernel
tilus.kernel @ids(%p: !tilus.ptr<f32>, %n: i32, %s: f32) warps(4) blocks(affine_map<(d0, d1, d2) -> (d1 ceildiv 128, 2)>) cluster(2, 1, 1) {
  %bx = tilus.block_id x
  %ny = tilus.num_blocks y
  %t = tilus.thread_id
  %w = tilus.warp_id
  %l = tilus.lane_id
  %q, %r = tilus.fast_divmod %t, %n
  threadgroup.group threads(64, 64) {
    %t2 = tilus.thread_id
  }
}

// -----

// An elected thread's index is 0.
// RUN: tilus-opt %s --split-input-file --lower-tilus-kernel | FileCheck %s --check-prefix=ELECT
// ELECT-LABEL: ptx.entry @elected()
// ELECT:         threadgroup.single_thread {
// ELECT-NEXT:      arith.constant 0 : i32
tilus.kernel @elected() warps(1) blocks(affine_map<() -> (1)>) {
  threadgroup.single_thread {
    %t = tilus.thread_id
  }
}
